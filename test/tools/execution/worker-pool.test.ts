// The pool of prewarmed one-shot workers (src/tools/execution/worker-pool.ts), on the example CLI's real bin: a ready
// worker runs one call exactly as a cold run would, close() ends the idle ones, and a pool whose workers keep dying
// turns itself off (every call then starts cold). Every worker a test starts is found by a marker in its environment
// and is gone when the test ends.
import {afterAll, afterEach, describe, expect, it} from '@jest/globals'
import {randomUUID} from 'node:crypto'
import {join} from 'node:path'

import type {WorkerPool as Pool} from '../../../src/tools/execution/worker-pool.js'

import {eventually, isAlive, killPids, processesWithEnv} from '../../helpers/processes.js'
import {ROOT, scratch, TASKBOX_BIN, taskboxEnv} from '../../helpers/taskbox.js'

// The built modules: a worker is started from the built worker-entry.js (npm test builds first).
const DIST = join(ROOT, 'dist/tools/execution')
const {WorkerPool} = (await import(join(DIST, 'worker-pool.js'))) as typeof import('../../../src/tools/execution/worker-pool.js')
const {ProcessGroups, runChild} = (await import(join(DIST, 'child-process.js'))) as typeof import('../../../src/tools/execution/child-process.js')

const TASKBOX = join(ROOT, 'examples/taskbox')
const space = scratch('worker-pool-')
const pools: Pool[] = []
const markers: string[] = []

afterEach(() => {
  for (const pool of pools.splice(0)) pool.close()
  for (const marker of markers.splice(0)) killPids(processesWithEnv('WORKER_POOL_TEST', marker))
})

afterAll(() => space.cleanup())

function pool(size: number): {env: Record<string, string>; marker: string; pool: Pool} {
  const marker = randomUUID()
  markers.push(marker)
  const env = {...taskboxEnv(space.dir), WORKER_POOL_TEST: marker}
  const made = new WorkerPool({bin: TASKBOX_BIN, env, root: TASKBOX, size})
  made.allow()
  pools.push(made)
  return {env, marker, pool: made}
}

/** A worker bound to one call, once one is ready. */
async function taken(workers: Pool, call: Parameters<Pool['take']>[0]): Promise<NonNullable<ReturnType<Pool['take']>>> {
  let prestarted: ReturnType<Pool['take']>
  expect(await eventually(() => (prestarted = workers.take(call)) !== undefined, 60_000)).toBe(true)
  return prestarted!
}

function run(env: Record<string, string>, prestarted?: ReturnType<Pool['take']>) {
  return runChild({
    args: [TASKBOX_BIN, 'status', '--json'],
    cwd: space.dir,
    env,
    file: process.execPath,
    groups: new ProcessGroups(),
    maxOutputBytes: 1024 * 1024,
    prestarted,
    timeoutMs: 60_000,
  })
}

describe('WorkerPool', () => {
  it('hands out a ready worker that runs one call as a cold run would, then exits', async () => {
    const {env, pool: workers} = pool(1)
    expect(workers.take({argv: ['status', '--json'], cwd: space.dir, env})).toBeUndefined()
    workers.fill()
    expect(workers.size).toBe(1)
    const prestarted = await taken(workers, {argv: ['status', '--json'], cwd: space.dir, env})
    expect(workers.size).toBe(0)
    const [warm, cold] = [await run(env, prestarted), await run(env)]
    expect(warm).toMatchObject({exitCode: 0, stderr: cold.stderr, stdout: cold.stdout, timedOut: false})
    expect(JSON.parse(warm.stdout)).toEqual({directory: space.dir, done: 0, initialized: false, open: 0})
    expect(prestarted.child.exitCode).toBe(0)
  })

  it('close() kills the idle workers, and no more are made', async () => {
    const {env, marker, pool: workers} = pool(2)
    workers.fill()
    expect(await eventually(() => processesWithEnv('WORKER_POOL_TEST', marker).length === 2, 60_000)).toBe(true)
    const pids = processesWithEnv('WORKER_POOL_TEST', marker)
    workers.close()
    expect(workers.enabled).toBe(false)
    expect(await eventually(() => pids.every((pid) => !isAlive(pid)))).toBe(true)
    workers.fill()
    expect(workers.size).toBe(0)
    expect(workers.take({argv: ['status'], cwd: space.dir, env})).toBeUndefined()
  })

  it('turns itself off after three workers in a row die before use', async () => {
    const {marker, pool: workers} = pool(1)
    workers.fill()
    for (let death = 1; death <= 3; death++) {
      expect(await eventually(() => processesWithEnv('WORKER_POOL_TEST', marker).length === 1, 60_000)).toBe(true)
      killPids(processesWithEnv('WORKER_POOL_TEST', marker))
      expect(await eventually(() => processesWithEnv('WORKER_POOL_TEST', marker).length === 0)).toBe(true)
      // A worker that died is replaced only when a call refills the pool, as after a call.
      expect(await eventually(() => workers.size === 0)).toBe(true)
      workers.fill()
    }

    expect(workers.enabled).toBe(false)
    expect(workers.size).toBe(0)
  })
})

describe('a pool a server has not allowed to start', () => {
  it('starts no worker, however often it is filled (mcp call runs one command and ends)', async () => {
    const marker = randomUUID()
    markers.push(marker)
    const idle = new WorkerPool({bin: TASKBOX_BIN, env: {...taskboxEnv(space.dir), WORKER_POOL_TEST: marker}, root: TASKBOX, size: 2})
    pools.push(idle)
    idle.fill()
    idle.fill()
    expect(idle.size).toBe(0)
    expect(idle.take({argv: ['status'], cwd: space.dir, env: {}})).toBeUndefined()
    idle.allow()
    idle.fill()
    expect(idle.size).toBe(2)
  })
})
