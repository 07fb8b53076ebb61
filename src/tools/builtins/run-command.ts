import * as z from 'zod'

import type {CallAnswer} from '../execution/pipeline.js'

import {MAX_IDEMPOTENCY_KEY_LENGTH} from '../catalog/call-inputs.js'
import {definitionHash} from '../catalog/definition-hash.js'
import {callCommandTool} from '../execution/pipeline.js'
import {errorResult} from '../execution/tool-result.js'
import {findExecutable, unknownCommandMessage} from '../exposure/projection.js'
import {type BuiltinScope, type BuiltinTool, builtinTool} from './builtin-tool.js'

/**
 * run_command: runs any command inside the boundary, listed or not, through the one call pipeline, once the caller
 * shows it knows the command's current definition (its definitionHash from describe_command).
 */
export function runCommandTool({config, projection}: BuiltinScope): BuiltinTool {
  return builtinTool({
    description: `Run any ${config.bin} command in reach, listed or not, with the definitionHash describe_command gave; if the command changed since, nothing runs and the answer gives the new hash.`,
    async handler(input, context, env): Promise<CallAnswer> {
      const name = String(input.command)
      const tool = findExecutable(projection, name)
      if (!tool) return errorResult(unknownCommandMessage(projection, name))
      const current = definitionHash(tool)
      if (input.expectedDefinitionHash !== current) {
        const text = `The definition of "${tool.displayId}" is ${current}, not ${String(input.expectedDefinitionHash)}: it changed since it was described (or the hash is wrong). Nothing was run. Describe it again and retry with the new hash.`
        return {...errorResult(text), structuredContent: {code: 'STALE_DEFINITION', command: tool.displayId, definitionHash: current}}
      }

      // A read-only command's tool takes no key: running it again is the answer to a retry.
      const keyed = input.idempotencyKey !== undefined && !tool.hints.readOnlyHint
      const args = {...(input.arguments as Record<string, unknown> | undefined), ...(keyed ? {idempotencyKey: input.idempotencyKey} : {})}
      return callCommandTool(tool, args, env, context)
    },
    // It runs whatever command it is given: as careful as the most dangerous command it can reach.
    hints: {
      destructiveHint: [...projection.executable.values()].some((t) => t.hints.destructiveHint),
      idempotentHint: false,
      openWorldHint: true,
      readOnlyHint: [...projection.executable.values()].every((t) => t.hints.readOnlyHint),
    },
    name: 'run_command',
    schema: z.strictObject({
      // An open object, not a record: a record's JSON Schema carries `propertyNames`, which Gemini and others refuse.
      arguments: z.looseObject({}).describe('As its input schema says (cwd too).').optional(),
      command: z.string().min(1).describe('Command id ("apps create", "apps:create").'),
      expectedDefinitionHash: z.string().min(1).describe('From describe_command.'),
      idempotencyKey: z.string().min(1).max(MAX_IDEMPOTENCY_KEY_LENGTH).describe('A retry with the same key and arguments gets the first result (a read-only command runs again).').optional(),
    }),
    title: 'Run a command',
  })
}
