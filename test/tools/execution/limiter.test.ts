import {describe, expect, it} from '@jest/globals'

import {CommandLimiter} from '../../../src/tools/execution/limiter.js'

describe('CommandLimiter', () => {
  it('runs up to maxRunning at once, queues up to maxQueued, refuses the rest', async () => {
    const limiter = new CommandLimiter(2, 1)
    const first = await limiter.acquire()!
    const second = await limiter.acquire()!
    const third = limiter.acquire()
    expect(third).toBeDefined()
    expect(limiter.queued).toBe(1)
    expect(limiter.acquire()).toBeUndefined()

    let started = false
    void third!.then(() => (started = true))
    await Promise.resolve()
    expect(started).toBe(false)
    first()
    const release = await third!
    expect(started).toBe(true)
    expect(limiter.queued).toBe(0)
    release()
    second()
  })

  it('ignores a second release of the same slot', async () => {
    const limiter = new CommandLimiter(1, 0)
    const release = await limiter.acquire()!
    release()
    release()
    const again = await limiter.acquire()!
    expect(limiter.acquire()).toBeUndefined()
    again()
  })

  it('drops a waiter whose call is cancelled, without taking a slot', async () => {
    const limiter = new CommandLimiter(1, 2)
    const held = await limiter.acquire()!
    const controller = new AbortController()
    const waiting = limiter.acquire(controller.signal)!
    controller.abort()
    await expect(waiting).rejects.toBeDefined()
    expect(limiter.queued).toBe(0)
    held()
    const next = await limiter.acquire()!
    next()
  })

  it('serves waiters in order', async () => {
    const limiter = new CommandLimiter(1, 3)
    const order: number[] = []
    const held = await limiter.acquire()!
    const waiters = [1, 2, 3].map((n) => limiter.acquire()!.then((release) => {
      order.push(n)
      release()
    }))
    held()
    await Promise.all(waiters)
    expect(order).toEqual([1, 2, 3])
  })
})
