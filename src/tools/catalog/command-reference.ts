import type {Command, Config} from '@oclif/core'

import type {CommandTool} from './registry.js'

import {displayId} from '../../host/spelling.js'
import {definitionHash} from './definition-hash.js'
import {commandExamples, renderTemplate} from './help-text.js'
import {toJsonSchema} from './input-schema.js'

// A command's reference, from its metadata: the details describe_command answers with, and the same as Markdown for
// the command-reference resource and the Agent Skill's references.

function flagInfo(flag: Command.Flag.Cached) {
  return {
    name: flag.name,
    type: flag.type,
    ...(flag.char ? {char: flag.char} : {}),
    description: flag.summary ?? flag.description,
    ...(flag.required ? {required: true} : {}),
    ...(flag.default === undefined || typeof flag.default === 'function' ? {} : {default: flag.default}),
    ...(flag.type === 'option' && flag.options ? {options: flag.options} : {}),
    ...(flag.type === 'option' && flag.multiple ? {multiple: true} : {}),
    ...(flag.type === 'boolean' && flag.allowNo ? {allowNo: true} : {}),
    ...(flag.exclusive?.length ? {exclusive: flag.exclusive} : {}),
    ...(flag.dependsOn?.length ? {dependsOn: flag.dependsOn} : {}),
    ...(flag.env ? {env: flag.env} : {}),
  }
}

/** Everything about one command inside the boundary: what describe_command answers and the command reference shows. */
export function commandDetails(tool: CommandTool, config: Config, listed: ReadonlySet<CommandTool>) {
  const {command} = tool
  const render = (text: string) => renderTemplate(text, config, command)
  const withheld = new Set(tool.withheldFlags.map((w) => w.name))
  return {
    aliases: (command.aliases ?? []).map((a) => displayId(a, config)),
    annotationEvidence: tool.hintEvidence,
    annotations: tool.hints,
    annotationSource: tool.hintSource,
    definitionHash: definitionHash(tool),
    args: Object.values(command.args ?? {})
      .filter((a) => !a.hidden)
      .map((a) => ({description: a.description, name: a.name, ...(a.required ? {required: true} : {}), ...(a.options ? {options: a.options} : {})})),
    description: render(command.description ?? command.summary ?? ''),
    examples: commandExamples(command).map((e) => render(e)),
    foregroundSeconds: tool.foregroundMs / 1000,
    flags: Object.values(command.flags ?? {})
      .filter((f) => !f.hidden && !withheld.has(f.name))
      .map((f) => flagInfo(f)),
    id: tool.displayId,
    inputSchema: toJsonSchema(tool.input.schema),
    jsonOutput: tool.json,
    listed: listed.has(tool),
    plugin: command.pluginName,
    summary: tool.summary,
    timeoutSeconds: tool.timeoutMs / 1000,
    tool: listed.has(tool) ? tool.name : null,
    usage: (Array.isArray(command.usage) ? command.usage : command.usage ? [command.usage] : []).map((u) => render(u)),
    // Left out so the command stays read-only whatever is passed; the person can run them from a shell.
    ...(tool.withheldFlags.length > 0 ? {withheldFlags: tool.withheldFlags} : {}),
  }
}

export const bullet = (items: string[]) => items.map((item) => `- ${item}`).join('\n')

type CommandDetails = ReturnType<typeof commandDetails>

/** One flag as a Markdown list item reads it: `--name <value>` (`-c`) — what it does (required; default; env). */
export function flagLine(f: CommandDetails['flags'][number]): string {
  const value = f.type === 'option' ? ` <${f.options ? f.options.join('|') : 'value'}>` : ''
  const facts = [f.required ? 'required' : '', 'default' in f ? `default: ${JSON.stringify(f.default)}` : '', f.multiple ? 'repeatable' : '', f.env ? `env: ${f.env}` : ''].filter(Boolean)
  return `\`--${f.name}${value}\`${f.char ? ` (\`-${f.char}\`)` : ''}${f.description ? ` — ${f.description}` : ''}${facts.length > 0 ? ` (${facts.join('; ')})` : ''}`
}

/** One argument as a Markdown list item reads it. */
export function argLine(a: CommandDetails['args'][number]): string {
  return `\`${a.name}\`${a.required ? ' (required)' : ''}${a.description ? ` — ${a.description}` : ''}${a.options ? ` One of: ${a.options.join(', ')}.` : ''}`
}

/** How to type the command: its own usage lines, else its id with its args and `[FLAGS]`. */
export function usageLines(d: CommandDetails, bin: string): string[] {
  if (d.usage.length > 0) return d.usage.map((u) => `${bin} ${u}`)
  return [`${bin} ${d.id}${d.args.length > 0 ? ` ${d.args.map((a) => `[${a.name.toUpperCase()}]`).join(' ')}` : ''}${d.flags.length > 0 ? ' [FLAGS]' : ''}`]
}

/** A command's reference as Markdown (the `<bin>://commands/{id}` resource): what `<bin> help <id>` says, and how to call it here. */
export function commandReference(tool: CommandTool, config: Config, listed: ReadonlySet<CommandTool>): string {
  const d = commandDetails(tool, config, listed)
  const hints = d.annotations
  const sections = [`# ${config.bin} ${d.id}`, d.summary || '', d.description && d.description !== d.summary ? d.description : '']
  sections.push('## Usage', ['```sh', ...usageLines(d, config.bin), '```'].join('\n'))
  if (d.args.length > 0) sections.push('## Arguments', bullet(d.args.map((a) => argLine(a))))
  if (d.flags.length > 0) sections.push('## Flags', bullet(d.flags.map((f) => flagLine(f))))
  if (d.examples.length > 0) sections.push('## Examples', ['```sh', ...d.examples, '```'].join('\n'))
  const how = d.tool ? `Call the tool \`${d.tool}\`.` : `Not listed as a tool: run it with \`run_command\` {"command": "${d.id}", "expectedDefinitionHash": "${d.definitionHash}"}.`
  const labels = [hints.readOnlyHint ? 'read-only' : 'may change things', hints.destructiveHint ? 'destructive' : '', hints.idempotentHint ? 'idempotent' : ''].filter(Boolean)
  sections.push('## Through this MCP server', `${how} Annotations: ${labels.join(', ')} (from ${d.annotationSource}). A call waits ${d.foregroundSeconds} s, then the command goes on as a job; it is killed after ${d.timeoutSeconds} s.`)
  return `${sections.filter(Boolean).join('\n\n')}\n`
}
