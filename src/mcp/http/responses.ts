import type {IncomingMessage, ServerResponse} from 'node:http'

import type {GuardResult} from './guards.js'

/** After a refusal that closes the connection, how long the client has to read it before the socket goes. */
const LINGER_MS = 1000

/** A web Response (the SDK's OAuth answers) written to a Node response. */
export async function sendWebResponse(res: ServerResponse, response: Response): Promise<void> {
  const body = Buffer.from(await response.arrayBuffer())
  res.writeHead(response.status, {...Object.fromEntries(response.headers), 'Content-Length': String(body.length)})
  res.end(body)
}

/** The request line and headers of a Node request as a web Request, without its body (for the GET-only documents). */
export function webRequestOf(req: IncomingMessage): Request {
  const headers = new Headers()
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value)
  }

  // Throws for what a web Request cannot carry (TRACE, a target that is not a URL): the caller answers it.
  return new Request(new URL(req.url ?? '/', 'http://localhost'), {headers, method: req.method})
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body)
  res.writeHead(status, {'Content-Length': String(Buffer.byteLength(text)), 'Content-Type': 'application/json', ...headers})
  res.end(text)
}

/** An HTTP error with a JSON-RPC error body (id null: the request was never read). */
export function sendRpcError(res: ServerResponse, status: number, error: {code: number; data?: unknown; message: string}, headers: Record<string, string> = {}): void {
  sendJson(res, status, {error, id: null, jsonrpc: '2.0'}, headers)
}

/**
 * A refusal that also ends the connection: not a byte more of the body is read, the answer goes out with
 * `Connection: close`, our side of the connection is closed, and the socket is destroyed a moment later. Closing at
 * once would reset a connection the client is still sending on, and its kernel would throw the answer away unread.
 */
export function sendRefusal(req: IncomingMessage, res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  // A listener makes the request "consumed", so Node does not read the rest of it away; paused, nothing is read.
  req.on('data', () => {}).pause()
  const {socket} = res
  if (socket) {
    socket.destroySoon = () => {
      socket.end()
      setTimeout(() => socket.destroy(), LINGER_MS).unref()
    }
  }

  sendRpcError(res, status, {code: -32_000, message}, {...headers, Connection: 'close'})
}

export function refuse(res: ServerResponse, result: GuardResult & {ok: false}): void {
  sendRpcError(res, result.status, {code: -32_000, data: {code: result.code}, message: result.message}, result.headers)
}
