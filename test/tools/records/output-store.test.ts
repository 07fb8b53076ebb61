import {describe, expect, it} from '@jest/globals'

import {finishedOutput, type KeptOutput, newOutputId, OutputStore} from '../../../src/tools/records/output-store.js'

const output = (id: string, chars: number, principal?: string) => finishedOutput(id, `cli ${id}`, {stderr: '', stdout: 'x'.repeat(chars)}, {principal})

describe('OutputStore', () => {
  it('keeps outputs until the total would pass its limit, then drops the oldest first', () => {
    const store = new OutputStore({maxChars: 100})
    for (const id of ['a', 'b', 'c']) store.keep(output(id, 40))
    expect(store.get('a')).toBeUndefined()
    expect(store.get('b')?.text('stdout')).toHaveLength(40)
    expect(store.get('c')).toBeDefined()
  })

  it('never drops an output that is still growing (a running job)', () => {
    const store = new OutputStore({maxChars: 100})
    let size = 0
    const live: KeptOutput = {commandLine: 'cli job', id: 'job', live: true, get size() {
      return size
    }, text: () => 'x'.repeat(size)}
    store.keep(live)
    size = 90
    store.keep(output('b', 40))
    expect(store.get('job')).toBe(live)
    expect(store.get('b')).toBeUndefined()
    // Once finished, the job's fixed output replaces the live one under the same id.
    store.keep(output('job', 90))
    expect(store.get('job')?.live).toBe(false)
  })

  it('does not keep an output larger than the whole limit', () => {
    const store = new OutputStore({maxChars: 100})
    store.keep(output('huge', 101))
    expect(store.get('huge')).toBeUndefined()
  })

  it("past a person's share, drops that person's own oldest outputs, never another's", () => {
    const store = new OutputStore({maxChars: 1000, perPersonChars: 300})
    const dropped: string[] = []
    store.onDrop((gone) => dropped.push(gone.id))
    store.keep(output('bob-1', 100, 'bob'))
    for (let i = 1; i <= 10; i++) store.keep(output(`eve-${i}`, 100, 'eve'))
    expect(store.get('bob-1')).toBeDefined()
    expect(store.size('eve')).toBe(300)
    expect(dropped).toEqual(['eve-1', 'eve-2', 'eve-3', 'eve-4', 'eve-5', 'eve-6', 'eve-7'])
    // Larger than a person's share: not kept at all, and nothing of anyone else's goes for it.
    store.keep(output('eve-huge', 301, 'eve'))
    expect([store.get('eve-huge'), store.size('bob'), store.size('eve')]).toEqual([undefined, 100, 300])
  })

  it('past the total, drops the oldest output of whoever holds the most', () => {
    const store = new OutputStore({maxChars: 1000, perPersonChars: 600})
    store.keep(output('bob-1', 200, 'bob'))
    store.keep(output('ann-1', 100, 'ann'))
    for (let i = 1; i <= 6; i++) store.keep(output(`eve-${i}`, 100, 'eve'))
    // 900 held; 200 more: the total would be 1,100, and eve (600) holds the most.
    store.keep(output('ann-2', 200, 'ann'))
    expect(store.get('eve-1')).toBeUndefined()
    expect([store.size('bob'), store.size('ann'), store.size('eve'), store.size(null)]).toEqual([200, 300, 500, 1000])
    // Calls without a person (no OAuth) are one holder among the others, bounded by the total only.
    for (let i = 1; i <= 20; i++) store.keep(output(`anon-${i}`, 100))
    expect(store.size(null)).toBeLessThanOrEqual(1000)
    // Four holders within 1,000: bob's 200 is never the most, so none of it goes.
    expect(store.size('bob')).toBe(200)
  })

  it('makes ids nobody can guess, safe in URIs', () => {
    const ids = new Set(Array.from({length: 1000}, () => newOutputId()))
    expect(ids.size).toBe(1000)
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9_-]{12}$/)
  })
})
