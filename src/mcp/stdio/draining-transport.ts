import type {JSONRPCMessage, RequestId, Transport} from '@modelcontextprotocol/server'
import type {StdioServerTransport} from '@modelcontextprotocol/server/stdio'

import type {PassThrough} from 'node:stream'

function requestIdOf(message: JSONRPCMessage): RequestId | undefined {
  return 'method' in message && 'id' in message ? (message.id as RequestId) : undefined
}

function responseIdOf(message: JSONRPCMessage): RequestId | undefined {
  return !('method' in message) && 'id' in message ? (message.id as RequestId) : undefined
}

/**
 * Stdio transport that holds the end of input back until every request read so far has been answered, so
 * `printf '…' | cli mcp stdio` gets all its answers before the server exits. (The SDK's transport alone aborts
 * in-flight requests when stdin ends.)
 */
export class DrainingTransport implements Transport {
  readonly closed: Promise<void>
  onclose?: () => void
  onerror?: (error: Error) => void
  onmessage?: Transport['onmessage']
  private inputEnded = false
  private readonly pending = new Set<RequestId>()

  constructor(
    private readonly inner: StdioServerTransport,
    private readonly input: PassThrough,
  ) {
    let markClosed: () => void
    this.closed = new Promise((resolve) => {
      markClosed = resolve
    })
    inner.onmessage = (message: JSONRPCMessage) => {
      const id = requestIdOf(message)
      if (id !== undefined) this.pending.add(id)
      if ('method' in message && message.method === 'notifications/cancelled') {
        this.settle((message.params as {requestId?: RequestId} | undefined)?.requestId)
      }

      this.onmessage?.(message)
    }

    inner.onerror = (error) => this.onerror?.(error)
    inner.onclose = () => {
      markClosed()
      this.onclose?.()
    }
  }

  close(): Promise<void> {
    return this.inner.close()
  }

  /** Called when the real stdin has ended. */
  endInput(): void {
    this.inputEnded = true
    this.settle(undefined)
  }

  async send(message: JSONRPCMessage): Promise<void> {
    try {
      await this.inner.send(message)
    } finally {
      this.settle(responseIdOf(message))
    }
  }

  start(): Promise<void> {
    return this.inner.start()
  }

  private settle(id: RequestId | undefined): void {
    if (id !== undefined) this.pending.delete(id)
    if (this.inputEnded && this.pending.size === 0) this.input.end()
  }
}
