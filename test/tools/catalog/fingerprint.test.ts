import {describe, expect, it} from '@jest/globals'

import {canonicalJson} from '../../../src/tools/catalog/fingerprint.js'

describe('canonicalJson', () => {
  it.each([
    [{b: 1, a: 2}, '{"a":2,"b":1}'],
    [{z: {y: [{d: 1, c: 2}], x: null}}, '{"z":{"x":null,"y":[{"c":2,"d":1}]}}'],
    [{a: undefined, b: 1}, '{"b":1}'],
    [[3, 1, 2], '[3,1,2]'],
    ['text', '"text"'],
    [undefined, 'null'],
  ])('%j → %s', (value, expected) => {
    expect(canonicalJson(value)).toBe(expected)
  })
})
