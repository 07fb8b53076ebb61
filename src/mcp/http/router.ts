import type {AuthInfo} from '@modelcontextprotocol/server'

import type {IncomingMessage, ServerResponse} from 'node:http'

import {checkBearer, checkHost, checkOrigin, type GuardResult} from './guards.js'
import {type OAuthGate} from './oauth.js'
import {refuse, sendJson, sendWebResponse, webRequestOf} from './responses.js'

// Where an HTTP request goes: refused by the Host and Origin guards (DNS rebinding), the OAuth documents under
// /.well-known/, the health check, or the MCP endpoint once its bearer token or OAuth access token is checked.

export const ENDPOINT = '/mcp'
export const HEALTH = '/healthz'
const WELL_KNOWN = '/.well-known/'

export interface Routes {
  /** The host names the Host header may carry, and the browser origins accepted. */
  hosts: readonly string[]
  origins: readonly string[]
  /** What GET /healthz answers. */
  health: Record<string, unknown>
  /** The MCP endpoint: a request that passed every check, with the identity an OAuth token proved. */
  mcp: (req: IncomingMessage, res: ServerResponse, auth?: AuthInfo) => void
  oauth?: OAuthGate
  /** The realm a bearer-token refusal names. */
  realm: string
  /** The bearer token every /mcp request must carry, when the server has one. */
  token?: string
}

function firstRefusal(...results: GuardResult[]): (GuardResult & {ok: false}) | undefined {
  return results.find((r): r is GuardResult & {ok: false} => !r.ok)
}

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

/** The request listener of the HTTP server. */
export function httpRouter({health, hosts, mcp, oauth, origins, realm, token}: Routes): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
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
      const unauthorized = firstRefusal(checkBearer(req.headers.authorization, token, realm))
      if (unauthorized) return refuse(res, unauthorized)
      return mcp(req, res)
    }

    // The body waits, unread, while the token is checked (nothing listens for it yet); a client gone meanwhile is not served.
    void oauth.check(req.headers.authorization).then((checked) => {
      if (req.destroyed || res.destroyed) return
      if ('refusal' in checked) return sendWebResponse(res, checked.refusal)
      mcp(req, res, checked.info)
    })
  }
}
