import type {Command, Config} from '@oclif/core'

import {createRequire} from 'node:module'

import {displayId} from '../../host/spelling.js'

export const MAX_DESCRIPTION = 1024
const MAX_EXAMPLES = 3

const requireHere = createRequire(import.meta.url)
let ejs: typeof import('ejs') | undefined

/**
 * Renders the ejs templates of oclif help text (`<%= config.bin %>`, `<%= command.id %>`,
 * `<%- config.pjson.oclif.examplePlugin || "myplugin" %>`, `<%= config.scopedEnvVarKey('X') %>`) as oclif's own help
 * does: ejs, with the CLI's config spread and as `config`, and the command. Plain text out (nothing HTML-escaped).
 * A template that throws costs only its own tag, never the text around it. ejs loads on first use: most CLIs have
 * few templates, and start-up should not pay for it.
 */
export function renderTemplate(text: string, config: Config, command: Command.Cached): string {
  if (!text.includes('<%')) return text
  const data = {...config, command: {...command, id: displayId(command.id, config)}, config}
  // Most templates are a property path (`<%= config.bin %>`): read it directly, and load ejs only for the others.
  const simple = text.replaceAll(/<%[=-]?\s*([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*)\s*%>/g, (whole, path: string) => {
    let value: unknown = data
    for (const key of path.split('.')) value = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined
    return typeof value === 'string' || typeof value === 'number' ? String(value) : whole
  })
  if (!simple.includes('<%')) return simple
  ejs ??= requireHere('ejs') as typeof import('ejs')
  const options = {escape: (value: unknown) => String(value)}
  try {
    return ejs.render(text, data, options)
  } catch {
    return text.replaceAll(/<%[\s\S]*?%>/g, (tag) => {
      try {
        return ejs!.render(tag, data, options)
      } catch {
        return ''
      }
    })
  }
}

/**
 * A command's examples as text lines. Manifests hold an array of strings or `{command, description}` objects, but
 * older CLIs also ship a single string; anything else is ignored.
 */
export function commandExamples(command: Command.Cached): string[] {
  const raw = command.examples as unknown
  const list = Array.isArray(raw) ? raw : typeof raw === 'string' ? [raw] : []
  return list
    .filter((e): e is Command.Example => typeof e === 'string' || (typeof e === 'object' && e !== null && typeof e.command === 'string'))
    .map((e) => exampleText(e))
}

function exampleText(example: Command.Example): string {
  if (typeof example === 'string') return example
  return example.description ? `${example.command}  # ${example.description}` : example.command
}

function deprecationNote(command: Command.Cached, config: Config): string | undefined {
  if (command.state !== 'deprecated' && !command.deprecationOptions) return undefined
  const {message, to, version} = command.deprecationOptions ?? {}
  if (message) return `DEPRECATED: ${message}`
  const instead = to ? ` Use "${displayId(to, config)}" instead.` : ''
  return `DEPRECATED${version ? ` (removed in ${version})` : ''}.${instead}`
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1).trimEnd()}…`
}

/** The summary, else the first paragraph of the description, rendered and on one line. */
export function commandSummary(command: Command.Cached, config: Config): string {
  const source = command.summary ?? command.description?.split(/\n\s*\n/)[0] ?? ''
  return renderTemplate(source, config, command).replaceAll(/\s+/g, ' ').trim()
}

/** The description past the summary: without a summary, the first paragraph stood in for it. */
export function commandDetails(command: Command.Cached): string {
  if (command.summary !== undefined) return command.description ?? ''
  return (command.description ?? '').split(/\n\s*\n/).slice(1).join('\n\n')
}

/** The description past the summary (commandDetails), its templates rendered. */
export function renderedDetails(command: Command.Cached, config: Config): string {
  const details = commandDetails(command)
  return details.trim() ? renderTemplate(details, config, command) : ''
}

/**
 * The tool description: deprecation first, then summary or description, then a few examples; bounded in length.
 * `summary` is commandSummary's, when the caller has it already.
 */
export function toolDescription(command: Command.Cached, config: Config, summary = commandSummary(command, config), details = renderedDetails(command, config)): string {
  const parts: string[] = []
  const deprecated = deprecationNote(command, config)
  if (deprecated) parts.push(deprecated)

  parts.push(summary || `Runs "${config.bin} ${displayId(command.id, config)}".`)
  if (details.trim()) parts.push(details.trim())

  const examples = commandExamples(command)
    .slice(0, MAX_EXAMPLES)
    .map((e) => renderTemplate(e, config, command).trim())
  let text = parts.join('\n\n')
  if (examples.length > 0) {
    const block = `\n\nExamples:\n${examples.map((e) => `  ${e}`).join('\n')}`
    // Examples are worth more than the tail of a long description: keep them whole and clip the prose.
    text = block.length < MAX_DESCRIPTION / 2 ? clip(text, MAX_DESCRIPTION - block.length) + block : clip(text + block, MAX_DESCRIPTION)
  }

  return clip(text, MAX_DESCRIPTION)
}

/** Every topic id the command ids imply: `apps:config:set` gives `apps` and `apps:config`. */
export function topicIds(ids: Iterable<string>): Set<string> {
  const topics = new Set<string>()
  for (const id of ids) {
    const parts = id.split(':')
    for (let i = 1; i < parts.length; i++) topics.add(parts.slice(0, i).join(':'))
  }

  return topics
}
