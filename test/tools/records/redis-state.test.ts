// The Redis store against a real redis-server: two stores (as two replicas would have) sharing one key run it once;
// replays, conflicts, a run that did not start, a claim whose replica died, and a Redis that is gone.
import {afterAll, beforeAll, describe, expect, it} from '@jest/globals'
import {createClient} from '@redis/client'

import type {Execution} from '../../../src/tools/records/idempotency-store.js'

import {RedisState} from '../../../src/tools/records/redis-state.js'
import {command, resultOf, textResult} from '../../helpers/idempotency-store.js'
import {type RedisServer, startRedis} from '../../helpers/redis.js'

let redis: RedisServer
const stores: RedisState[] = []
let n = 0

async function store(prefix = 'test'): Promise<RedisState> {
  const opened = new RedisState(redis.url, prefix)
  await opened.connect()
  stores.push(opened)
  return opened
}

const key = () => `key-${++n}`

beforeAll(async () => {
  redis = await startRedis()
}, 60_000)

afterAll(async () => {
  await Promise.all(stores.map((s) => s.close()))
  await redis?.stop()
})

describe('RedisState as the idempotency store', () => {
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
    const stuck = a.run('deploy', k, {}, () => new Promise<Execution>((resolve) => (release = resolve)))
    await new Promise((resolve) => setTimeout(resolve, 200))
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
    const nowhere = new RedisState('redis://127.0.0.1:1', 'test')
    await expect(nowhere.connect()).rejects.toThrow(/^Cannot use the state store redis:\/\/127\.0\.0\.1:1: .*ECONNREFUSED/)
  })
})
