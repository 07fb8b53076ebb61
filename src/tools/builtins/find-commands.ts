import * as z from 'zod'

import {shortHash} from '../catalog/fingerprint.js'
import {errorResult} from '../execution/tool-result.js'
import {buildCommandIndex} from '../exposure/command-search.js'
import {type BuiltinScope, type BuiltinTool, builtinTool, commandEntry, jsonResult} from './builtin-tool.js'

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
 * find_commands: every command inside the boundary is reachable without being listed. It searches them; then
 * describe_command gives the definitionHash, and run_command runs with that hash.
 */
export function findCommandsTool({config, listingOf, projection}: BuiltinScope): BuiltinTool {
  let index: ReturnType<typeof buildCommandIndex> | undefined
  const search = (query: string) => (index ??= buildCommandIndex([...projection.executable.values()])).search(query)

  return builtinTool({
    description: `Search every ${config.bin} command, listed as a tool or not, by task ("create an app"): ranked hits, nextCursor for more. Then call the listed tool, or describe_command and run_command.`,
    handler(input, context) {
      const query = String(input.query)
      const limit = Number(input.limit ?? PAGE)
      const offset = input.cursor === undefined ? 0 : decodeCursor(String(input.cursor), query)
      if (offset === undefined) return errorResult('That cursor does not belong to this query; search again without a cursor.')
      const hits = search(query)
      const listed = listingOf(context.host).commands
      const page = hits.slice(offset, offset + limit).map(({tool}) => commandEntry(tool, listed))
      const next = offset + limit < hits.length ? encodeCursor({offset: offset + limit, query}) : null
      return jsonResult(`${hits.length} matching command(s); showing ${page.length} from ${offset + 1}`, {hits: page, nextCursor: next, total: hits.length})
    },
    name: 'find_commands',
    schema: z.strictObject({
      cursor: z.string().max(200).describe('nextCursor of the previous page.').optional(),
      limit: z.number().int().min(1).max(50).describe(`Default ${PAGE}.`).optional(),
      query: z.string().min(1).max(500).describe('The task, or words of a command id.'),
    }),
    title: 'Find commands',
  })
}
