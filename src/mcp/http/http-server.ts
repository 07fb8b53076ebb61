import {type AuthInfo, createMcpHandler, isJsonContentType, isLegacyRequest, localhostAllowedOrigins, type McpRequestContext} from '@modelcontextprotocol/server'
import {toNodeHandler} from '@modelcontextprotocol/node'

import {createServer, type IncomingMessage, type ServerResponse} from 'node:http'
import {isIP, type AddressInfo} from 'node:net'

import type {CallEnvironment} from '../../tools/execution/call-environment.js'
import type {ServerPlan} from '../plan.js'

import {DEFAULT_MAX_CONNECTIONS} from '../../settings/server-options.js'

import {createServerFactory} from '../factory.js'
import {PROTOCOL_REVISIONS, readOnlyPlan} from '../plan.js'
import {BodyBudget, readBody, replayRequest} from './body.js'
import {allowedHostnames, checkBearer, checkHost, checkOrigin, type GuardResult} from './guards.js'
import {legacyJsonFirst} from './legacy.js'
import {accessOf, type OAuthGate} from './oauth.js'
import {refuse, sendJson, sendRefusal, sendRpcError, sendWebResponse, webRequestOf} from './responses.js'
import {toolsFor} from './routing.js'

export interface HttpOptions {
  allowedHosts: readonly string[]
  allowedOrigins: readonly string[]
  host: string
  /** Connections open at once; more are closed as they arrive (default 128). */
  maxConnections?: number
  /** Bytes of request bodies held at once across all connections (default 32 MiB). */
  maxPendingBodyBytes?: number
  port: number
  /**
   * OAuth: every /mcp request carries a JWT access token of the issuer, and its scopes decide what it reaches (all
   * the server exposes, or only its read-only commands). Exclusive with `token`.
   */
  oauth?: OAuthGate
  /** Bearer token every /mcp request must carry; undefined for none (loopback only). */
  token?: string
}

export interface HttpServing {
  /** Stops accepting, lets calls in flight finish for up to `graceMs`, then kills what is left. */
  close(graceMs: number): Promise<void>
  healthUrl: string
  port: number
  url: string
}

const ENDPOINT = '/mcp'
const MAX_BODY_BYTES = 4 * 1024 * 1024
const HEALTH = '/healthz'
const WELL_KNOWN = '/.well-known/'
export const DEFAULT_MAX_PENDING_BODY_BYTES = 32 * 1024 * 1024
/** A client has this long to send its headers, and this long to send its whole request (body included). */
const HEADERS_TIMEOUT_MS = 10_000
const REQUEST_TIMEOUT_MS = 30_000

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

function firstRefusal(...results: GuardResult[]): (GuardResult & {ok: false}) | undefined {
  return results.find((r): r is GuardResult & {ok: false} => !r.ok)
}

function urlHost(host: string): string {
  return isIP(host) === 6 ? `[${host}]` : host
}

/**
 * Stateless Streamable HTTP on one endpoint, `POST /mcp`, through the SDK's createMcpHandler (both eras, per
 * request), behind Host/Origin (DNS rebinding) and bearer-token guards; `GET /healthz` for monitoring.
 */
export async function serveOnHttp(plan: ServerPlan, env: CallEnvironment, options: HttpOptions): Promise<HttpServing> {
  const serving = (served: ServerPlan) => ({factory: createServerFactory(served, env), names: new Set(served.callable.map((entry) => entry.tool.name))})
  const full = serving(plan)
  // With OAuth, a token with only the read scope is served the read-only plan (the same calls, workers and jobs).
  const {oauth} = options
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
  const hosts = allowedHostnames(options.host, options.allowedHosts)
  const origins = [...localhostAllowedOrigins(), ...options.allowedOrigins]
  const realm = `${plan.info.name} mcp`
  const health = {
    bin: plan.config.bin,
    name: plan.config.name,
    protocolRevisions: PROTOCOL_REVISIONS,
    status: 'ok',
    // The commands in reach (what each host is listed of them depends on the host, and is worked out when it asks).
    commands: plan.projection.executable.size,
    version: plan.info.version,
  }
  let inFlight = 0
  let drained: (() => void) | undefined
  const budget = new BodyBudget(options.maxPendingBodyBytes ?? DEFAULT_MAX_PENDING_BODY_BYTES)

  // Timeouts are checked every second (Node's default is every 30 s, which would let a slow client hold on that long).
  const timeouts = {connectionsCheckingInterval: 1000, headersTimeout: HEADERS_TIMEOUT_MS, requestTimeout: REQUEST_TIMEOUT_MS}
  const server = createServer(timeouts, (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '/').split('?')[0]
    const wrongHost = firstRefusal(checkHost(req.headers.host, hosts))
    if (wrongHost) return refuse(res, wrongHost)
    // The OAuth documents are public, and browser-based clients read them across origins (the SDK allows any).
    if (oauth && path.startsWith(WELL_KNOWN)) return serveMetadata(oauth, req, res)
    const wrongOrigin = firstRefusal(checkOrigin(req.headers.origin, origins))
    if (wrongOrigin) return refuse(res, wrongOrigin)

    if (path === HEALTH) {
      if (req.method !== 'GET' && req.method !== 'HEAD') return sendJson(res, 405, {error: 'Method not allowed'}, {Allow: 'GET'})
      return sendJson(res, 200, health)
    }

    if (path !== ENDPOINT) return sendJson(res, 404, {error: `Not found. The MCP endpoint is POST ${ENDPOINT}.`})
    if (!oauth) {
      const unauthorized = firstRefusal(checkBearer(req.headers.authorization, options.token, realm))
      if (unauthorized) return refuse(res, unauthorized)
      return serveMcp(req, res)
    }

    // The body waits, unread, while the token is checked (nothing listens for it yet); a client gone meanwhile is not served.
    void oauth.check(req.headers.authorization).then((checked) => {
      if (req.destroyed || res.destroyed) return
      if ('refusal' in checked) return sendWebResponse(res, checked.refusal)
      serveMcp(req, res, checked.info)
    })
  })

  /** A `/.well-known/` request: the OAuth document it names, 405 for a method other than GET, HEAD or OPTIONS, else 404. */
  function serveMetadata(gate: OAuthGate, req: IncomingMessage, res: ServerResponse): void {
    let document: Response | undefined
    try {
      document = gate.metadata(webRequestOf(req))
    } catch {
      // A request line the web Request cannot carry (TRACE, an absolute-form target Node accepted): not a document.
      return sendJson(res, 400, {error: 'This request cannot be read as a request for a document.'})
    }

    if (!document) return sendJson(res, 404, {error: `Not found. The MCP endpoint is POST ${ENDPOINT}.`})
    void sendWebResponse(res, document)
  }

  function serveMcp(req: IncomingMessage, res: ServerResponse, auth?: AuthInfo): void {
    if (req.method !== 'POST') {
      return sendRpcError(res, 405, {code: -32_000, message: 'Method not allowed: this endpoint is stateless and takes POST only.'}, {Allow: 'POST'})
    }

    inFlight++
    res.once('close', () => {
      inFlight--
      if (inFlight === 0) drained?.()
    })
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

  server.maxConnections = options.maxConnections ?? DEFAULT_MAX_CONNECTIONS

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port, options.host, () => {
      server.off('error', reject)
      resolve()
    })
  })
  const {port} = server.address() as AddressInfo
  const base = `http://${urlHost(options.host)}:${port}`

  return {
    async close(graceMs) {
      server.close()
      server.closeIdleConnections()
      if (inFlight > 0) {
        await new Promise<void>((resolve) => {
          drained = resolve
          setTimeout(resolve, graceMs).unref()
        })
      }

      env.stopCommands()
      await Promise.all([handler.close(), streaming.close()])
      server.closeAllConnections()
    },
    healthUrl: `${base}${HEALTH}`,
    port,
    url: `${base}${ENDPOINT}`,
  }
}
