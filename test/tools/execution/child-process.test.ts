import {afterAll, afterEach, beforeAll, describe, expect, it} from '@jest/globals'
import {existsSync, mkdtempSync, readFileSync, realpathSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join, resolve} from 'node:path'

import {eventually, isRunning} from '../../helpers/processes.js'
import {ProcessGroups, type RunOutcome, type RunRequest, runChild} from '../../../src/tools/execution/child-process.js'

const NODE = process.execPath
const SPAWN_TREE = resolve(import.meta.dirname, '../../fixtures/scripts/spawn-tree.js')
/** Long enough for node to start a child and a grandchild on a busy machine, short enough to keep the suite quick. */
const TREE_TIMEOUT_MS = 8000

let scratch: string
/** The server's running commands, as a server keeps them. */
const groups = new ProcessGroups()
/** Grandchild pids the scripts reported; each test's afterEach makes sure none survives. */
const started = new Set<number>()

beforeAll(() => {
  scratch = realpathSync(mkdtempSync(join(tmpdir(), 'runner-test-')))
})

afterAll(() => {
  rmSync(scratch, {force: true, recursive: true})
})

afterEach(() => {
  groups.killAll('SIGKILL')
  for (const pid of started) {
    try {
      process.kill(pid, 'SIGKILL')
    } catch {
      // Already gone, as it should be.
    }
  }

  started.clear()
})

function request(args: string[], overrides: Partial<RunRequest> = {}): RunRequest {
  return {args, cwd: scratch, env: {}, file: NODE, groups, maxOutputBytes: 1024 * 1024, timeoutMs: 60_000, ...overrides}
}

function run(script: string, overrides: Partial<RunRequest> = {}): Promise<RunOutcome> {
  return runChild(request(['-e', script], overrides))
}

/** The grandchild pid a spawn-tree script printed, remembered for cleanup. */
function grandchildPid(outcome: RunOutcome): number {
  const match = /GRANDCHILD (\d+)/.exec(outcome.stdout)
  if (!match) throw new Error(`no grandchild pid in stdout: ${JSON.stringify(outcome)}`)
  const pid = Number(match[1])
  started.add(pid)
  return pid
}

/** Dead: no such process, or a zombie (killed, waiting for init to reap it). */
const isGone = (pid: number) => !isRunning(pid)

describe('runChild: exit codes and output', () => {
  it.each([
    ['exit 0', 'process.exit(0)', 0],
    ['exit 3', 'process.exit(3)', 3],
    ['an uncaught error', 'throw new Error("boom")', 1],
  ])('reports %s', async (_name, script, code) => {
    const outcome = await run(script)
    expect(outcome).toMatchObject({cancelled: false, exitCode: code, signal: undefined, spawnError: undefined, timedOut: false})
    expect(outcome.durationMs).toBeGreaterThanOrEqual(0)
  })

  it('captures stdout and stderr separately', async () => {
    const outcome = await run('process.stdout.write("to out\\n"); process.stderr.write("to err\\n")')
    expect(outcome).toMatchObject({stderr: 'to err\n', stderrDropped: 0, stdout: 'to out\n', stdoutDropped: 0})
  })

  it('passes the arguments as an array, without a shell', async () => {
    const outcome = await runChild(request(['-e', 'console.log(JSON.stringify(process.argv.slice(1)))', '--', 'a b', '$HOME', '; rm -rf /']))
    expect(JSON.parse(outcome.stdout)).toEqual(['a b', '$HOME', '; rm -rf /'])
  })

  it('runs in the requested directory', async () => {
    const outcome = await run('console.log(process.cwd())', {cwd: scratch})
    expect(outcome.stdout.trim()).toBe(scratch)
  })

  it('gives the child exactly the environment passed, nothing inherited', async () => {
    process.env.RUNNER_TEST_LEAK = 'should not reach the child'
    try {
      const env = {ALSO: 'two words', ONLY_THIS: '1'}
      const outcome = await run('console.log(JSON.stringify(process.env))', {env})
      expect(JSON.parse(outcome.stdout)).toEqual(env)
    } finally {
      delete process.env.RUNNER_TEST_LEAK
    }
  })

  it('closes stdin, so a script reading it gets EOF at once', async () => {
    const script = 'let n = 0; process.stdin.on("data", (c) => { n += c.length }); process.stdin.on("end", () => console.log("EOF", n))'
    const outcome = await run(script, {timeoutMs: 30_000})
    expect(outcome).toMatchObject({exitCode: 0, stdout: 'EOF 0\n', timedOut: false})
  })

  it('keeps the first bytes up to the cap, counts the rest, and still completes', async () => {
    const cap = 64 * 1024
    const total = 5 * 1024 * 1024
    const script = `const block = Buffer.alloc(65536, 'x'); block[0] = 0x41; for (let i = 0; i < ${total / 65_536}; i++) process.stdout.write(block); process.stderr.write('done')`
    const outcome = await run(script, {maxOutputBytes: cap})
    expect(outcome.exitCode).toBe(0)
    expect(Buffer.byteLength(outcome.stdout)).toBe(cap)
    expect(outcome.stdout.startsWith('Axxx')).toBe(true)
    expect(outcome.stdoutDropped).toBe(total - cap)
    expect(outcome).toMatchObject({stderr: 'done', stderrDropped: 0})
  })

  it('reports a missing executable as a spawn error', async () => {
    const outcome = await runChild(request([], {file: join(scratch, 'no-such-program')}))
    expect(outcome.spawnError).toMatch(/ENOENT/)
    expect(outcome.exitCode).toBeUndefined()
    expect(groups.size).toBe(0)
  })
})

describe('runChild: ending the process tree', () => {
  it('on timeout kills the whole group, including a grandchild that ignores SIGTERM', async () => {
    const outcome = await runChild(request([SPAWN_TREE, 'wait'], {timeoutMs: TREE_TIMEOUT_MS}))
    const pid = grandchildPid(outcome)
    expect(outcome).toMatchObject({cancelled: false, exitCode: undefined, signal: 'SIGTERM', timedOut: true})
    expect(await eventually(() => isGone(pid))).toBe(true)
  })

  it('kills a grandchild left behind by a parent that exited normally', async () => {
    const outcome = await runChild(request([SPAWN_TREE, 'exit']))
    const pid = grandchildPid(outcome)
    expect(outcome).toMatchObject({cancelled: false, exitCode: 0, timedOut: false})
    expect(await eventually(() => isGone(pid))).toBe(true)
  })

  it('stops reading pipes held open by a grandchild that left the group, so the call still returns', async () => {
    const outcome = await runChild(request([SPAWN_TREE, 'escape']))
    const pid = grandchildPid(outcome)
    expect(outcome).toMatchObject({exitCode: 0, timedOut: false})
    expect(outcome.durationMs).toBeLessThan(30_000)
    // Out of reach of a group kill by design (a daemon); afterEach ends it.
    expect(isGone(pid)).toBe(false)
  })

  it('follows SIGTERM with SIGKILL for a command that ignores SIGTERM', async () => {
    const script = 'process.on("SIGTERM", () => console.log("ignored SIGTERM")); console.log("ready"); setInterval(() => {}, 1000)'
    const outcome = await run(script, {timeoutMs: 5000})
    expect(outcome.stdout).toMatch(/^ready\n/)
    expect(outcome).toMatchObject({exitCode: undefined, signal: 'SIGKILL', timedOut: true})
  })

  it('on abort kills the tree and marks the run cancelled', async () => {
    const pidFile = join(scratch, 'abort.pid')
    const controller = new AbortController()
    const pending = runChild(request([SPAWN_TREE, 'stubborn', pidFile], {signal: controller.signal}))
    try {
      expect(await eventually(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8') !== '', 30_000)).toBe(true)
      started.add(Number(readFileSync(pidFile, 'utf8')))
      expect(groups.size).toBe(1)
      controller.abort()
      const outcome = await pending
      const pid = grandchildPid(outcome)
      expect(outcome).toMatchObject({cancelled: true, signal: 'SIGKILL', timedOut: false})
      expect(await eventually(() => isGone(pid))).toBe(true)
      expect(groups.size).toBe(0)
    } finally {
      controller.abort()
      await pending
    }
  })

  it('ends at once a command whose signal is already aborted', async () => {
    const outcome = await run('setTimeout(() => console.log("ran"), 3000)', {signal: AbortSignal.abort()})
    expect(outcome).toMatchObject({cancelled: true, stdout: '', timedOut: false})
    expect(outcome.exitCode).toBeUndefined()
  })
})

describe('ProcessGroups', () => {
  it('tracks running commands and ends them all on shutdown', async () => {
    expect(groups.size).toBe(0)
    const script = 'console.log("up"); setInterval(() => {}, 1000)'
    const pending = [run(script), run(script)]
    try {
      // Registered once spawned (execa is imported on first use, so that is a moment after the call).
      expect(await eventually(() => groups.size === 2, 30_000, 20)).toBe(true)
      groups.killAll()
      const outcomes = await Promise.all(pending)
      for (const outcome of outcomes) expect(outcome).toMatchObject({cancelled: false, signal: 'SIGKILL', timedOut: false})
      expect(groups.size).toBe(0)
    } finally {
      groups.killAll()
      await Promise.all(pending)
    }
  })
})
