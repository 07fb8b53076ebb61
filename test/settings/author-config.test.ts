import {describe, expect, it} from '@jest/globals'

import {ConfigError, parseAuthorConfig, parseCommandSettings} from '../../src/settings/author-config.js'

function errorOf(fn: () => unknown): ConfigError {
  try {
    fn()
  } catch (error) {
    if (error instanceof ConfigError) return error
    throw error
  }

  throw new Error('expected a ConfigError')
}

describe('parseAuthorConfig', () => {
  const full = {
    commands: {
      'tasks:*': {annotations: {readOnlyHint: true, title: 'Tasks'}},
      'tasks:add': {env: {TASKBOX_MODE: 'agent'}, exclude: false, timeout: 5},
      'tasks:purge': {exclude: true},
    },
    docs: ['docs/**/*.md', 'README.md'],
    env: {NO_UPDATE_NOTIFIER: '1', _PRIVATE: 'x'},
    instructions: 'Use tasks_list before tasks_add.',
    maxOutputBytes: 65_536,
    omitFlags: ['api-version'],
    timeout: 120,
    title: 'Taskbox',
  }

  it('accepts a full valid config unchanged', () => {
    expect(parseAuthorConfig(full)).toEqual(full)
  })

  it.each([[undefined], [null], [{}]])('treats %p as no settings', (raw) => {
    expect(parseAuthorConfig(raw)).toEqual({})
  })

  it.each([
    ['an unknown top-level key', {timeot: 5}, 'package.json oclif.mcp: Unrecognized key: "timeot"'],
    ['an unknown command key', {commands: {'tasks:add': {excluded: true}}}, 'package.json oclif.mcp.commands.tasks:add: Unrecognized key: "excluded"'],
    ['an unknown annotation', {commands: {x: {annotations: {readonly: true}}}}, 'package.json oclif.mcp.commands.x.annotations: Unrecognized key: "readonly"'],
    ['a string timeout', {timeout: '60'}, 'package.json oclif.mcp.timeout: '],
    ['a zero timeout', {timeout: 0}, 'package.json oclif.mcp.timeout: '],
    ['a timeout over a day', {timeout: 86_401}, 'package.json oclif.mcp.timeout: '],
    ['a fractional maxOutputBytes', {maxOutputBytes: 2048.5}, 'package.json oclif.mcp.maxOutputBytes: '],
    ['a tiny maxOutputBytes', {maxOutputBytes: 10}, 'package.json oclif.mcp.maxOutputBytes: '],
    ['omitFlags as a string', {omitFlags: 'api-version'}, 'package.json oclif.mcp.omitFlags: '],
    ['an empty omitFlags entry', {omitFlags: ['ok', '']}, 'package.json oclif.mcp.omitFlags.1: '],
    ['a non-string doc glob', {docs: [3]}, 'package.json oclif.mcp.docs.0: '],
    ['a non-string env value', {env: {PORT: 8080}}, 'package.json oclif.mcp.env.PORT: '],
    ['a bad env name', {env: {'BAD-NAME': 'x'}}, 'package.json oclif.mcp.env.BAD-NAME: '],
    ['a command timeout of the wrong type', {commands: {'tasks:add': {timeout: 'soon'}}}, 'package.json oclif.mcp.commands.tasks:add.timeout: '],
    ['a non-boolean hint', {commands: {x: {annotations: {readOnlyHint: 'yes'}}}}, 'package.json oclif.mcp.commands.x.annotations.readOnlyHint: '],
    ['an empty command pattern', {commands: {'': {}}}, 'package.json oclif.mcp.commands'],
    ['not an object', 'yes', 'package.json oclif.mcp: '],
  ])('rejects %s, naming the key path', (_, raw, where) => {
    const error = errorOf(() => parseAuthorConfig(raw))
    expect(error.code).toBe('INVALID_MCP_CONFIG')
    expect(error.message).toContain(`Invalid MCP settings in ${where}`)
  })

  it('lists every problem on its own line', () => {
    const {message} = errorOf(() => parseAuthorConfig({omitFlags: [1], timeout: 'x', title: 3}))
    const lines = message.split('\n')
    expect(lines[0]).toBe('Invalid MCP settings in ')
    expect(lines.slice(1).map((line) => line.split(':')[0])).toEqual([
      '  package.json oclif.mcp.omitFlags.0',
      '  package.json oclif.mcp.timeout',
      '  package.json oclif.mcp.title',
    ])
  })

  it('uses the location it is given', () => {
    expect(errorOf(() => parseAuthorConfig({timeout: -1}, 'mcp.json')).message).toMatch(/^Invalid MCP settings in mcp\.json\.timeout: /)
  })
})

describe('parseCommandSettings', () => {
  it.each([
    [undefined, {}],
    [{}, {}],
    [{annotations: {destructiveHint: false}, env: {A: 'b'}, exclude: true, timeout: 0.5}, {annotations: {destructiveHint: false}, env: {A: 'b'}, exclude: true, timeout: 0.5}],
  ])('accepts %p', (raw, settings) => {
    expect(parseCommandSettings(raw, 'tasks:add')).toEqual(settings)
  })

  it.each([
    [{timeout: -5}, 'Invalid MCP settings in the static mcp property of "tasks:add".timeout: '],
    [{bogus: 1}, 'Invalid MCP settings in the static mcp property of "tasks:add": Unrecognized key: "bogus"'],
    [{commands: {}}, 'Invalid MCP settings in the static mcp property of "tasks:add": Unrecognized key: "commands"'],
    [{exclude: 'true'}, 'Invalid MCP settings in the static mcp property of "tasks:add".exclude: '],
  ])('rejects %p, naming the command', (raw, start) => {
    const error = errorOf(() => parseCommandSettings(raw, 'tasks:add'))
    expect(error).toBeInstanceOf(ConfigError)
    expect(error.message.startsWith(start)).toBe(true)
  })
})
