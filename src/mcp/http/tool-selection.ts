import type {McpRequestContext} from '@modelcontextprotocol/server'

import type {ToolSelection} from '../factory.js'

/**
 * The tools a server built for one HTTP request must register: all of them; only the one a single tools/call names;
 * none for any other single request (tools/list is answered from the precomputed listing, and nothing else reads the
 * registered tools; a tools request needs no resources or prompts either). Modern requests say what they are in `Mcp-Method` / `Mcp-Name`, which the SDK has checked
 * against the body before it asks for a server; 2025-era ones are read from the parsed message. Anything else (a
 * batch, a name the plan does not list) gets every tool, so the SDK answers exactly as it would.
 */
export function toolsFor(context: McpRequestContext, message: unknown, listed: ReadonlySet<string>): ToolSelection {
  let method: unknown
  let name: unknown
  if (context.era === 'modern' && context.requestInfo) {
    method = context.requestInfo.headers.get('mcp-method') ?? undefined
    name = context.requestInfo.headers.get('mcp-name') ?? undefined
  } else if (message !== null && typeof message === 'object' && !Array.isArray(message)) {
    const request = message as {method?: unknown; params?: {name?: unknown}}
    method = request.method
    name = request.params?.name
  }

  if (typeof method !== 'string') return 'all'
  if (method === 'tools/list') return 'listing'
  if (method !== 'tools/call') return 'none'
  // A name no tool has is answered as the SDK answers one: with the built-ins registered (cheap), never every command.
  if (typeof name === 'string') return listed.has(name) ? {name} : 'builtins'
  return 'all'
}
