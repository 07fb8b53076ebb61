import {describe, expect, it} from '@jest/globals'

import {closeMatches} from '../../../src/tools/exposure/suggest.js'

describe('closeMatches', () => {
  it.each([
    ['stats', ['status']],
    ['tasks_ad', ['tasks_add']],
    ['zzz', []],
  ])('names close to %s', (wanted, first) => {
    expect(closeMatches(wanted, ['status', 'tasks_add', 'tasks_list', 'cli_info', 'sync']).slice(0, first.length)).toEqual(first)
  })
})
