import type {AuthInfo} from '@modelcontextprotocol/server'
import {localhostAllowedOrigins} from '@modelcontextprotocol/server'

import {createServer, type IncomingMessage, type ServerResponse} from 'node:http'
import {isIP, type AddressInfo} from 'node:net'

import type {CallEnvironment} from '../../tools/execution/call-environment.js'
import type {ServerPlan} from '../plan.js'
import type {OAuthGate} from './oauth.js'

import {DEFAULT_MAX_CONNECTIONS} from '../../settings/server-options.js'
import {PROTOCOL_REVISIONS} from '../plan.js'
import {BodyBudget} from './body.js'
import {allowedHostnames} from './guards.js'
import {mcpEndpoint} from './mcp-endpoint.js'
import {ENDPOINT, HEALTH, httpRouter} from './router.js'

// The HTTP server's lifecycle: listening (with its timeouts and connection cap), the requests in flight, and its end
// (calls in flight given their grace, then every command stopped). The router (router.ts) decides where a request
// goes; the endpoint (mcp-endpoint.ts) answers MCP.

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

export const DEFAULT_MAX_PENDING_BODY_BYTES = 32 * 1024 * 1024
/** A client has this long to send its headers, and this long to send its whole request (body included). */
const HEADERS_TIMEOUT_MS = 10_000
const REQUEST_TIMEOUT_MS = 30_000

function urlHost(host: string): string {
  return isIP(host) === 6 ? `[${host}]` : host
}

/**
 * Stateless Streamable HTTP on one endpoint, `POST /mcp`, behind Host/Origin (DNS rebinding) and bearer-token or
 * OAuth guards; `GET /healthz` for monitoring.
 */
export async function serveOnHttp(plan: ServerPlan, env: CallEnvironment, options: HttpOptions): Promise<HttpServing> {
  const endpoint = mcpEndpoint(plan, env, options.oauth, new BodyBudget(options.maxPendingBodyBytes ?? DEFAULT_MAX_PENDING_BODY_BYTES))
  let inFlight = 0
  let drained: (() => void) | undefined
  /** The endpoint, counting the calls in flight (what a stop waits for). */
  const mcp = (req: IncomingMessage, res: ServerResponse, auth?: AuthInfo) => {
    if (req.method === 'POST') {
      inFlight++
      res.once('close', () => {
        inFlight--
        if (inFlight === 0) drained?.()
      })
    }

    endpoint.serve(req, res, auth)
  }

  const health = {
    bin: plan.config.bin,
    name: plan.config.name,
    protocolRevisions: PROTOCOL_REVISIONS,
    status: 'ok',
    // The commands in reach (what each host is listed of them depends on the host, and is worked out when it asks).
    commands: plan.projection.executable.size,
    version: plan.info.version,
  }
  const route = httpRouter({
    health,
    hosts: allowedHostnames(options.host, options.allowedHosts),
    mcp,
    oauth: options.oauth,
    origins: [...localhostAllowedOrigins(), ...options.allowedOrigins],
    realm: `${plan.info.name} mcp`,
    token: options.token,
  })

  // Timeouts are checked every second (Node's default is every 30 s, which would let a slow client hold on that long).
  const timeouts = {connectionsCheckingInterval: 1000, headersTimeout: HEADERS_TIMEOUT_MS, requestTimeout: REQUEST_TIMEOUT_MS}
  const server = createServer(timeouts, route)
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
      await endpoint.close()
      server.closeAllConnections()
    },
    healthUrl: `${base}${HEALTH}`,
    port,
    url: `${base}${ENDPOINT}`,
  }
}
