import type {Config} from '@oclif/core'

import {describe, expect, it} from '@jest/globals'

import {displayId, spelled} from '../../src/host/spelling.js'

const spaced = {topicSeparator: ' '} as Config
const colon = {topicSeparator: ':'} as Config

describe('displayId', () => {
  it.each([
    ['tasks:add', spaced, 'tasks add'],
    ['tasks:add', colon, 'tasks:add'],
    ['org:list:metadata', spaced, 'org list metadata'],
    ['version', spaced, 'version'],
  ])('%s with separator %p', (id, config, shown) => {
    expect(displayId(id, config)).toBe(shown)
  })
})

describe('spelled', () => {
  it.each([
    [' ', ['stdio'], 'mycli mcp stdio'],
    [':', ['stdio'], 'mycli mcp:stdio'],
    [':', ['call', 'run_command', '--args', '{}'], 'mycli mcp:call run_command --args {}'],
  ] as const)('separator %p: %p', (topicSeparator, [command, ...rest], expected) => {
    expect(spelled({bin: 'mycli', topicSeparator}, command, ...rest)).toBe(expected)
  })
})
