import {describe, expect, it} from '@jest/globals'

import {finishedOutput, type KeptOutput, newOutputId, OutputStore} from '../../../src/tools/records/output-store.js'

const output = (id: string, chars: number) => finishedOutput(id, `cli ${id}`, {stderr: '', stdout: 'x'.repeat(chars)})

describe('OutputStore', () => {
  it('keeps outputs until the total would pass its limit, then drops the oldest first', () => {
    const store = new OutputStore(100)
    for (const id of ['a', 'b', 'c']) store.keep(output(id, 40))
    expect(store.get('a')).toBeUndefined()
    expect(store.get('b')?.text('stdout')).toHaveLength(40)
    expect(store.get('c')).toBeDefined()
  })

  it('never drops an output that is still growing (a running job)', () => {
    const store = new OutputStore(100)
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
    const store = new OutputStore(100)
    store.keep(output('huge', 101))
    expect(store.get('huge')).toBeUndefined()
  })

  it('makes ids nobody can guess, safe in URIs', () => {
    const ids = new Set(Array.from({length: 1000}, () => newOutputId()))
    expect(ids.size).toBe(1000)
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9_-]{12}$/)
  })
})
