// `mcp serve` cannot be exhausted by clients that open connections and never finish their bodies, or that declare
// or send enormous ones: a connection cap, a shared budget for pending bodies, and a 413 that closes the connection
// instead of reading what follows. Measured on the real server process (its RSS from /proc), over raw sockets.
import {afterAll, beforeAll, describe, expect, it} from '@jest/globals'
import {readFileSync} from 'node:fs'
import {request} from 'node:http'
import {connect, type Socket} from 'node:net'
import {join} from 'node:path'

import {eventually} from '../helpers/processes.js'
import {post, type Served, serveTaskbox} from '../helpers/serve.js'
import {scratch, taskboxEnv} from '../helpers/taskbox.js'

const space = scratch()
let server: Served
let port: number

beforeAll(async () => {
  server = await serveTaskbox({args: ['--max-connections', '200', '--workers', '0'], cwd: space.dir, env: taskboxEnv(join(space.dir, 'home'))})
  port = Number(new URL(server.url).port)
})

afterAll(async () => {
  expect(await server?.stop()).toBe(0)
  space.cleanup()
})

const rssMiB = () => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${server.child.pid}/status`, 'utf8'))![1]) / 1024

/**
 * Bytes the kernel still holds on the loopback connections to `port` (/proc/net/tcp): sent by a client and not yet
 * read by the server, or not yet sent. None once the server has read all that was sent to it.
 */
function queuedTo(port: number): number {
  let queued = 0
  for (const line of readFileSync('/proc/net/tcp', 'utf8').split('\n').slice(1)) {
    const [, local, remote, , queues] = line.trim().split(/\s+/)
    if (!queues || ![local, remote].some((address) => Number.parseInt(address.split(':')[1], 16) === port)) continue
    for (const hex of queues.split(':')) queued += Number.parseInt(hex, 16)
  }

  return queued
}

function open(): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => resolve(socket))
    socket.once('error', reject)
  })
}

const head = (length: number) => `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nAccept: application/json\r\nContent-Length: ${length}\r\n\r\n`

/** Writes `bytes` of body (after the head), resolving with what the server answered, if it answered. */
function sendBody(socket: Socket, bytes: number): Promise<void> {
  const chunk = Buffer.alloc(64 * 1024, 0x20)
  return new Promise((resolve) => {
    let left = bytes
    const pump = () => {
      while (left > 0) {
        const n = Math.min(left, chunk.length)
        left -= n
        if (!socket.write(n === chunk.length ? chunk : chunk.subarray(0, n))) return void socket.once('drain', pump)
      }

      resolve()
    }

    socket.once('close', () => resolve())
    pump()
  })
}

describe('mcp serve under unfinished and oversized bodies', () => {
  it('keeps its memory bounded under 150 connections each sending 4 MB it never finishes', async () => {
    const before = rssMiB()
    let peak = before
    const sampler = setInterval(() => (peak = Math.max(peak, rssMiB())), 50)
    const sockets = await Promise.all(Array.from({length: 150}, () => open()))
    const answers = sockets.map((socket) => {
      let text = ''
      socket.on('data', (chunk: Buffer) => (text += chunk))
      socket.on('error', () => {})
      return () => text
    })
    try {
      await Promise.all(sockets.map(async (socket) => {
        socket.write(head(4_000_001))
        await sendBody(socket, 4_000_000)
      }))
      // The ones past the budget are told so and their connections closed, and the server reads all the others sent.
      expect(await eventually(() => answers.filter((text) => text().startsWith('HTTP/1.1 503')).length > 100)).toBe(true)
      expect(await eventually(() => queuedTo(port) === 0)).toBe(true)
      peak = Math.max(peak, rssMiB())
    } finally {
      clearInterval(sampler)
    }

    // Without the budget this was +1,065 MB (every body buffered); with it, what the budget allows plus sockets.
    expect(peak - before).toBeLessThan(300)
    for (const socket of sockets) socket.destroy()

    // And the server answers as before.
    const list = await post(server.url, {id: 1, jsonrpc: '2.0', method: 'tools/list'})
    expect(list.status).toBe(200)
  })

  it('answers a declared 100 GB body with 413 at once and closes the connection without reading it', async () => {
    // node:http, as a client would send it: the head, then the body as fast as the connection takes it.
    let sent = 0
    const answer = await new Promise<{body: string; status: number}>((resolve, reject) => {
      const req = request(server.url, {headers: {Accept: 'application/json', 'Content-Length': '100000000000', 'Content-Type': 'application/json'}, method: 'POST'}, (res) => {
        let body = ''
        res.on('data', (chunk: Buffer) => (body += chunk))
        res.on('end', () => resolve({body, status: res.statusCode ?? 0}))
      })
      req.on('error', () => {})
      const chunk = Buffer.alloc(1024 * 1024, 0x20)
      const pump = () => {
        while (!req.destroyed && sent < 2 * 1024 * 1024 * 1024) {
          sent += chunk.length
          if (!req.write(chunk)) return void req.once('drain', pump)
        }
      }

      pump()
      setTimeout(() => reject(new Error(`no answer after sending ${sent} bytes`)), 30_000).unref()
    })
    expect(answer.status).toBe(413)
    expect(answer.body).toContain('must not exceed')
    // A server that read the body would have taken gigabytes by now.
    expect(sent).toBeLessThan(256 * 1024 * 1024)
  })

  it('answers a chunked body that grows past 4 MiB with 413, readable, and closes', async () => {
    // 64 MiB at most, far past the 4 MiB limit: a body without end would be pulled on, and held in this process, for
    // as long as the client has not seen the answer (a loaded machine took minutes and gigabytes).
    let chunks = 0
    const response = await fetch(server.url, {
      body: new ReadableStream({
        pull(controller) {
          if (++chunks > 64) return controller.close()
          controller.enqueue(new Uint8Array(1024 * 1024).fill(0x20))
        },
      }),
      duplex: 'half',
      headers: {Accept: 'application/json', 'Content-Type': 'application/json'},
      method: 'POST',
    } as RequestInit).catch((error: Error) => error)
    expect(response).toBeInstanceOf(Response)
    expect((response as Response).status).toBe(413)
    expect(((await (response as Response).json()) as {error: {message: string}}).error.message).toContain('must not exceed 4194304 bytes')
  })
})

describe('mcp serve --max-connections', () => {
  it('closes the connections past the cap as they arrive, and takes new ones once others end', async () => {
    const capped = await serveTaskbox({args: ['--max-connections', '4', '--workers', '0'], cwd: space.dir, env: taskboxEnv(join(space.dir, 'home-cap'))})
    const cappedPort = Number(new URL(capped.url).port)
    try {
      const connectTo = () =>
        new Promise<Socket>((resolve, reject) => {
          const socket = connect(cappedPort, '127.0.0.1', () => resolve(socket))
          socket.once('error', reject)
        })
      const held = await Promise.all(Array.from({length: 4}, () => connectTo()))
      // The server takes connections in the order they came: the fifth is over the cap.
      const extra = await connectTo()
      let closed = false
      extra.once('close', () => (closed = true))
      expect(await eventually(() => closed)).toBe(true)
      // Once it has seen the others end, it takes a new one.
      for (const socket of held) socket.destroy()
      // Each try gives up after 5 s: a connection the server has not taken yet must not hold the test.
      const listed = async () => (await post(capped.url, {id: 1, jsonrpc: '2.0', method: 'tools/list'}, {signal: AbortSignal.timeout(5000)}).catch(() => undefined))?.status === 200
      expect(await eventually(listed, 30_000, 200)).toBe(true)
    } finally {
      expect(await capped.stop()).toBe(0)
    }
  })
})
