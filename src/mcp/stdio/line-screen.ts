import {INVALID_REQUEST, PARSE_ERROR, parseJSONRPCMessage, type RequestId, STDIO_DEFAULT_MAX_BUFFER_SIZE} from '@modelcontextprotocol/server'

/** The longest line passed on: the SDK's stdio transport closes the connection when its buffer would exceed this. */
export const MAX_LINE_BYTES = STDIO_DEFAULT_MAX_BUFFER_SIZE - 1

const NEWLINE = 0x0a
const DETAIL_CHARS = 200

/** What the screen writes back for a line the server cannot take (JSON-RPC 2.0 §5). */
export interface Refusal {
  error: {code: typeof INVALID_REQUEST | typeof PARSE_ERROR; message: string}
  id: null | RequestId
  jsonrpc: '2.0'
}

export interface ScreenSinks {
  /** A valid JSON-RPC message, as one line (newline included), for the SDK's transport. */
  forward(line: Buffer): void
  /** A one-line diagnostic for stderr. */
  log(message: string): void
  /** The error answer for a line that was refused. */
  refuse(answer: Refusal): void
}

function short(text: string): string {
  const oneLine = text.replaceAll(/\s+/g, ' ').trim()
  return oneLine.length > DETAIL_CHARS ? `${oneLine.slice(0, DETAIL_CHARS - 1)}…` : oneLine
}

/** The id of something shaped like a request, when it can be read; null otherwise. */
function readableId(value: unknown): null | RequestId {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null
  const {id} = value as {id?: unknown}
  return typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)) ? id : null
}

/** A response from the client (to a request of ours) is never answered, even a malformed one. */
function isResponseShaped(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !('method' in value) && ('result' in value || 'error' in value)
}

/** The first problem zod found, as `path: message`. */
function firstIssue(error: unknown): string {
  const issues = (error as {issues?: {message: string; path: PropertyKey[]}[]}).issues
  const issue = issues?.[0]
  if (!issue) return error instanceof Error ? error.message : String(error)
  return issue.path.length > 0 ? `${issue.path.map(String).join('.')}: ${issue.message}` : issue.message
}

/**
 * Splits stdin into lines and screens each one before the SDK's stdio transport sees it. The transport drops a line
 * it cannot parse or validate (it only reports it to `onerror`), so a client would wait forever for that answer;
 * the screen answers instead: -32700 with id null for what is not JSON, -32600 (with the id when it can be read)
 * for JSON that is not a JSON-RPC message, and a line too long for the transport is refused rather than letting it
 * close the connection. Blank lines are skipped, as the transport skips them.
 */
export class LineScreen {
  private pending: Buffer[] = []
  private pendingBytes = 0
  /** Inside an over-long line: its bytes are dropped up to the next newline. */
  private skipping = false

  constructor(private readonly sinks: ScreenSinks) {}

  /** Input has ended: a last line without its newline still counts. */
  end(): void {
    if (this.skipping) {
      this.skipping = false
      return
    }

    if (this.pendingBytes > 0) this.line(this.takePending())
  }

  push(chunk: Buffer): void {
    let start = 0
    while (start < chunk.length) {
      const newline = chunk.indexOf(NEWLINE, start)
      const end = newline === -1 ? chunk.length : newline
      if (!this.skipping) {
        this.pending.push(chunk.subarray(start, end))
        this.pendingBytes += end - start
        if (this.pendingBytes > MAX_LINE_BYTES) this.tooLong()
      }

      if (newline === -1) return
      if (this.skipping) this.skipping = false
      else this.line(this.takePending())
      start = newline + 1
    }
  }

  private line(bytes: Buffer): void {
    const text = bytes.toString('utf8').replace(/\r$/, '')
    if (text.trim() === '') return
    let value: unknown
    try {
      value = JSON.parse(text)
    } catch (error) {
      this.refuse(PARSE_ERROR, null, `Parse error: ${short(error instanceof Error ? error.message : String(error))}`)
      return
    }

    try {
      parseJSONRPCMessage(value)
    } catch (error) {
      if (isResponseShaped(value)) {
        this.sinks.log(`[mcp] dropped a malformed response from the client: ${short(firstIssue(error))}`)
        return
      }

      this.refuse(INVALID_REQUEST, readableId(value), `Invalid Request: not a JSON-RPC 2.0 message (${short(firstIssue(error))})`)
      return
    }

    this.sinks.forward(Buffer.concat([bytes, Buffer.from('\n')]))
  }

  private refuse(code: Refusal['error']['code'], id: null | RequestId, message: string): void {
    this.sinks.log(`[mcp] refused a line of input (${code}): ${message}`)
    this.sinks.refuse({error: {code, message}, id, jsonrpc: '2.0'})
  }

  private takePending(): Buffer {
    const bytes = this.pending.length === 1 ? this.pending[0] : Buffer.concat(this.pending)
    this.pending = []
    this.pendingBytes = 0
    return bytes
  }

  private tooLong(): void {
    this.pending = []
    this.pendingBytes = 0
    this.skipping = true
    this.refuse(INVALID_REQUEST, null, `Invalid Request: a message may be at most ${MAX_LINE_BYTES} bytes (one line); this one is longer`)
  }
}
