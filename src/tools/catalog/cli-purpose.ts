import type {Config} from '@oclif/core'

import type {Boundary} from '../exposure/projection.js'

// What the CLI is and when to use it, in two sentences from its own metadata: the first thing a host or an agent
// reads of it. The Agent Skill's description and the first paragraph of the server's instructions (which Codex shows
// its model as the description of the whole server) both begin with it.

/** The most topics named; the rest are counted. */
const MAX_TOPICS = 12

/** The topics of the commands inside the boundary (the first word of ids that have more than one), sorted. */
function topicsOf(boundary: Boundary): string[] {
  return [...new Set([...boundary.executable.keys()].filter((id) => id.includes(':')).map((id) => id.split(':')[0]))].sort()
}

/**
 * "<description>: the `bin` command-line tool. Use when the person asks to work with bin (topics…), or to run a bin
 * command" — from the CLI's package.json description and the topics inside the boundary; `readOnly` says so.
 * `what` ends the second sentence: what the reader gets (`which command does what, …` for a skill).
 */
export function cliPurpose(config: Config, boundary: Boundary, readOnly: boolean, what: string): string {
  const description = (config.pjson as {description?: string}).description?.trim().replace(/\.$/, '')
  const topics = topicsOf(boundary)
  const named = topics.length > MAX_TOPICS ? `${topics.slice(0, MAX_TOPICS).join(', ')} and ${topics.length - MAX_TOPICS} more` : topics.join(', ')
  return [
    `${description ? `${description}: the` : 'The'} \`${config.bin}\` command-line tool${readOnly ? ', its read-only commands only' : ''}.`,
    `Use when the person asks to work with ${config.bin}${named ? ` (${named})` : ''}, or to run a ${config.bin} command: ${what}.`,
  ].join(' ')
}
