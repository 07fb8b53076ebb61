import type {IncomingMessage} from 'node:http'
import {Readable} from 'node:stream'

/**
 * Bytes of request bodies the server holds at once, across every connection: a body is counted while it arrives and
 * until its request has been answered. Many slow or unfinished bodies then cost this much memory, not connections ×
 * the per-request limit.
 */
export class BodyBudget {
  private used = 0

  constructor(readonly maxBytes: number) {}

  get inUse(): number {
    return this.used
  }

  release(bytes: number): void {
    this.used = Math.max(0, this.used - bytes)
  }

  /** Takes `bytes` when they fit, else takes nothing and says no. */
  take(bytes: number): boolean {
    if (this.used + bytes > this.maxBytes) return false
    this.used += bytes
    return true
  }
}

/** A body read whole (`release` gives its bytes back to the budget), or why it was not, as an HTTP answer. */
export type BodyRead =
  | {body: Buffer; ok: true; release: () => void}
  | {message: string; ok: false; retryAfter?: number; status: 413 | 503}
  | {ok: false; status: 0}

/**
 * Reads a request body within the per-request limit and the shared budget. A body declared larger than the limit is
 * refused before a byte of it is read; one that grows past it, or past what the budget has left, is refused as soon
 * as it does. Status 0: the client went away, there is no one to answer.
 */
export function readBody(req: IncomingMessage, maxBytes: number, budget: BodyBudget): Promise<BodyRead> {
  const declared = Number(req.headers['content-length'] ?? Number.NaN)
  const tooLarge: BodyRead = {message: `Payload Too Large: the request body must not exceed ${maxBytes} bytes.`, ok: false, status: 413}
  const busy: BodyRead = {message: 'The server is busy receiving other requests; try again shortly.', ok: false, retryAfter: 1, status: 503}
  if (declared > maxBytes) return Promise.resolve(tooLarge)
  return new Promise((resolve) => {
    const chunks: Buffer[] = []
    let taken = 0
    let received = 0
    let settled = false
    const give = () => {
      budget.release(taken)
      taken = 0
    }

    const settle = (outcome: BodyRead) => {
      if (settled) return
      settled = true
      req.off('data', onData).off('end', onEnd).off('aborted', onGone).off('error', onGone).off('close', onGone)
      if (!outcome.ok) {
        give()
        chunks.length = 0
        // Read no more of it: the answer closes the connection (see sendRefusal).
        req.pause()
      }

      resolve(outcome)
    }

    const onData = (chunk: Buffer) => {
      received += chunk.length
      if (received > maxBytes) return settle(tooLarge)
      if (!budget.take(chunk.length)) return settle(busy)
      taken += chunk.length
      chunks.push(chunk)
    }

    const onEnd = () => settle({body: Buffer.concat(chunks), ok: true, release: give})
    const onGone = () => settle({ok: false, status: 0})
    req.on('data', onData).once('end', onEnd).once('aborted', onGone).once('error', onGone).once('close', onGone)
  })
}

/**
 * The request again, as a stream of the body already read: what the SDK's Node adapter reads a request from (its
 * method, url and headers, then the body), so everything it checks and answers stays as it is.
 */
export function replayRequest(req: IncomingMessage, body: Buffer): IncomingMessage {
  return Object.assign(Readable.from(body.length > 0 ? [body] : []), {headers: req.headers, method: req.method, url: req.url}) as unknown as IncomingMessage
}
