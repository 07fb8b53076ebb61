import {type AuthInfo, createMcpHandler, isJsonContentType, isLegacyRequest, type McpRequestContext} from '@modelcontextprotocol/server'
import {toNodeHandler} from '@modelcontextprotocol/node'

import type {IncomingMessage, ServerResponse} from 'node:http'

import type {CallEnvironment} from '../../tools/execution/call-environment.js'
import type {ServerPlan} from '../plan.js'

import {createServerFactory} from '../factory.js'
import {readOnlyPlan} from '../plan.js'
import {type BodyBudget, readBody, replayRequest} from './body.js'
import {legacyJsonFirst} from './legacy.js'
import {accessOf, type OAuthGate} from './oauth.js'
import {sendRefusal, sendRpcError} from './responses.js'
import {toolsFor} from './tool-selection.js'

// The one MCP endpoint, `POST /mcp`, once the router has let a request through: its body read within the budgets,
// then a server of the plan made for that request alone (the SDK's createMcpHandler for 2026-07-28 traffic, the
// JSON-first path for 2025-era requests), which answers it.

const MAX_BODY_BYTES = 4 * 1024 * 1024

function acceptsOnlyStream(accept: null | string): boolean {
  const types = (accept ?? '').split(',').map((t) => t.split(';')[0].trim().toLowerCase())
  return types.includes('text/event-stream') && !types.some((t) => t === 'application/json' || t === '*/*' || t === 'application/*')
}

/** The parsed JSON body; undefined when it is empty or not JSON. */
function parseJson(text: string): unknown {
  try {
    return text.length === 0 ? undefined : (JSON.parse(text) as unknown)
  } catch {
    return undefined
  }
}

export interface McpEndpoint {
  /** Ends the SDK's handlers (after the server has stopped taking requests). */
  close(): Promise<void>
  /** Answers one request to the endpoint; `auth`: the identity an OAuth token proved. */
  serve(req: IncomingMessage, res: ServerResponse, auth?: AuthInfo): void
}

/** `budget`: the bytes of request bodies all connections may hold at once. */
export function mcpEndpoint(plan: ServerPlan, env: CallEnvironment, oauth: OAuthGate | undefined, budget: BodyBudget): McpEndpoint {
  const serving = (served: ServerPlan) => ({factory: createServerFactory(served, env), names: new Set(served.callable.map((entry) => entry.tool.name))})
  const full = serving(plan)
  // With OAuth, a token with only the read scope is served the read-only plan (the same calls, workers and jobs).
  const read = oauth ? serving(readOnlyPlan(plan)) : undefined
  const servingFor = (authInfo: AuthInfo | undefined) => (oauth && accessOf(authInfo, oauth.options.scopes) !== 'full' ? read! : full)
  // A server per request, with only the tools that request needs.
  const perRequest = (context: McpRequestContext, message?: unknown) => {
    const {factory, names} = servingFor(context.authInfo)
    return factory(context, toolsFor(context, message, names))
  }
  const handlerOptions = {
    legacy: 'reject' as const,
    maxRequestBodySize: MAX_BODY_BYTES,
    onerror: (error: Error) => process.env.DEBUG && process.stderr.write(`[mcp] ${error.message}\n`),
  }
  const handler = createMcpHandler((context) => perRequest(context), handlerOptions)
  // A client that accepts only an event stream gets one, even for an answer that would otherwise be plain JSON.
  const streaming = createMcpHandler((context) => perRequest(context), {...handlerOptions, responseMode: 'sse' as const})
  const legacy = legacyJsonFirst(perRequest)
  // 2025-era requests go to the JSON-first legacy path; everything else (2026-07-28 traffic, and every request the
  // SDK must refuse: bad content type, oversized or unreadable body, bad headers) to the SDK's handler.
  // The body is read and parsed once here (toNodeHandler has already bounded it) and handed on parsed, so neither
  // the routing decision nor the handler clones and re-reads it.
  const mcp = toNodeHandler(
    {
      async fetch(request, extra) {
        // The token's verified identity (OAuth), which the factory serves by; pass-through otherwise.
        const authInfo = extra?.authInfo
        if (request.method !== 'POST' || !isJsonContentType(request.headers.get('content-type'))) return handler.fetch(request, {authInfo})
        const text = await request.text()
        const body = parseJson(text)
        if (body === undefined) {
          // Unreadable: the SDK answers it, from a copy of the request with its body restored.
          return handler.fetch(new Request(request, {body: text}), {authInfo})
        }

        if (await isLegacyRequest(request, body)) return legacy(request, body, authInfo)
        return (acceptsOnlyStream(request.headers.get('accept')) ? streaming : handler).fetch(request, {authInfo, parsedBody: body})
      },
    },
    {maxRequestBodySize: MAX_BODY_BYTES},
  )

  function serve(req: IncomingMessage, res: ServerResponse, auth?: AuthInfo): void {
    if (req.method !== 'POST') {
      return sendRpcError(res, 405, {code: -32_000, message: 'Method not allowed: this endpoint is stateless and takes POST only.'}, {Allow: 'POST'})
    }

    void readBody(req, MAX_BODY_BYTES, budget).then((got) => {
      if (!got.ok) {
        if (got.status === 0) return
        return sendRefusal(req, res, got.status, got.message, got.retryAfter ? {'Retry-After': String(got.retryAfter)} : {})
      }

      res.once('close', got.release)
      // Proxies must pass an event stream through as it is written, not buffer it.
      res.setHeader('X-Accel-Buffering', 'no')
      mcp(Object.assign(replayRequest(req, got.body), auth ? {auth} : {}), res).catch((error: unknown) => {
        if (!res.headersSent) sendRpcError(res, 500, {code: -32_603, message: 'Internal error'})
        else res.end()
        process.stderr.write(`[mcp] request failed: ${error instanceof Error ? error.message : String(error)}\n`)
      })
    })
  }

  return {
    async close() {
      await Promise.all([handler.close(), streaming.close()])
    },
    serve,
  }
}
