import type {Config} from '@oclif/core'

import type {Settings} from '../settings/settings.js'
import type {Projection} from '../tools/exposure/projection.js'

import {uriScheme} from '../host/spelling.js'
import {cliPurpose} from '../tools/catalog/cli-purpose.js'

/** Agent instructions: the server's `instructions` and the `<bin>://setup/agent-instructions` resource. */
export interface AgentInstructions {
  /** The resource's Markdown. */
  markdown: string
  /** The short form sent in `instructions` (initialize / server/discover). */
  summary: string
  uri: string
}

const EXAMPLES = 6

/**
 * Generated from the CLI's metadata: what the CLI is, how `cwd` works, what is read-only and what is not, how to
 * reach commands that are not listed, and the limits. The author's `instructions` come first (or replace it all when
 * `instructionsMode` is "replace").
 */
export function agentInstructions(config: Config, settings: Settings, projection: Projection): AgentInstructions {
  const commands = [...projection.executable.values()]
  const readOnly = commands.filter((t) => t.hints.readOnlyHint)
  const destructive = commands.filter((t) => t.hints.destructiveHint)
  const where = settings.defaultCwd ? `in ${settings.defaultCwd}` : 'in an empty private directory'
  const limits = [
    `A command still running after ${Math.round(settings.foregroundMs / 1000)} s goes on as a job: the call answers with its id and output so far; follow it with job_status (it can wait up to 50 s for the end) and stop it with cancel_job.`,
    `Commands are killed after ${Math.round(settings.timeoutMs / 1000)} s in all.`,
    `A result longer than about ${settings.maxResultTokens} tokens is cut to its head and tail; read_output reads the whole output (up to ${Math.round(settings.maxOutputBytes / 1024)} KiB per stream) in pages.`,
  ].join(' ')
  // Which commands are tools of their own depends on the host (a host that searches its tools gets them all), and
  // the band is fitted only when tools/list first asks: said without counting them.
  const reach = `Every one of the ${commands.length} commands is reachable: one not listed as a tool of its own through find_commands (find it), describe_command (its definitionHash) and run_command.`
  const safety = projection.readOnly
    ? `Read-only mode: only the ${commands.length} read-only commands can run.`
    : `${readOnly.length} of ${commands.length} commands are read-only (readOnlyHint); the others may change files or remote state, and those marked destructiveHint may delete things.`
  const generated = [
    `These tools run commands of the ${config.bin} CLI (${config.name} ${config.version}); each call starts the command in a fresh process.`,
    `Pass "cwd" (an absolute directory path) to choose where a command runs; without it, commands run ${where}. Every result says which directory was used.`,
    safety,
    reach,
    limits,
    'Use find_commands, list_commands and describe_command to explore, search_docs and read_doc for documentation, cli_info for versions, describe_capabilities for what this server exposes.',
  ].join(' ')
  const own = settings.author.instructions?.trim()
  const replace = settings.author.instructionsMode === 'replace' && own
  // The first paragraph says what the CLI is and when to use it: Codex shows its model that paragraph alone, as the
  // description of the whole server, until the model searches its tools.
  const purpose = cliPurpose(config, projection, projection.readOnly, `these tools run its commands in a fresh process each, and find_commands finds any of them by task`)
  const summary = replace ? own : [purpose, ...(own ? [own] : []), generated].join('\n\n')

  const list = (tools: typeof commands) =>
    tools.length === 0 ? '- (none)' : [...tools.slice(0, EXAMPLES).map((t) => `- \`${config.bin} ${t.displayId}\` — ${t.summary}`), ...(tools.length > EXAMPLES ? [`- … and ${tools.length - EXAMPLES} more`] : [])].join('\n')
  const markdown = replace
    ? `${own}\n`
    : [
        `# Using ${config.bin} through MCP`,
        '',
        purpose,
        ...(own ? ['', own] : []),
        '',
        `${config.name} ${config.version}. Each tool call runs one ${config.bin} command in a fresh process, with closed input (a command that asks a question fails instead of waiting), no colours, and the update and telemetry checks off.`,
        '',
        '## Where commands run',
        '',
        `Give every call a \`cwd\`: the absolute path of an existing directory. Without it, commands run ${where}, never in the server's own directory. The result says which directory was used.`,
        '',
        '## Read-only and mutating commands',
        '',
        safety,
        '',
        'Read-only, for example:',
        list(readOnly),
        '',
        'Destructive, for example (ask before running these):',
        list(destructive),
        '',
        '## Commands that are not listed',
        '',
        reach,
        '',
        '## Limits',
        '',
        `${limits} Pass an \`idempotencyKey\` when a retry must not run a command twice.`,
        '',
      ].join('\n')
  return {markdown, summary, uri: `${uriScheme(config.bin)}://setup/agent-instructions`}
}
