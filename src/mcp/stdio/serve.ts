import type {JSONRPCMessage, McpServer, RequestId} from '@modelcontextprotocol/server'

import {serveStdio, StdioServerTransport} from '@modelcontextprotocol/server/stdio'
import {PassThrough, type Writable} from 'node:stream'

import {LineScreen} from './line-screen.js'

type Transport = NonNullable<Parameters<typeof serveStdio>[1]>['transport'] & object

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
class DrainingTransport implements Transport {
  readonly closed: Promise<void>
  readonly firstAnswer: Promise<void>
  private answered?: () => void
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
    this.firstAnswer = new Promise((resolve) => {
      this.answered = resolve
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
      this.answered?.()
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

export interface StdioServing {
  /** Resolves once the connection is over: input ended and every request answered, or close() was called. */
  closed: Promise<void>
  close(): Promise<void>
  /** Resolves when the first answer has been written (the server is in use; background work may begin). */
  firstAnswer: Promise<void>
}

/** Serves the factory on this process's stdin and the given protocol stdout (see claimStdout). */
export function serveOnStdio(factory: () => McpServer, stdout: Writable): StdioServing {
  const input = new PassThrough()
  const transport = new DrainingTransport(new StdioServerTransport(input, stdout), input)
  // Refusals are written here, next to the SDK's answers; the end of input waits until they are out.
  let refusals = Promise.resolve()
  const screen = new LineScreen({
    forward: (line) => input.write(line),
    log: (message) => process.stderr.write(`${message}\n`),
    refuse(answer) {
      const written = new Promise<void>((resolve) => {
        stdout.write(`${JSON.stringify(answer)}\n`, () => resolve())
      })
      refusals = refusals.then(() => written)
    },
  })
  const forward = (chunk: Buffer) => screen.push(chunk)
  let ended = false
  const end = () => {
    if (ended) return
    ended = true
    screen.end()
    void refusals.then(() => transport.endInput())
  }

  process.stdin.on('data', forward)
  process.stdin.once('end', end)
  process.stdin.once('error', end)
  // Once the connection is over, stop reading: an open stdin would keep the process alive.
  void transport.closed.then(() => {
    process.stdin.off('data', forward).off('end', end).off('error', end)
    process.stdin.destroy()
  })
  const handle = serveStdio(factory, {
    onerror: (error) => process.stderr.write(`[mcp] ${error.message}\n`),
    transport,
  })
  return {
    close: () => handle.close(),
    closed: transport.closed,
    firstAnswer: transport.firstAnswer,
  }
}
