import type {Command, Config} from '@oclif/core'

import * as z from 'zod'

import type {Projection} from '../exposure/projection.js'

import {definitionHash} from '../catalog/definition-hash.js'
import type {CommandTool} from '../catalog/registry.js'

import {errorResult, type ToolResult} from '../execution/tool-result.js'
import {findExecutable, unknownCommandMessage} from '../exposure/projection.js'
import {displayId} from '../../host/spelling.js'
import {commandExamples, renderTemplate} from '../catalog/help-text.js'
import {hostCoreVersion} from '../../host/facts.js'
import {toJsonSchema} from '../catalog/input-schema.js'
import {type BuiltinTool, jsonResult} from './builtin-tool.js'

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

export function commandBuiltins(config: Config, projection: Projection, revisions: readonly string[]): BuiltinTool[] {
  const commands = [...projection.executable.values()]
  const inBand = new Set(projection.band)
  let info: ToolResult | undefined
  const cliInfo: BuiltinTool = {
    description: `Facts about the ${config.bin} CLI this server runs: name, version, Node and @oclif/core versions, installed plugins, and the MCP protocol revisions served.`,
    handler() {
      // Nothing in it changes while the server runs: worked out once (HTTP asks for it on a fresh instance each time).
      info ??= jsonResult(`${config.bin} ${config.version} (${commands.length} commands available, ${projection.band.length} listed as tools)`, {
        bin: config.bin,
        commands: commands.length,
        name: config.name,
        node: process.version,
        oclifCore: hostCoreVersion(config) ?? null,
        platform: `${config.platform}-${config.arch}`,
        plugins: config.getPluginsList().map((p) => ({name: p.name, type: p.type, version: p.version})),
        protocolRevisions: revisions,
        version: config.version,
      })
      return {...info, content: [...info.content]}
    },
    name: 'cli_info',
    schema: z.strictObject({}),
    title: `About ${config.bin}`,
  }

  const listCommands: BuiltinTool = {
    description: `List the ${config.bin} commands available as tools: id, tool name, summary, topic and annotations. Filter by topic or by words in the id and summary.`,
    handler(input) {
      const topic = typeof input.topic === 'string' ? input.topic.trim().replaceAll(' ', ':') : undefined
      const words = typeof input.query === 'string' ? input.query.toLowerCase().split(/\s+/).filter(Boolean) : []
      const found = commands
        .filter((t) => !topic || t.id === topic || t.id.startsWith(`${topic}:`))
        .filter((t) => words.every((w) => `${t.id} ${t.summary}`.toLowerCase().includes(w)))
        .map((t) => ({
          annotations: t.hints,
          id: t.displayId,
          listed: inBand.has(t),
          summary: t.summary,
          tool: inBand.has(t) ? t.name : null,
          topic: t.topic.replaceAll(':', ' '),
        }))
      return jsonResult(`${found.length} of ${commands.length} commands (listed: false means run it with run_command)`, {commands: found})
    },
    name: 'list_commands',
    schema: z.strictObject({
      query: z.string().describe('Words that must all appear in the command id or summary.').optional(),
      topic: z.string().describe('Only commands in this topic (e.g. "apps" or "apps domains").').optional(),
    }),
    title: 'List commands',
  }

  const describeCommand: BuiltinTool = {
    description: `Everything about one ${config.bin} command: description, usage, flags, args, examples, aliases, annotations, its input schema and its definitionHash (which run_command needs).`,
    handler(input) {
      const name = String(input.command)
      const tool = findExecutable(projection, name)
      if (!tool) return errorResult(unknownCommandMessage(projection, name))

      const {command} = tool
      const render = (text: string) => renderTemplate(text, config, command)
      const withheld = new Set(tool.withheldFlags.map((w) => w.name))
      const data = {
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
        flags: Object.values(command.flags ?? {})
          .filter((f) => !f.hidden && !withheld.has(f.name))
          .map((f) => flagInfo(f)),
        id: tool.displayId,
        inputSchema: toJsonSchema(tool.input.schema),
        jsonOutput: tool.json,
        listed: inBand.has(tool),
        plugin: command.pluginName,
        summary: tool.summary,
        timeoutSeconds: tool.timeoutMs / 1000,
        tool: inBand.has(tool) ? tool.name : null,
        usage: (Array.isArray(command.usage) ? command.usage : command.usage ? [command.usage] : []).map((u) => render(u)),
        // Left out so the command stays read-only whatever is passed; the person can run them from a shell.
        ...(tool.withheldFlags.length > 0 ? {withheldFlags: tool.withheldFlags} : {}),
      }
      const how = inBand.has(tool) ? `call the tool ${tool.name}` : 'run it with run_command, passing this definitionHash'
      return jsonResult(`${config.bin} ${tool.displayId}: ${how}`, data)
    },
    name: 'describe_command',
    schema: z.strictObject({
      command: z.string().min(1).describe('Command id ("apps create" or "apps:create") or tool name ("apps_create").'),
    }),
    title: 'Describe a command',
  }

  return [cliInfo, listCommands, describeCommand]
}
