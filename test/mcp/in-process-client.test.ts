import {describe, expect, it} from '@jest/globals'

import {parseToolArguments} from '../../src/mcp/in-process-client.js'

describe('mcp call arguments', () => {
  it.each([
    ['', {}],
    ['  \n', {}],
    ['{"cwd": "/tmp", "n": 1}', {cwd: '/tmp', n: 1}],
  ])('%j → %j', (text, args) => {
    expect(parseToolArguments(text, '--args')).toEqual(args)
  })

  it.each([
    ['{bad', /not valid JSON/],
    ['[1, 2]', /must be a JSON object, not an array/],
    ['"text"', /not a string/],
    ['null', /not null/],
    ['42', /not a number/],
  ])('refuses %j', (text, message) => {
    expect(() => parseToolArguments(text, '--args')).toThrow(expect.objectContaining({code: 'INVALID_ARGUMENTS', message: expect.stringMatching(message)}))
  })
})
