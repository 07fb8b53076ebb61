// Soak: a bounded mixed load over HTTP against the example CLI (`taskbox mcp serve --timeout 5`). SOAK_CLIENTS
// official clients (default 8) each own a temp directory and make random calls: reads (status, tasks list/show,
// cli_info), writes (tasks add/done), a read that fails (show a missing task), a command that fails (sync: no server
// configured) and one that times out (report weekly with a 300 s delay). Every result is checked against a model of
// that directory, so any unintended failure is caught. Afterwards: the server's RSS grew less than 10 % after
// warm-up, and no zombie and no orphan is left. Figures printed.
//
// Memory. Sampled under load, the server's VmRSS is mostly garbage V8 has not collected yet: it climbed 96 → 130 MiB
// in one minute and 133 MiB in seven, then dropped to 84 MiB when the GC's memory reducer ran — noise of the same size
// as the 10 % being checked — while heap snapshots after 157, 464 and 771 calls stayed at 23.2, 23.4 and 23.1 MB. So
// the server runs with --inspect on loopback, and RSS is read right after a full, memory-reducing collection forced
// through the inspector (as DevTools' "collect garbage" does): once after the warm-up and once near the end, both
// under load. What survives a full collection is what a leak would grow; that came out flat (76.5, 77.6, 78.1, 78.1,
// 77.5, 78.1, 77.5 MiB at 67 … 469 calls). The unforced samples are printed too, for information.
//
// Knobs: SOAK_SECONDS (measured load, default 30), SOAK_WARMUP_SECONDS (load before it, default 20), SOAK_CLIENTS
// (default 8), SOAK_SEED (replays a mix), SOAK_TIMEOUT (the server's --timeout, default 5 s). With --timeout 2 an
// ordinary cold start of taskbox occasionally takes longer than 2 s on a loaded 2-core machine (2 of 1,428 calls in a
// 7-minute run: `status` and `tasks list` finished with exit 0 after 2,044 and 2,185 ms and were reported as timed
// out), which would make this suite flaky; 5 s keeps the timed-out calls quick and the others clear of the limit.
import {Client, StreamableHTTPClientTransport} from '@modelcontextprotocol/client'
import {afterAll, beforeAll, describe, expect, it} from '@jest/globals'
import {mkdirSync} from 'node:fs'
import {join} from 'node:path'

import {collectGarbage, inspectorUrl} from '../helpers/inspector.js'
import {descendantsOf, eventually, killPids, processesIn, processesWithEnv, rssKiB, zombies} from '../helpers/processes.js'
import {type Served, serveTaskbox} from '../helpers/serve.js'
import {scratch, taskboxEnv, textOf} from '../helpers/taskbox.js'

const SECONDS = Number(process.env.SOAK_SECONDS ?? 30)
/** Load before the baseline is taken: code gets compiled, caches and the worker pool fill. */
const WARMUP_SECONDS = Number(process.env.SOAK_WARMUP_SECONDS ?? 20)
const TIMEOUT = Number(process.env.SOAK_TIMEOUT ?? 5)
const CLIENTS = Number(process.env.SOAK_CLIENTS ?? 8)
const SEED = Number(process.env.SOAK_SEED ?? Date.now() % 100_000)

interface Task {
  done: boolean
  id: number
  priority: number
  title: string
}

interface Result {
  content?: unknown
  isError?: boolean
  structuredContent?: Record<string, any>
}

type Call = (name: string, args: Record<string, unknown>) => Promise<Result>

/** Deterministic per seed, so a failing mix can be replayed with SOAK_SEED. */
function random(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d_2b_79_f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296
  }
}

/** One kind of call: what to send, and what must come back (a problem description, or undefined when right). */
interface Operation {
  check: (result: Result) => string | undefined
  name: string
  send: (call: Call) => Promise<Result>
}

/** The operations a client can make in its directory, given its model of the task list there. */
function operations(dir: string, tasks: Task[], next: () => number, rand: () => number): {op: Operation; weight: number}[] {
  const pick = <T>(items: T[]) => items[Math.floor(rand() * items.length)]
  const open = tasks.filter((t) => !t.done)
  const data = (r: Result) => r.structuredContent?.data
  const fail = (r: Result, what: string) => (r.isError ? `isError: ${textOf(r).slice(0, 300)}` : what)
  const ok = (r: Result, right: boolean, what: string) => (!r.isError && right ? undefined : fail(r, what))
  const byUrgency = [...tasks].sort((a, b) => a.priority - b.priority || a.id - b.id).map((t) => `${t.id}:${t.done}`)
  const title = `task ${Math.floor(rand() * 1e6)} "quoted" -dash é`
  const priority = 1 + Math.floor(rand() * 5)
  const shown = tasks.length > 0 ? pick(tasks) : undefined
  const finishing = open.length > 0 ? pick(open) : undefined
  const list: {op: Operation; weight: number}[] = [
    {op: {check: (r) => ok(r, data(r)?.initialized === true && data(r)?.open === open.length && data(r)?.done === tasks.length - open.length, `status ${JSON.stringify(data(r))}`), name: 'status', send: (c) => c('status', {cwd: dir})}, weight: 3},
    {op: {check: (r) => ok(r, JSON.stringify((data(r)?.tasks ?? []).map((t: Task) => `${t.id}:${t.done}`)) === JSON.stringify(byUrgency), 'list differs from the model'), name: 'tasks_list', send: (c) => c('tasks_list', {cwd: dir, limit: 10_000, status: 'all'})}, weight: 3},
    {op: {check: (r) => ok(r, r.structuredContent?.bin === 'taskbox', 'cli_info'), name: 'cli_info', send: (c) => c('cli_info', {})}, weight: 1},
    {
      op: {
        check(r) {
          const task = data(r) as Task | undefined
          const problem = ok(r, task?.id === next() && task?.title === title && task?.priority === priority, `add ${JSON.stringify(task)}`)
          if (!problem) tasks.push({done: false, id: task!.id, priority, title})
          return problem
        },
        name: 'tasks_add',
        send: (c) => c('tasks_add', {cwd: dir, priority, title}),
      },
      weight: 3,
    },
    {op: {check: (r) => (r.isError && textOf(r).includes('No task with id') ? undefined : `missing task: ${textOf(r).slice(0, 200)}`), name: 'tasks_show (missing)', send: (c) => c('tasks_show', {cwd: dir, id: String(100_000 + tasks.length)})}, weight: 1},
    {op: {check: (r) => (r.isError && r.structuredContent?.exitCode === 4 && textOf(r).includes('No sync server configured') ? undefined : `sync: ${textOf(r).slice(0, 200)}`), name: 'sync (fails)', send: (c) => c('sync', {cwd: dir})}, weight: 1},
    {op: {check: (r) => (r.isError && r.structuredContent?.timedOut === true ? undefined : `timeout: ${textOf(r).slice(0, 200)}`), name: 'report_weekly (times out)', send: (c) => c('report_weekly', {cwd: dir, delay: 300})}, weight: 1},
  ]
  if (shown) {
    list.push({op: {check: (r) => ok(r, data(r)?.id === shown.id && data(r)?.title === shown.title && data(r)?.done === shown.done, `show ${JSON.stringify(data(r))}`), name: 'tasks_show', send: (c) => c('tasks_show', {cwd: dir, id: String(shown.id)})}, weight: 2})
  }

  if (finishing) {
    const check = (r: Result) => {
      const problem = ok(r, true, 'done')
      if (!problem) finishing.done = true
      return problem
    }

    list.push({op: {check, name: 'tasks_done', send: (c) => c('tasks_done', {cwd: dir, id: String(finishing.id)})}, weight: 2})
  }

  return list
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN
const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))] ?? Number.NaN

/** Median RSS (MiB) in each tenth of the run. */
function timeline(samples: {at: number; kib: number}[], total: number): string[] {
  return Array.from({length: 10}, (_, i) => median(samples.filter((s) => s.at >= (total * i) / 10 && s.at < (total * (i + 1)) / 10).map((s) => s.kib)) / 1024).map((m) => m.toFixed(0))
}

describe('soak: mixed load over HTTP', () => {
  const space = scratch('mcp-soak-')
  const home = join(space.dir, 'home')
  let server: Served

  beforeAll(async () => {
    server = await serveTaskbox({args: ['--timeout', String(TIMEOUT)], nodeArgs: ['--inspect=127.0.0.1:0'], cwd: space.dir, env: taskboxEnv(home)})
  })

  afterAll(async () => {
    try {
      await server?.stop()
      killPids(processesWithEnv('HOME', home))
    } finally {
      space.cleanup()
    }
  })

  it(`${CLIENTS} clients for ${WARMUP_SECONDS} + ${SECONDS} s: every result right, RSS flat after warm-up, nothing left behind`, async () => {
    const pid = server.child.pid!
    const started = Date.now()
    const warm = WARMUP_SECONDS * 1000
    const deadline = started + warm + SECONDS * 1000
    const samples: {at: number; kib: number}[] = []
    const sampler = setInterval(() => samples.push({at: Date.now() - started, kib: rssKiB(pid)}), 250)
    const failures: string[] = []
    const stats = new Map<string, number[]>()
    const inspector = inspectorUrl(server.stderr())
    /** RSS (KiB) right after a full collection, the median of five reads; and the live heap then. */
    const settled = async () => {
      const {heapUsed} = await collectGarbage(inspector)
      const reads: number[] = []
      for (let i = 0; i < 5; i++) {
        reads.push(rssKiB(pid))
        await new Promise((resolve) => setTimeout(resolve, 100))
      }

      return {heapUsed, rss: median(reads)}
    }

    const at = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, started + ms - Date.now())))
    const baselineTaken = at(warm).then(settled)
    const endTaken = at(warm + Math.max(SECONDS * 1000 - 5000, SECONDS * 500)).then(settled)

    const client = async (index: number) => {
      const dir = join(space.dir, `client-${index}`)
      mkdirSync(dir)
      const rand = random(SEED + index)
      const tasks: Task[] = []
      let nextId = 1
      const mcp = new Client({name: `soak-${index}`, version: '1'})
      await mcp.connect(new StreamableHTTPClientTransport(new URL(server.url)))
      const call: Call = (name, args) => mcp.callTool({arguments: args, name}, {timeout: 120_000}) as Promise<Result>
      try {
        const init = await call('init', {cwd: dir})
        if (init.isError) failures.push(`client ${index} init: ${textOf(init)}`)
        while (Date.now() < deadline) {
          const choices = operations(dir, tasks, () => nextId, rand)
          let roll = rand() * choices.reduce((sum, c) => sum + c.weight, 0)
          const {op} = choices.find((c) => (roll -= c.weight) < 0) ?? choices[0]
          const began = Date.now()
          const result = await op.send(call).catch((error: Error) => ({content: [{text: `threw: ${error.message}`, type: 'text'}], isError: true}) as Result)
          const problem = op.check(result)
          if (problem) failures.push(`client ${index} ${op.name}: ${problem}`)
          if (op.name === 'tasks_add' && !problem) nextId++
          stats.set(op.name, [...(stats.get(op.name) ?? []), Date.now() - began])
        }
      } finally {
        await mcp.close().catch(() => {})
      }
    }

    try {
      await Promise.all(Array.from({length: CLIENTS}, (_, index) => client(index)))
    } finally {
      clearInterval(sampler)
    }

    // RSS after a forced full collection, after the warm-up and near the end (see the top of this file).
    const total = Date.now() - started
    const [baseline, end] = await Promise.all([baselineTaken, endTaken])
    const growth = (end.rss - baseline.rss) / baseline.rss

    // Nothing left once the calls are over: no zombie child, nothing running but idle prewarmed workers.
    await eventually(() => descendantsOf(pid).every((row) => row.args.includes('worker-entry')))
    const busy = descendantsOf(pid).filter((row) => !row.args.includes('worker-entry'))
    const undead = zombies().filter((row) => row.ppid === pid)
    expect(await server.stop()).toBe(0)
    await eventually(() => processesWithEnv('HOME', home).length === 0 && processesIn(space.dir).length === 0)
    const orphans = [...new Set([...processesWithEnv('HOME', home), ...processesIn(space.dir)])]

    const calls = [...stats.values()].reduce((sum, list) => sum + list.length, 0)
    const lines = [...stats].map(([name, ms]) => `  ${name}: ${ms.length} calls, p50 ${median(ms)} ms, p95 ${percentile(ms, 0.95)} ms`)
    process.stderr.write(
      [
        `soak: ${CLIENTS} clients, ${Math.round(total / 1000)} s (${WARMUP_SECONDS} s warm-up), --timeout ${TIMEOUT}, seed ${SEED}, ${calls} calls (${(calls / (total / 1000)).toFixed(1)}/s), ${failures.length} unintended failures`,
        ...lines,
        `  RSS after a full GC: baseline ${(baseline.rss / 1024).toFixed(1)} MiB, end ${(end.rss / 1024).toFixed(1)} MiB, growth ${(growth * 100).toFixed(1)} %; live heap ${(baseline.heapUsed / 2 ** 20).toFixed(1)} -> ${(end.heapUsed / 2 ** 20).toFixed(1)} MiB`,
        `  RSS under load, unforced (information): by tenth of the run ${timeline(samples, total).join(' ')} MiB, peak ${(Math.max(...samples.map((s) => s.kib)) / 1024).toFixed(1)} MiB`,
        `  left behind: ${busy.length} busy children, ${undead.length} zombies, ${orphans.length} orphans`,
        ...failures.slice(0, 10).map((f) => `  FAILURE ${f}`),
        '',
      ].join('\n'),
    )

    expect(failures).toEqual([])
    expect(calls).toBeGreaterThan(CLIENTS * 3)
    expect(growth).toBeLessThan(0.1)
    expect({busy, orphans, undead}).toEqual({busy: [], orphans: [], undead: []})
  }, (WARMUP_SECONDS + SECONDS) * 1000 + 180_000)
})
