// Two `mcp serve` replicas on one real redis-server (the Debian package, on a free loopback port, stopped by pid):
// a key claimed on one is replayed on the other and never run twice, a job started on one is followed, read and
// cancelled from the other, a cut result's whole output is read from the other, and a Redis that goes away or stops
// answering gives clear errors with no run lost or doubled. Each replica has a home of its own, so nothing is shared
// through files. A and B wait for a command as long as a server does by default, so their short commands answer in
// the call however loaded the machine; jobs are started on C, whose foreground budget is 1 s.
import {Client, StreamableHTTPClientTransport} from '@modelcontextprotocol/client'
import {afterAll, beforeAll, describe, expect, it} from '@jest/globals'
import {createClient} from '@redis/client'
import {randomBytes} from 'node:crypto'
import {join} from 'node:path'

import {jobEnd, runningJob, settled} from '../helpers/jobs.js'
import {eventually, killPids, processesMatching} from '../helpers/processes.js'
import {type RedisServer, startRedis} from '../helpers/redis.js'
import {refusedServe, type Served, serveTaskbox} from '../helpers/serve.js'
import {FAULTY_BIN, scratch, taskboxEnv, textOf} from '../helpers/taskbox.js'

interface Result {
  content: {text?: string; type: string}[]
  isError?: boolean
  structuredContent?: Record<string, any>
}

interface Replica {
  call: (name: string, args?: Record<string, unknown>) => Promise<Result>
  close: () => Promise<void>
  served: Served
}

const space = scratch('mcp-replicas-')
const tags: string[] = []
let redis: RedisServer
let a: Replica
let b: Replica
let c: Replica

const marker = (what: string) => {
  const tag = `${what}-${randomBytes(6).toString('hex')}`
  tags.push(tag)
  return tag
}

async function replica(name: string, url: string, extra: string[] = []): Promise<Replica> {
  const served = await serveTaskbox({args: ['--state', url, ...extra], bin: FAULTY_BIN, cwd: space.dir, env: taskboxEnv(join(space.dir, `home-${name}`))})
  const client = new Client({name: `replicas-test-${name}`, version: '1'}, {versionNegotiation: {mode: {pin: '2026-07-28'}}})
  await client.connect(new StreamableHTTPClientTransport(new URL(served.url)))
  return {
    call: async (tool, args = {}) => (await client.callTool({arguments: args, name: tool}, {timeout: 60_000})) as Result,
    async close() {
      await client.close().catch(() => {})
      await served.stop()
    },
    served,
  }
}

const allText = (result: Result) => result.content.map((block) => block.text ?? '').join('\n')

beforeAll(async () => {
  redis = await startRedis()
  // Started side by side; each is kept as it comes up, so that afterAll stops those that did.
  await Promise.all([
    replica('a', redis.url).then((started) => (a = started)),
    replica('b', redis.url).then((started) => (b = started)),
    replica('c', redis.url, ['--foreground', '1']).then((started) => (c = started)),
  ])
}, 120_000)

afterAll(async () => {
  await Promise.all([a?.close(), b?.close(), c?.close()])
  await redis?.stop()
  killPids(tags.flatMap((tag) => processesMatching(tag).map((row) => row.pid)))
  space.cleanup()
}, 60_000)

describe('two replicas on one Redis', () => {
  it('say at start that they share their state through it', () => {
    expect(a.served.stderr()).toContain(`State shared through ${redis.url}: idempotency records, jobs and kept outputs, at most 256 MiB in all and 64 MiB per person`)
  })

  it('a key claimed on one replica is replayed on the other, also while the first run is still going: one run', async () => {
    const tag = marker('key')
    const args = {idempotencyKey: `key-${tag}`, marker: tag, seconds: 1}
    const groups = new Set<number>()
    const sampling = setInterval(() => {
      for (const row of processesMatching(tag)) groups.add(row.pgid)
    }, 50)
    try {
      // B asks while A's run is in flight: it waits for A's result instead of running the command itself.
      const first = a.call('slow', args)
      await eventually(() => processesMatching(tag).length > 0)
      const [onA, onB] = await Promise.all([first.then((result) => settled(a.call, result)), b.call('slow', args)])
      expect(onA.isError).toBeFalsy()
      expect(onA.structuredContent!.stdout).toBe('tick 1\nfinished\n')
      // Were A's run handed to a job after all, B replays that job rather than the recorded result: A's one run either
      // way, followed to its end.
      expect(allText(onB)).toMatch(/Replayed: this is the (result recorded at|job its first call started \()/)
      expect((await settled(b.call, onB)).structuredContent!.stdout).toBe('tick 1\nfinished\n')
      const again = await b.call('slow', args)
      expect(allText(again)).toContain('the command did not run again')
    } finally {
      clearInterval(sampling)
    }

    expect(groups.size).toBe(1)
    // The same key with other arguments is refused on either replica.
    const conflict = await b.call('slow', {...args, seconds: 2})
    expect(conflict.structuredContent).toMatchObject({code: 'IDEMPOTENCY_CONFLICT'})
  }, 60_000)

  it('a job started on one replica is followed, read and waited for from the other', async () => {
    const tag = marker('job')
    const started = await c.call('slow', {marker: tag, seconds: 6})
    const {id} = started.structuredContent!.job
    expect(started.structuredContent!.job.status).toBe('working')
    // Its output reaches the store as it is written: the other replica reads it while the job runs.
    let seen = ''
    for (let running = true; running && !seen.includes('tick 3'); ) {
      const status = await b.call('job_status', {job: id, wait: 1})
      expect(status.isError).toBeFalsy()
      seen = status.structuredContent!.stdout ?? ''
      running = runningJob(status) !== undefined
    }

    expect(seen).toMatch(/^tick 1\ntick 2\ntick 3\n/)
    const ended = await jobEnd(b.call, id)
    expect(ended.structuredContent!.job).toMatchObject({exitCode: 0, id, status: 'completed'})
    expect(ended.structuredContent!.stdout).toBe(`${Array.from({length: 6}, (_, i) => `tick ${i + 1}`).join('\n')}\nfinished\n`)
    const page = await b.call('read_output', {output: id})
    expect(page.structuredContent!.text).toContain('tick 6\nfinished\n')
  }, 90_000)

  it('a job is cancelled from the other replica: the replica running it stops it', async () => {
    const tag = marker('cancel')
    const started = await c.call('slow', {marker: tag, seconds: 60})
    const {id} = started.structuredContent!.job
    const cancelled = await b.call('cancel_job', {job: id})
    expect(cancelled.structuredContent!.job.status).toBe('cancelled')
    expect(await eventually(() => processesMatching(tag).length === 0)).toBe(true)
  }, 60_000)

  it("a cut result's whole output is read from the other replica", async () => {
    const cut = await a.call('lines', {kib: 256})
    const {id} = cut.structuredContent!.output
    let whole = ''
    let offset: null | number = 0
    while (offset !== null) {
      const page = await b.call('read_output', {offset, output: id})
      // Readable at once: A answers only once the output is in the shared store.
      expect([page.isError, page.structuredContent!.code]).toEqual([undefined, undefined])
      whole += page.structuredContent!.text
      offset = page.structuredContent!.nextOffset
    }

    expect(whole).toHaveLength(256 * 1024)
    expect(whole.startsWith('out line 0000001 ')).toBe(true)
    expect(whole.endsWith(`out line ${String(256 * 16).padStart(7, '0')} ${'.'.repeat(46)}\n`)).toBe(true)
  }, 60_000)
})

describe('the quota of the shared store', () => {
  it("one caller's outputs stop being kept at the quota, Redis stops growing, and another replica's idempotent calls still run", async () => {
    const used = async () => {
      const raw = createClient({url: redis.url})
      await raw.connect()
      try {
        return Number(/used_memory:(\d+)/.exec(await raw.info('memory'))![1])
      } finally {
        await raw.close()
      }
    }

    const flooding = await replica('quota', redis.url, ['--state-quota', '3'])
    try {
      const before = await used()
      // Each call's whole output (1 MiB) is kept for read_output: in this replica, and in Redis while the quota allows.
      // Six of them (6 MiB) are past the 3 MiB quota and past the 4 MiB Redis may grow by here: a quota that held back
      // nothing, or less than it should, shows as it would with more.
      for (let i = 0; i < 6; i++) expect((await flooding.call('lines', {kib: 1024})).structuredContent!.output).toBeDefined()
      expect((await used()) - before).toBeLessThan(4 * 1024 * 1024)
      expect(flooding.served.stderr()).toMatch(/output \S+ is not kept in redis:\/\/\S+ \(its quota is reached\): only this replica can read it/)
      // Past the quota an idempotent call still runs, on this replica and on another; its record is kept (with a note in
      // place of a result too large for the quota), so a retry replays it.
      for (const [who, at] of [['quota', flooding], ['b', b]] as const) {
        const key = `key-${marker(`after-quota-${who}`)}`
        const run = await at.call('echo', {first: `still served ${who}`, idempotencyKey: key})
        expect([run.isError ?? false, allText(run)]).toEqual([false, expect.stringContaining(`still served ${who}`)])
        expect((await at.call('echo', {first: `still served ${who}`, idempotencyKey: key})).isError ?? false).toBe(false)
      }
    } finally {
      await flooding.close()
    }
  }, 120_000)
})

describe('when Redis goes away', () => {
  it('a call with a key is refused before anything runs, a call without one runs, and both replicas recover with it', async () => {
    await redis.stop()
    const tag = marker('down')
    const refused = await a.call('slow', {idempotencyKey: `key-${tag}`, marker: tag, seconds: 1})
    expect(refused.isError).toBe(true)
    expect(refused.structuredContent).toMatchObject({code: 'IDEMPOTENCY_UNAVAILABLE'})
    expect(textOf(refused)).toMatch(/^The idempotency store redis:\/\/127\.0\.0\.1:\d+ could not be used, so the command was not run/)
    expect(processesMatching(tag)).toEqual([])
    // Were it handed to a job, that job is this replica's, which needs no Redis to be followed to its end.
    const unprotected = await settled(a.call, await a.call('slow', {marker: tag, seconds: 1}))
    expect(unprotected.structuredContent!.stdout).toBe('tick 1\nfinished\n')
    const status = await b.call('job_status', {job: 'somewhere-else'})
    expect(status.structuredContent).toMatchObject({code: 'STATE_STORE_UNAVAILABLE'})

    redis = await startRedis(redis.port)
    // The clients reconnect on their own: a call with a key is refused until they have, then it runs.
    let ran: Result | undefined
    const call = async () => {
      ran = await a.call('slow', {idempotencyKey: `key-${tag}-again`, marker: tag, seconds: 1})
      return Boolean(ran.structuredContent?.stdout)
    }
    expect(await eventually(call, 60_000, 200)).toBe(true)
    expect(ran!.structuredContent!.stdout).toBe('tick 1\nfinished\n')
    expect(allText(await b.call('slow', {idempotencyKey: `key-${tag}-again`, marker: tag, seconds: 1}))).toContain('Replayed')
  }, 90_000)

  it('a Redis that stops answering mid-call: the command ran once, the result says it was not recorded, and a retry never runs it again', async () => {
    const tag = marker('stalled')
    const args = {idempotencyKey: `key-${tag}`, marker: tag, seconds: 1}
    const call = a.call('slow', args)
    await eventually(() => processesMatching(tag).length > 0)
    process.kill(redis.pid, 'SIGSTOP')
    let result: Result
    try {
      result = await call
    } finally {
      process.kill(redis.pid, 'SIGCONT')
    }

    expect(result.structuredContent!.stdout).toBe('tick 1\nfinished\n')
    expect(allText(result)).toContain('The command ran, but its result could not be recorded')
    // A retry on either replica never runs it a second time: once the claim's lease has run out it is refused as
    // interrupted (the command may have had an effect), or, when Redis carried out the recording it was sent before it
    // stalled, it replays that.
    const retry = await b.call('slow', args)
    expect(retry.structuredContent?.code === 'IDEMPOTENCY_INTERRUPTED' || allText(retry).includes('Replayed')).toBe(true)
    expect(processesMatching(tag)).toEqual([])
  }, 90_000)
})

describe('mcp serve --state', () => {
  it('refuses to start when the store cannot be reached, or when the URL on the command line holds a password', async () => {
    const home = join(space.dir, 'home-refused')
    const down = await refusedServe(['--port', '0', '--state', 'redis://127.0.0.1:1'], taskboxEnv(home), space.dir)
    expect(down.code).toBe(1)
    expect(down.stderr).toContain('Cannot use the state store redis://127.0.0.1:1')
    const secret = await refusedServe(['--port', '0', '--state', 'redis://user:hunter2@127.0.0.1:1'], taskboxEnv(home), space.dir)
    expect(secret.code).toBe(2)
    expect(secret.stderr).toContain('--state holds a password')
    expect(secret.stderr).not.toContain('hunter2')
    const scheme = await refusedServe(['--port', '0', '--state', 'memcached://127.0.0.1:1'], taskboxEnv(home), space.dir)
    expect(scheme.code).toBe(2)
    expect(scheme.stderr).toContain('memcached: is not a state store this server knows')
  }, 60_000)
})
