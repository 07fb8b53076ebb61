import type {Command, Config} from '@oclif/core'
import * as z from 'zod'

import type {Projection} from '../exposure/projection.js'

import {displayId} from '../../host/spelling.js'
import {definitionHash} from '../catalog/definition-hash.js'
import {commandExamples, renderTemplate} from '../catalog/help-text.js'
import {toJsonSchema} from '../catalog/input-schema.js'
import {errorResult} from '../execution/tool-result.js'
import {findExecutable, unknownCommandMessage} from '../exposure/projection.js'
import {type BuiltinTool, builtinTool, jsonResult} from './builtin-tool.js'

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

/** describe_command: everything about one command inside the boundary, with the definitionHash run_command needs. */
export function describeCommandTool(config: Config, projection: Projection): BuiltinTool {
  return builtinTool({
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
        foregroundSeconds: tool.foregroundMs / 1000,
        flags: Object.values(command.flags ?? {})
          .filter((f) => !f.hidden && !withheld.has(f.name))
          .map((f) => flagInfo(f)),
        id: tool.displayId,
        inputSchema: toJsonSchema(tool.input.schema),
        jsonOutput: tool.json,
        listed: projection.inBand.has(tool),
        plugin: command.pluginName,
        summary: tool.summary,
        timeoutSeconds: tool.timeoutMs / 1000,
        tool: projection.inBand.has(tool) ? tool.name : null,
        usage: (Array.isArray(command.usage) ? command.usage : command.usage ? [command.usage] : []).map((u) => render(u)),
        // Left out so the command stays read-only whatever is passed; the person can run them from a shell.
        ...(tool.withheldFlags.length > 0 ? {withheldFlags: tool.withheldFlags} : {}),
      }
      const how = projection.inBand.has(tool) ? `call the tool ${tool.name}` : 'run it with run_command, passing this definitionHash'
      return jsonResult(`${config.bin} ${tool.displayId}: ${how}`, data)
    },
    name: 'describe_command',
    schema: z.strictObject({
      command: z.string().min(1).describe('Command id ("apps create" or "apps:create") or tool name ("apps_create").'),
    }),
    title: 'Describe a command',
  })
}
