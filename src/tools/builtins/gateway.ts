import type {Config} from '@oclif/core'

import * as z from 'zod'

import type {CallEnvironment} from '../execution/call-environment.js'

import {callCommandTool} from '../execution/pipeline.js'
import {errorResult, type ToolResult} from '../execution/tool-result.js'
import {findExecutable, type Projection, unknownCommandMessage} from '../exposure/projection.js'
import {MAX_IDEMPOTENCY_KEY_LENGTH} from '../catalog/call-inputs.js'
import {definitionHash} from '../catalog/definition-hash.js'
import {shortHash} from '../catalog/fingerprint.js'
import {buildCommandIndex} from '../exposure/command-search.js'
import {type BuiltinTool, jsonResult} from './builtin-tool.js'

const PAGE = 10

interface Cursor {
  offset: number
  query: string
}

function queryKey(query: string): string {
  return shortHash(query.trim().toLowerCase(), 12)
}

function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify({o: cursor.offset, q: queryKey(cursor.query)})).toString('base64url')
}

function decodeCursor(text: string, query: string): number | undefined {
  try {
    const {o, q} = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as {o: unknown; q: unknown}
    return q === queryKey(query) && Number.isInteger(o) && (o as number) >= 0 ? (o as number) : undefined
  } catch {
    return undefined
  }
}

/**
 * The gateway: every command inside the boundary is reachable without being listed. find_commands searches,
 * describe_command (command-info.ts) gives the definitionHash, run_command runs with that hash.
 */
export function gatewayBuiltins(config: Config, projection: Projection, call: CallEnvironment): BuiltinTool[] {
  const inBand = new Set(projection.band)
  let index: ReturnType<typeof buildCommandIndex> | undefined
  const search = (query: string) => (index ??= buildCommandIndex([...projection.executable.values()])).search(query)

  const find: BuiltinTool = {
    description: `Search every ${config.bin} command you can run, listed as a tool or not, by what you want to do ("create an app", "show logs"). Ranked hits with id, summary, annotations and whether it is listed; pass nextCursor back for more. Then describe_command and run_command (or the listed tool).`,
    handler(input) {
      const query = String(input.query)
      const limit = Number(input.limit ?? PAGE)
      const offset = input.cursor === undefined ? 0 : decodeCursor(String(input.cursor), query)
      if (offset === undefined) return errorResult('That cursor does not belong to this query; search again without a cursor.')
      const hits = search(query)
      const page = hits.slice(offset, offset + limit).map(({tool}) => ({
        annotations: tool.hints,
        id: tool.displayId,
        listed: inBand.has(tool),
        summary: tool.summary,
        tool: inBand.has(tool) ? tool.name : null,
      }))
      const next = offset + limit < hits.length ? encodeCursor({offset: offset + limit, query}) : null
      return jsonResult(`${hits.length} matching command(s); showing ${page.length} from ${offset + 1}`, {hits: page, nextCursor: next, total: hits.length})
    },
    name: 'find_commands',
    schema: z.strictObject({
      cursor: z.string().max(200).describe('nextCursor from the previous page.').optional(),
      limit: z.number().int().min(1).max(50).describe(`Hits per page (default ${PAGE}).`).optional(),
      query: z.string().min(1).max(500).describe('What you want to do, or words of a command id.'),
    }),
    title: 'Find commands',
  }

  const run: BuiltinTool = {
    description: `Run any ${config.bin} command you can reach, listed as a tool or not. Get its definitionHash and input schema from describe_command first; if the command changed since, nothing runs and the answer gives the new hash.`,
    async handler(input, context): Promise<ToolResult> {
      const name = String(input.command)
      const tool = findExecutable(projection, name)
      if (!tool) return errorResult(unknownCommandMessage(projection, name))
      const current = definitionHash(tool)
      if (input.expectedDefinitionHash !== current) {
        const text = `The definition of "${tool.displayId}" is ${current}, not ${String(input.expectedDefinitionHash)}: it changed since it was described (or the hash is wrong). Nothing was run. Describe it again and retry with the new hash.`
        return {...errorResult(text), structuredContent: {code: 'STALE_DEFINITION', command: tool.displayId, definitionHash: current}}
      }

      const args = {...(input.arguments as Record<string, unknown> | undefined), ...(input.idempotencyKey === undefined ? {} : {idempotencyKey: input.idempotencyKey})}
      return callCommandTool(tool, args, call, context)
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
      arguments: z.looseObject({}).describe("The command's arguments, as its input schema (describe_command) says; cwd goes here too.").optional(),
      command: z.string().min(1).describe('Command id ("apps create" or "apps:create").'),
      expectedDefinitionHash: z.string().min(1).describe('definitionHash from describe_command.'),
      idempotencyKey: z.string().min(1).max(MAX_IDEMPOTENCY_KEY_LENGTH).describe('Optional. A retry with the same key and arguments returns the first result instead of running again.').optional(),
    }),
    title: 'Run a command',
  }

  return [find, run]
}
