// Property-based fuzzing of both transports with hostile JSON-RPC: invalid JSON, truncated and oversized messages,
// deep nesting, huge strings, wrong types in every field of initialize/tools/list/tools/call, unknown and misspelled
// methods, bad tool arguments, odd unicode, `__proto__`/`constructor` keys (generators: test/helpers/jsonrpc-fuzz.ts).
// After every message the server must still be alive and answer a ping; a well-formed request must get a well-formed
// answer with its id; nothing the server writes may be malformed; its memory must stay bounded.
//
// Iterations: FUZZ_RUNS per property (default 100, for CI). For a long local run:
//   FUZZ_RUNS=2000 node --experimental-vm-modules node_modules/jest/bin/jest.js test/e2e/fuzz.test.ts
import {afterAll, beforeAll, describe, expect, it} from '@jest/globals'
import fc from 'fast-check'
import {mkdirSync, writeFileSync} from 'node:fs'
import {connect} from 'node:net'
import {join} from 'node:path'

import {CASES, type FuzzCase, ID, oddString, oversized} from '../helpers/jsonrpc-fuzz.js'
import {collectGarbage, inspectorUrl} from '../helpers/inspector.js'
import {isRunning, rssKiB} from '../helpers/processes.js'
import {malformation, type Message, RawStdio} from '../helpers/raw-stdio.js'
import {JSON_HEADERS, type Served, serveTaskbox} from '../helpers/serve.js'
import {scratch, TASKBOX_BIN, taskboxEnv} from '../helpers/taskbox.js'

const RUNS = Number(process.env.FUZZ_RUNS ?? 100)
const PROPERTY_TIMEOUT = 120_000 + RUNS * 3000
/** A failing case can cost a 20 s wait; stop shrinking in time to report the counterexample rather than a jest timeout. */
const LIMITS = {interruptAfterTimeLimit: PROPERTY_TIMEOUT - 60_000, markInterruptAsFailure: true}
const MAX_BODY = 4 * 1024 * 1024
/**
 * Memory is read right after a full garbage collection forced through the inspector (the servers run with --inspect
 * on loopback): unforced, RSS is mostly garbage not yet collected (85 → 200-230 MiB over a run here). Two bounds:
 * - the live JS heap, which a leak grows with every message: it grew 5 MiB once (compiled code, caches) and then
 *   no more (HTTP: +2.6, +5.4 and +4.8 MiB after 50, 200 and 500 runs per property, i.e. 1,000 to 10,000 messages);
 * - RSS after the collection: the multi-megabyte messages leave the C allocator holding larger arenas (stdio +20,
 *   +26, +27 MiB; HTTP +45 to +75 MiB, i.e. up to 100 % of the start, not growing with the number of runs), so this
 *   bound is absolute and only catches runaway growth.
 */
const HEAP_GROWTH_LIMIT_MIB = 10
const RSS_GROWTH_LIMIT_MIB = 128
const SERVER_ARGS = ['--read-only', '--timeout', '3']
const INSPECT = ['--inspect=127.0.0.1:0']
const space = scratch('mcp-fuzz-')
const project = join(space.dir, 'project')
const memory: string[] = []
let sequence = 0

beforeAll(() => {
  mkdirSync(project)
  writeFileSync(join(project, '.taskbox.json'), JSON.stringify({name: 'fuzz', nextId: 1, tasks: []}))
})

afterAll(() => {
  space.cleanup()
  process.stderr.write(`fuzz: ${RUNS} runs per property; ${sequence} messages; ${memory.join('; ')}\n`)
})

/** RSS (KiB) right after a full collection forced through the inspector at `url`, and the unforced RSS before it. */
async function settledRss(pid: number, url: string): Promise<Settled> {
  const unforced = rssKiB(pid)
  const usage = await collectGarbage(url)
  await new Promise((resolve) => setTimeout(resolve, 300))
  return {external: usage.external / 1024, heap: usage.heapUsed / 1024, rss: rssKiB(pid), unforced}
}

interface Settled {
  external: number
  heap: number
  rss: number
  unforced: number
}

/** Records the figures; returns the growth of the live heap and of RSS, in MiB. */
function recordMemory(transport: string, before: Settled, after: Settled): {heap: number; rss: number} {
  const mib = (kib: number) => (kib / 1024).toFixed(1)
  const pair = (key: keyof Settled) => `${mib(before[key])} -> ${mib(after[key])}`
  memory.push(`${transport} after a full GC: RSS ${pair('rss')} MiB, heap ${pair('heap')}, external ${pair('external')} (unforced RSS ${pair('unforced')})`)
  return {heap: (after.heap - before.heap) / 1024, rss: (after.rss - before.rss) / 1024}
}

function expectBounded(growth: {heap: number; rss: number}): void {
  expect(growth.heap).toBeLessThan(HEAP_GROWTH_LIMIT_MIB)
  expect(growth.rss).toBeLessThan(RSS_GROWTH_LIMIT_MIB)
}

const kinds = Object.entries(CASES) as [string, fc.Arbitrary<FuzzCase>][]
const withId = (c: FuzzCase, id: string) => c.body.replaceAll(ID, JSON.stringify(id))

describe('fuzz: mcp stdio, raw JSON lines', () => {
  let server: RawStdio
  let rssBefore: Settled
  let checked = 0

  /** Every line written since the last check is well-formed JSON-RPC. */
  const checkOutput = () => {
    for (const line of server.lines.slice(checked)) expect({line, problem: malformation(line)}).toEqual({line, problem: undefined})
    checked = server.lines.length
  }

  const ping = async () => {
    const id = `ping-${++sequence}`
    expect(await server.request({id, jsonrpc: '2.0', method: 'ping'}, 30_000)).toMatchObject({id, result: {}})
  }

  const exchange = async (c: FuzzCase) => {
    const id = `fz-${++sequence}`
    const answer = c.answered ? server.answer(id, 20_000) : undefined
    server.write(withId(c, id))
    await ping()
    if (answer) expect(await answer).toMatchObject({id, jsonrpc: '2.0'})
    expect(server.alive).toBe(true)
    checkOutput()
  }

  beforeAll(async () => {
    server = new RawStdio(TASKBOX_BIN, [...SERVER_ARGS, '--cwd', project], {cwd: space.dir, env: taskboxEnv(join(space.dir, 'home-stdio')), nodeArgs: INSPECT})
    const init = {capabilities: {}, clientInfo: {name: 'fuzz', version: '1'}, protocolVersion: '2025-11-25'}
    expect(await server.request({id: 0, jsonrpc: '2.0', method: 'initialize', params: init}, 60_000)).toHaveProperty('result')
    server.write(JSON.stringify({jsonrpc: '2.0', method: 'notifications/initialized'}))
    // Warm up (a command run, a list) so the baseline is a server that has done its work once.
    expect(await server.request({id: 'warm', jsonrpc: '2.0', method: 'tools/call', params: {arguments: {}, name: 'status'}}, 60_000)).toHaveProperty('result')
    await server.request({id: 'warm-list', jsonrpc: '2.0', method: 'tools/list'})
    rssBefore = await settledRss(server.pid, inspectorUrl(server.stderr().head))
  })

  afterAll(async () => {
    await server?.stop()
  })

  it.each(kinds)('%s: never a crash or hang; well-formed requests answered', async (_kind, arbitrary) => {
    await fc.assert(fc.asyncProperty(arbitrary, exchange), {...LIMITS, numRuns: RUNS})
  }, PROPERTY_TIMEOUT)

  it('oversized messages (over 4 MiB) are still answered: stdio has no size limit', async () => {
    await fc.assert(fc.asyncProperty(oversized, exchange), {...LIMITS, numRuns: Math.min(RUNS, 5)})
  }, PROPERTY_TIMEOUT)

  it('bytes that are not UTF-8, and a line that never ends until the next one, do not derail it', async () => {
    server.child.stdin!.write(Buffer.from([0xff, 0xfe, 0xc0, 0xaf, 0xed, 0xa0, 0x80, 0x0a]))
    server.child.stdin!.write('{"jsonrpc":"2.0","id":"half", "method":')
    await new Promise((resolve) => setTimeout(resolve, 200))
    server.child.stdin!.write('"ping"}\n')
    expect(await server.answer('half', 10_000)).toMatchObject({id: 'half', result: {}})
    await ping()
    checkOutput()
  })

  it('memory stays bounded and it answers normally afterwards', async () => {
    const after = await settledRss(server.pid, inspectorUrl(server.stderr().head))
    expectBounded(recordMemory('stdio', rssBefore, after))
    const list = await server.request({id: 'final', jsonrpc: '2.0', method: 'tools/list'})
    expect((list?.result as {tools: unknown[]}).tools.length).toBeGreaterThan(5)
  })
})

// JSON-RPC 2.0 §5: a request that cannot be parsed gets -32700 with id null; an Invalid Request gets -32600, with
// its id when the id can be read. Over HTTP the SDK's handler does this; over stdio the SDK's transport drops such
// lines (it only calls onerror), so the server screens its input lines first (src/mcp/stdio/line-screen.ts).
describe('stdio answers what it cannot parse (JSON-RPC 2.0 §5)', () => {
  let server: RawStdio

  beforeAll(async () => {
    server = new RawStdio(TASKBOX_BIN, SERVER_ARGS, {cwd: space.dir, env: taskboxEnv(join(space.dir, 'home-strict'))})
    const init = {capabilities: {}, clientInfo: {name: 'fuzz', version: '1'}, protocolVersion: '2025-11-25'}
    await server.request({id: 0, jsonrpc: '2.0', method: 'initialize', params: init}, 60_000)
  })

  afterAll(async () => {
    await server?.stop()
  })

  it('invalid JSON gets a -32700 Parse error with id null', async () => {
    const before = server.lines.length
    server.write('{"jsonrpc":"2.0","id":1,"method":"ping"')
    expect(await server.request({id: 'after-parse-error', jsonrpc: '2.0', method: 'ping'})).toHaveProperty('result')
    expect(server.lines.slice(before)).toContainEqual(expect.objectContaining({error: expect.objectContaining({code: -32_700}), id: null}))
  })

  it.each([
    ['a method that is not a string', {id: 'm', jsonrpc: '2.0', method: 5}],
    ['params that are not an object', {id: 'p', jsonrpc: '2.0', method: 'tools/call', params: 5}],
    ['params given as an array', {id: 'a', jsonrpc: '2.0', method: 'ping', params: []}],
    ['a progressToken that is an object', {id: 't', jsonrpc: '2.0', method: 'ping', params: {_meta: {progressToken: {}}}}],
    ['jsonrpc "1.0"', {id: 'v', jsonrpc: '1.0', method: 'ping'}],
  ])('an Invalid Request with a readable id (%s) gets -32600 with that id', async (_what, message) => {
    const answer = await server.request(message as Message)
    expect(answer).toMatchObject({error: {code: -32_600}, id: message.id})
  })

  it('a message longer than the transport takes (11 MiB) gets -32600 with id null, and the server keeps serving', async () => {
    const before = server.lines.length
    server.write(JSON.stringify({id: 'huge', jsonrpc: '2.0', method: 'ping', params: {_meta: {pad: 'x'.repeat(11 * 1024 * 1024)}}}))
    expect(await server.request({id: 'after-huge', jsonrpc: '2.0', method: 'ping'}, 30_000)).toHaveProperty('result')
    expect(server.lines.slice(before)).toContainEqual(
      expect.objectContaining({error: expect.objectContaining({code: -32_600, message: expect.stringContaining('at most')}), id: null}),
    )
    expect(server.alive).toBe(true)
  })
})

describe('fuzz: mcp serve, raw HTTP POSTs', () => {
  let served: Served
  let rssBefore: Settled

  const post = async (body: string | Buffer, headers: Record<string, string> = JSON_HEADERS) => {
    const response = await fetch(served.url, {body, headers, method: 'POST'})
    const text = await response.text()
    const type = response.headers.get('content-type') ?? ''
    const data = type.includes('event-stream') ? text.split('\n').filter((l) => l.startsWith('data: ')).at(-1)?.slice(6) : text
    let json: unknown
    try {
      json = data ? JSON.parse(data) : undefined
    } catch {
      json = data
    }

    return {json: json as Message | undefined, status: response.status}
  }

  const ping = async () => {
    const id = `ping-${++sequence}`
    const reply = await post(JSON.stringify({id, jsonrpc: '2.0', method: 'ping'}))
    expect(reply).toMatchObject({json: {id, result: {}}, status: 200})
  }

  const exchange = async (c: FuzzCase) => {
    const id = `fz-${++sequence}`
    const body = withId(c, id)
    const reply = await post(body)
    expect(reply.status).toBeLessThan(500)
    if (reply.json !== undefined) expect(malformation(reply.json)).toBeUndefined()
    if (Buffer.byteLength(body) > MAX_BODY) expect(reply.status).toBe(413)
    else if (c.answered) expect(reply).toMatchObject({json: {id}, status: 200})
    else expect([200, 202, 400]).toContain(reply.status)
    await ping()
    expect(isRunning(served.child.pid!)).toBe(true)
  }

  beforeAll(async () => {
    served = await serveTaskbox({args: [...SERVER_ARGS, '--cwd', project], cwd: space.dir, env: taskboxEnv(join(space.dir, 'home-http')), nodeArgs: INSPECT})
    expect((await post(JSON.stringify({id: 'warm', jsonrpc: '2.0', method: 'tools/call', params: {arguments: {}, name: 'status'}}))).status).toBe(200)
    await post(JSON.stringify({id: 'warm-list', jsonrpc: '2.0', method: 'tools/list'}))
    rssBefore = await settledRss(served.child.pid!, inspectorUrl(served.stderr()))
  })

  afterAll(async () => {
    await served?.stop()
  })

  it.each(kinds)('%s: never a crash, a 5xx or a hang; well-formed requests answered', async (_kind, arbitrary) => {
    await fc.assert(fc.asyncProperty(arbitrary, exchange), {...LIMITS, numRuns: RUNS})
  }, PROPERTY_TIMEOUT)

  it('bodies over 4 MiB get 413', async () => {
    await fc.assert(fc.asyncProperty(oversized, exchange), {...LIMITS, numRuns: Math.min(RUNS, 5)})
  }, PROPERTY_TIMEOUT)

  it('odd headers (content type, accept, protocol version, method and name) get a 4xx or an answer, never a 5xx', async () => {
    const header = fc.oneof(oddString.filter((s) => /^[\t\u0020-\u007e\u0080-\u00ff]*$/.test(s)), fc.constantFrom('application/json', 'text/plain', 'text/event-stream', '*/*', '2026-07-28', '2025-11-25', '1999-01-01', 'tools/call', ''))
    const headers = fc.record({'Accept': header, 'Content-Type': header, 'MCP-Protocol-Version': header, 'Mcp-Method': header, 'Mcp-Name': header}, {requiredKeys: []})
    await fc.assert(
      fc.asyncProperty(headers, fc.constantFrom(...kinds.map(([, a]) => a)).chain((a) => a), async (extra, c) => {
        const reply = await post(withId(c, `fz-${++sequence}`), {...JSON_HEADERS, ...extra})
        expect(reply.status).toBeLessThan(500)
        if (reply.json !== undefined && typeof reply.json === 'object') expect(malformation(reply.json)).toBeUndefined()
        await ping()
      }),
      {...LIMITS, numRuns: RUNS},
    )
  }, PROPERTY_TIMEOUT)

  it('a body cut off mid-stream (the client hangs up) and a lying Content-Length do not hurt it', async () => {
    const {hostname, port} = new URL(served.url)
    const head = (length: number) => `POST /mcp HTTP/1.1\r\nHost: ${hostname}:${port}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: ${length}\r\n\r\n`
    for (const [length, body] of [[1000, '{"jsonrpc":"2.0","id":1,'], [5, '{"jsonrpc":"2.0","id":1,"method":"ping"}']] as const) {
      const socket = connect(Number(port), hostname)
      socket.on('error', () => {})
      socket.write(head(length) + body)
      await new Promise((resolve) => setTimeout(resolve, 300))
      socket.destroy()
      await ping()
    }
  })

  it('memory stays bounded and it answers normally afterwards', async () => {
    const after = await settledRss(served.child.pid!, inspectorUrl(served.stderr()))
    expectBounded(recordMemory('http', rssBefore, after))
    const list = await post(JSON.stringify({id: 'final', jsonrpc: '2.0', method: 'tools/list'}))
    expect(list.status).toBe(200)
    expect((list.json?.result as {tools: unknown[]}).tools.length).toBeGreaterThan(5)
  })
})
