// Fault injection: every misbehaviour of test/fixtures/faulty-cli, over stdio (official client) and HTTP (official
// Streamable HTTP client). Each call must come back with a clear result, its command over in bounded time, leave no
// process behind (checked in the process table by a unique --marker value and a unique working directory), and the
// server must answer the next request. Prints the totals at the end: faults injected, server deaths, orphans.
import {Client, StreamableHTTPClientTransport} from '@modelcontextprotocol/client'
import {afterAll, beforeAll, describe, expect, it} from '@jest/globals'
import {randomBytes} from 'node:crypto'
import {mkdirSync, realpathSync} from 'node:fs'
import {join} from 'node:path'

import {eventually, isRunning, killPids, processesIn, processesMatching, processesWithEnv} from '../helpers/processes.js'
import {type Served, serveTaskbox} from '../helpers/serve.js'
import {connectTaskbox, type Connected, FAULTY_BIN, scratch, taskboxEnv, textOf} from '../helpers/taskbox.js'

interface CallResult {
  content?: unknown
  isError?: boolean
  structuredContent?: Record<string, any>
}

interface Fault {
  /** Checks the result says what happened. */
  check: (result: CallResult, text: string) => void
  tool: string
}

const MB = 1024 * 1024
/**
 * The hanging commands have `static mcp = {timeout: 2}`: every command must be over well within this. Measured by the
 * server from the command's start to its end (the result's durationMs), not around the call: with every fault at
 * once, a call also waits for a free slot (two, on two cores) behind the others, which only says how fast they ran.
 */
const LIMIT_MS = 20_000

const failedWith = (exitCode: number) => (result: CallResult, text: string) => {
  expect(result.isError).toBe(true)
  expect(result.structuredContent?.exitCode).toBe(exitCode)
  expect(text).toContain(`exit code ${exitCode}`)
}

const timedOut = (result: CallResult, text: string) => {
  expect(result.isError).toBe(true)
  expect(result.structuredContent?.timedOut).toBe(true)
  expect(text).toContain('Timed out after 2 s')
}

const killedBy = (signal: string) => (result: CallResult, text: string) => {
  expect(result.isError).toBe(true)
  expect(result.structuredContent?.signal).toBe(signal)
  expect(result.structuredContent?.timedOut).toBeUndefined()
  expect(text).toContain(`killed by ${signal}`)
}

const FAULTS: Fault[] = [
  {check: failedWith(3), tool: 'fail'},
  {
    check(result, text) {
      failedWith(1)(result, text)
      expect(text).toContain('an unexpected TypeError from deep inside')
    },
    tool: 'throw',
  },
  {
    check(result, text) {
      failedWith(7)(result, text)
      expect(text).toContain('line 100')
      expect(text).not.toContain('line 101')
    },
    tool: 'exit-midway',
  },
  {check: timedOut, tool: 'hang'},
  {check: timedOut, tool: 'stubborn'},
  {
    // 100 MB on stdout and exit 0: a success, 4 MiB captured (saying how much was dropped), and the model is given
    // the head and the tail within its budget, with the captured whole kept for read_output.
    check(result, text) {
      expect(result.isError).toBeFalsy()
      expect(result.structuredContent?.truncated?.stdoutBytes).toBe(100 * MB - 4 * MB)
      expect(text).toContain(`[output truncated: ${100 * MB - 4 * MB} bytes of stdout not shown]`)
      expect(text).toMatch(/characters not shown\. The whole output is kept .*read_output/)
      expect(text.length).toBeLessThanOrEqual(60_000)
      expect(JSON.stringify(result.structuredContent).length).toBeLessThanOrEqual(60_000)
      expect(result.structuredContent?.output?.stdout).toBe(4 * MB)
    },
    tool: 'flood',
  },
  {
    // stdin is closed: the prompt fails at once instead of waiting for its timeout.
    check(result, text) {
      failedWith(9)(result, text)
      expect(result.structuredContent?.timedOut).toBeUndefined()
      expect(text).toContain('stdin ended before an answer was given')
    },
    tool: 'read-stdin',
  },
  {check: killedBy('SIGKILL'), tool: 'sigkill'},
  {check: killedBy('SIGSEGV'), tool: 'segv'},
  {
    // The command itself succeeds; the grandchild it left in its process group must not survive the call.
    check(result, text) {
      expect(result.isError).toBeFalsy()
      expect(text).toMatch(/GRANDCHILD \d+/)
    },
    tool: 'orphan',
  },
]

interface Endpoint {
  /** The server's HOME: every process it starts inherits it, so /proc/<pid>/environ finds them all. */
  home: string
  call: (name: string, args: Record<string, unknown>) => Promise<CallResult>
  close: () => Promise<void>
  pid: number
}

const totals = {faults: 0, orphans: 0, serverDeaths: 0}
const dead = new Set<number>()

async function openStdio(dir: string): Promise<Endpoint> {
  const home = join(dir, 'home-stdio')
  const connected: Connected = await connectTaskbox({bin: FAULTY_BIN, cwd: dir, env: taskboxEnv(home), era: 'legacy'})
  return {
    home,
    call: (name, args) => connected.client.callTool({arguments: args, name}, {timeout: 120_000}) as Promise<CallResult>,
    close: connected.close,
    pid: connected.pid,
  }
}

async function openHttp(dir: string): Promise<Endpoint> {
  const home = join(dir, 'home-http')
  const served: Served = await serveTaskbox({bin: FAULTY_BIN, cwd: dir, env: taskboxEnv(home)})
  const client = new Client({name: 'faults-test', version: '1'})
  try {
    await client.connect(new StreamableHTTPClientTransport(new URL(served.url)))
  } catch (error) {
    await served.stop()
    throw error
  }

  return {
    home,
    call: (name, args) => client.callTool({arguments: args, name}, {timeout: 120_000}) as Promise<CallResult>,
    async close() {
      await client.close().catch(() => {})
      await served.stop()
    },
    pid: served.child.pid!,
  }
}

/** Injects one fault in its own directory; returns the result, its text, how long it took and what it left behind. */
async function inject(endpoint: Endpoint, root: string, tool: string) {
  const marker = `fault-${tool}-${randomBytes(6).toString('hex')}`
  const dir = join(root, marker)
  mkdirSync(dir)
  const real = realpathSync(dir)
  totals.faults++
  let result: CallResult
  let ran: number | undefined
  try {
    result = await endpoint.call(tool, {cwd: dir, marker})
    ran = result.structuredContent?.durationMs
  } finally {
    const gone = () => processesMatching(marker).length === 0 && processesIn(real).length === 0
    // A killed process can linger in the table for a moment until it is reaped.
    const clean = await eventually(gone)
    const left = clean ? [] : [...new Set([...processesMatching(marker).map((row) => row.pid), ...processesIn(real)])]
    totals.orphans += left.length
    killPids(left)
    if (!isRunning(endpoint.pid) && !dead.has(endpoint.pid)) {
      dead.add(endpoint.pid)
      totals.serverDeaths++
    }
    expect({leftBehind: left, ranUnderLimit: ran === undefined || ran < LIMIT_MS}).toEqual({leftBehind: [], ranUnderLimit: true})
  }

  expect(ran).toEqual(expect.any(Number))
  return {result, text: textOf(result)}
}

async function stillAnswers(endpoint: Endpoint): Promise<void> {
  expect(isRunning(endpoint.pid)).toBe(true)
  const info = await endpoint.call('cli_info', {})
  expect(info.isError).toBeFalsy()
  expect(info.structuredContent).toMatchObject({bin: 'faulty'})
}

describe.each([
  ['stdio', openStdio],
  ['http', openHttp],
] as const)('faults over %s', (transport, open) => {
  const space = scratch(`mcp-faults-${transport}-`)
  let endpoint: Endpoint

  beforeAll(async () => {
    endpoint = await open(space.dir)
  })

  afterAll(async () => {
    try {
      await endpoint?.close()
      // Once the server is gone, so is everything it started (prewarmed workers included).
      const home = endpoint?.home ?? space.dir
      await eventually(() => processesWithEnv('HOME', home).length === 0)
      const left = processesWithEnv('HOME', home)
      totals.orphans += left.length
      killPids(left)
      expect(left).toEqual([])
    } finally {
      space.cleanup()
    }
  })

  it.each(FAULTS.map((fault) => [fault.tool, fault] as const))('%s: a clear result, nothing left running, the server still answers', async (_tool, fault) => {
    const {result, text} = await inject(endpoint, space.dir, fault.tool)
    fault.check(result, text)
    if (fault.tool === 'orphan') {
      const grandchild = Number(/GRANDCHILD (\d+)/.exec(text)![1])
      expect(isRunning(grandchild)).toBe(false)
    }

    await stillAnswers(endpoint)
  })

  it('every fault at once: each gets its own clear result, nothing is left, the server still answers', async () => {
    const outcomes = await Promise.all(FAULTS.map((fault) => inject(endpoint, space.dir, fault.tool)))
    for (const [index, fault] of FAULTS.entries()) fault.check(outcomes[index].result, outcomes[index].text)
    await stillAnswers(endpoint)
  })
})

afterAll(() => {
  process.stderr.write(`faults: ${totals.faults} faults injected, ${totals.serverDeaths} server deaths, ${totals.orphans} orphans\n`)
})
