import type {McpServer} from '@modelcontextprotocol/server'
import {serveStdio, StdioServerTransport} from '@modelcontextprotocol/server/stdio'

import {PassThrough, type Writable} from 'node:stream'

import {DrainingTransport} from './draining-transport.js'
import {LineScreen} from './line-screen.js'

export interface StdioServing {
  /** Resolves once the connection is over: input ended and every request answered, or close() was called. */
  closed: Promise<void>
  close(): Promise<void>
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
  }
}
