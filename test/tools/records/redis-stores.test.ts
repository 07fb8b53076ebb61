// The Redis store against a real redis-server: two stores (as two replicas would have) sharing one key run it once;
// replays, conflicts, a run that did not start, a claim whose replica died, and a Redis that is gone; its quotas.
import {afterAll, beforeAll, describe, expect, it} from '@jest/globals'
import {createClient} from '@redis/client'

import type {StateQuota} from '../../../src/settings/state-url.js'
import type {Execution} from '../../../src/tools/records/idempotency.js'
import type {IdempotencyRecords} from '../../../src/tools/records/state-store.js'

import {redisIdempotency} from '../../../src/tools/records/redis-idempotency.js'
import {RedisRecords} from '../../../src/tools/records/redis-records.js'
import {command, resultOf, textResult} from '../../helpers/idempotency-store.js'
import {type RedisServer, startRedis} from '../../helpers/redis.js'

let redis: RedisServer
const stores: RedisRecords[] = []
let n = 0

/** A replica's view of the store: one connection, its shared records and its idempotency records. */
async function store(prefix = 'test', quota?: StateQuota): Promise<IdempotencyRecords & {records: RedisRecords}> {
  const records = new RedisRecords(redis.url, prefix, quota)
  await records.connect()
  stores.push(records)
  return Object.assign(redisIdempotency(records), {records})
}

const key = () => `key-${++n}`

beforeAll(async () => {
  redis = await startRedis()
}, 60_000)

afterAll(async () => {
  await Promise.all(stores.map((s) => s.close()))
  await redis?.stop()
})

describe('the Redis store as the idempotency store', () => {
  it('runs a key once across two replicas calling at the same time; the other replays', async () => {
    const [a, b] = [await store(), await store()]
    const k = key()
    const run = command('first', {holdMs: 300})
    const outcomes = await Promise.all([a.run('tasks:add', k, {title: 'x'}, run.execute), b.run('tasks:add', k, {title: 'x'}, run.execute)])
    expect(run.runs).toBe(1)
    expect(outcomes.map((o) => o.status).sort()).toEqual(['executed', 'replayed'])
    expect(outcomes.map((o) => resultOf(o))).toEqual([resultOf(outcomes[0]), resultOf(outcomes[0])])
  })

  it('refuses the same key with other arguments, and lets a call that did not start be retried', async () => {
    const a = await store()
    const k = key()
    const notRun = command('busy', {ran: false})
    expect((await a.run('tasks:add', k, {title: 'x'}, notRun.execute)).status).toBe('not-run')
    const ran = command('done')
    expect((await a.run('tasks:add', k, {title: 'x'}, ran.execute)).status).toBe('executed')
    expect(await a.run('tasks:add', k, {title: 'y'}, ran.execute)).toMatchObject({reason: 'conflict', status: 'refused'})
    expect(ran.runs).toBe(1)
  })

  it("answers a claim whose replica went away (its lease ran out) as interrupted: never run again", async () => {
    const a = await store()
    const k = key()
    // A replica that claimed the key and died: its claim is there, its lease is not (removed by hand here).
    let release!: (execution: Execution) => void
    // The command is called once the key is claimed (and its lease set): the lease is removed after that, not after a pause.
    let claimed!: () => void
    const running = new Promise<void>((resolve) => (claimed = resolve))
    const stuck = a.run('deploy', k, {}, () => {
      claimed()
      return new Promise<Execution>((resolve) => (release = resolve))
    })
    await running
    const raw = createClient({url: redis.url})
    await raw.connect()
    try {
      for (const lease of await raw.keys('test:idem-lease:*')) await raw.del(lease)
    } finally {
      await raw.close()
    }

    const b = await store()
    const again = command('again')
    expect(await b.run('deploy', k, {}, again.execute)).toMatchObject({reason: 'interrupted', status: 'refused'})
    expect(again.runs).toBe(0)
    release({ran: true, result: textResult('late')})
    await stuck
  })

  it('keeps stores of different CLIs apart by prefix', async () => {
    const [one, other] = [await store('cli-one'), await store('cli-other')]
    const k = key()
    const run = command('done')
    await one.run('status', k, {}, run.execute)
    await other.run('status', k, {}, run.execute)
    expect(run.runs).toBe(2)
  })

  it('refuses to start with a Redis that is not there, saying where it looked', async () => {
    const nowhere = new RedisRecords('redis://127.0.0.1:1', 'test')
    await expect(nowhere.connect()).rejects.toThrow(/^Cannot use the state store redis:\/\/127\.0\.0\.1:1: .*ECONNREFUSED/)
  })
})

describe("the Redis store's quotas", () => {
  const streams = (bytes: number) => ({stderr: '', stdout: 'x'.repeat(bytes)})
  const job = (id: string, principal?: string) => ({
    command: 'build',
    commandLine: 'cli build',
    cwd: '/w',
    end: {cancelled: false, durationMs: 5, exitCode: 0, result: textResult('built')},
    id,
    owner: 'r',
    ...(principal === undefined ? {} : {principal}),
    startedAt: Date.now(),
    status: 'completed' as const,
    timeoutMs: 60_000,
  })

  it("keeps one person's outputs within their share, and nobody else's calls are refused for it", async () => {
    const a = await store('quota-person', {perPersonBytes: 10_000, totalBytes: 100_000})
    expect(await a.records.keepOutput('eve-1', 'cli logs', streams(6000), 'eve')).toBe(true)
    // Eve's share is full: her next output is not kept, and said so; bob's is.
    expect(await a.records.keepOutput('eve-2', 'cli logs', streams(6000), 'eve')).toBe(false)
    expect(await a.records.readOutput('eve-2')).toBeUndefined()
    expect(await a.records.keepOutput('bob-1', 'cli logs', streams(6000), 'bob')).toBe(true)
    // A job of eve's ends past her share: its record is kept, with a result that says the output was not.
    await a.records.finishJob(job('eve-job', 'eve'), streams(6000))
    expect((await a.records.readJob('eve-job'))?.record.end?.result.structuredContent).toMatchObject({message: expect.stringMatching(/not kept in the shared state store: this person's share of it \(10 KiB\) is full/), outputForgotten: true})
    expect(await a.records.readOutput('eve-job')).toBeUndefined()
    // An idempotent call of eve's still runs, once; its record keeps a note in place of the result, and a retry
    // gets that note, not a second run.
    const big = {ran: true, result: {content: [{text: 'y'.repeat(20_000), type: 'text' as const}], structuredContent: {exitCode: 0}}}
    let runs = 0
    const execute = async () => {
      runs++
      return big
    }

    expect(await a.run('deploy', 'k-eve', {}, execute, 'eve')).toMatchObject({result: big.result, status: 'executed'})
    const replay = await a.run('deploy', 'k-eve', {}, execute, 'eve')
    expect([runs, replay.status]).toEqual([1, 'replayed'])
    expect('result' in replay && replay.result.structuredContent).toMatchObject({message: expect.stringContaining('This call ran (deploy, exit code 0), but its result was not kept for retries'), outputForgotten: true})
    // Bob's idempotent calls run and replay whole.
    const bobRun = command('bob deployed')
    expect((await a.run('deploy', 'k-bob', {}, bobRun.execute, 'bob')).status).toBe('executed')
    expect(resultOf(await a.run('deploy', 'k-bob', {}, bobRun.execute, 'bob'))).toEqual(textResult('bob deployed'))
  })

  it('keeps everyone within the total, calls without a person too, and frees what expired', async () => {
    const a = await store('quota-total', {perPersonBytes: 10_000, totalBytes: 25_000})
    expect(await a.records.keepOutput('p1', 'cli logs', streams(9000), 'p1')).toBe(true)
    expect(await a.records.keepOutput('p2', 'cli logs', streams(9000), 'p2')).toBe(true)
    expect(await a.records.keepOutput('p3', 'cli logs', streams(9000), 'p3')).toBe(false)
    expect(await a.records.keepOutput('anyone-1', 'cli logs', streams(9000))).toBe(false)
    expect(await a.records.keepOutput('anyone-2', 'cli logs', streams(5000))).toBe(true)
    // Entries whose time has passed come off the sums: their scores are moved into the past here.
    const raw = createClient({url: redis.url})
    await raw.connect()
    try {
      for (const set of await raw.keys('quota-total:quota:*:set')) {
        for (const entry of await raw.zRange(set, 0, -1)) await raw.zAdd(set, {score: 1, value: entry})
      }
    } finally {
      await raw.close()
    }

    expect(await a.records.keepOutput('p3', 'cli logs', streams(9000), 'p3')).toBe(true)
    expect(await a.records.keepOutput('p1-again', 'cli logs', streams(9000), 'p1')).toBe(true)
  })
})
