import {describe, expect, it} from '@jest/globals'

import {
  type AuthorConfig,
  ConfigError,
  DEFAULT_MAX_OUTPUT_BYTES,
  DEFAULT_MAX_QUEUE,
  DEFAULT_TIMEOUT_SECONDS,
  idPattern,
  parseAuthorConfig,
  parseCommandSettings,
  resolveSettings,
} from '../../src/settings/settings.js'
import {availableParallelism} from 'node:os'

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

describe('resolveSettings', () => {
  const author: AuthorConfig = {maxOutputBytes: 4096, timeout: 10}

  it.each<[string, AuthorConfig, {cwd?: string; 'max-output'?: number; timeout?: number}, number, number]>([
    ['defaults', {}, {}, DEFAULT_TIMEOUT_SECONDS * 1000, DEFAULT_MAX_OUTPUT_BYTES],
    ['author over defaults', author, {}, 10_000, 4096],
    ['flags over author', author, {'max-output': 2048, timeout: 3}, 3000, 2048],
    ['flags over defaults', {}, {'max-output': 2048, timeout: 0.5}, 500, 2048],
    ['one flag, one author value', author, {timeout: 2}, 2000, 4096],
  ])('%s', (_, config, flags, timeoutMs, maxOutputBytes) => {
    const settings = resolveSettings(config, flags)
    expect(settings).toEqual({
      audit: true,
      author: config,
      confirmDestructive: false,
      defaultCwd: flags.cwd,
      maxConcurrency: availableParallelism(),
      maxOutputBytes,
      maxQueue: DEFAULT_MAX_QUEUE,
      projection: {exclude: [], maxBytes: 32 * 1024, maxTools: 40, profile: undefined, readOnly: false, tools: undefined},
      timeoutMs,
      trustHostApproval: false,
      workers: 1,
    })
  })

  it('trusts the host approval only when the user or the author says so', () => {
    expect(resolveSettings({}, {}).trustHostApproval).toBe(false)
    expect(resolveSettings({trustHostApproval: true}, {}).trustHostApproval).toBe(true)
    expect(resolveSettings({trustHostApproval: true}, {'trust-host-approval': false}).trustHostApproval).toBe(false)
  })

  it('takes concurrency and queue limits from the flags', () => {
    expect(resolveSettings({}, {'max-concurrency': 3, 'max-queue': 0})).toMatchObject({maxConcurrency: 3, maxQueue: 0})
  })

  it('passes the cwd flag through', () => {
    expect(resolveSettings({}, {cwd: '/srv/project'}).defaultCwd).toBe('/srv/project')
  })

  it('has the documented defaults', () => {
    expect(DEFAULT_TIMEOUT_SECONDS).toBe(60)
    expect(DEFAULT_MAX_OUTPUT_BYTES).toBe(1024 * 1024)
  })
})

describe('idPattern', () => {
  it.each<[string, string[], string[]]>([
    ['tasks:add', ['tasks:add'], ['tasks', 'tasks:add:x', 'tasks:adder', 'xtasks:add']],
    ['tasks:*', ['tasks:add', 'tasks:list'], ['tasks', 'tasks:add:x', 'other:add']],
    ['tasks:**', ['tasks:add', 'tasks:add:x', 'tasks:a:b:c'], ['tasks', 'other:add', 'taskss:add']],
    ['*', ['tasks', 'version'], ['tasks:add']],
    ['**', ['tasks', 'tasks:add:x'], []],
    ['*:list', ['tasks:list', 'apps:list'], ['list', 'a:b:list', 'tasks:listing']],
    ['**:list', ['tasks:list', 'a:b:list'], ['list', 'a:b:lister']],
    ['tasks:*:show', ['tasks:one:show'], ['tasks:show', 'tasks:a:b:show']],
    ['t*s:add', ['tasks:add', 'ts:add'], ['t:x:s:add']],
    // spaces count as `:`
    ['tasks add', ['tasks:add'], ['tasks add', 'tasksadd']],
    ['tasks *', ['tasks:add'], ['tasks:add:x']],
    ['  tasks:add  ', ['tasks:add'], []],
    // regex metacharacters are literal
    ['a.b', ['a.b'], ['axb']],
    ['a+b', ['a+b'], ['aab', 'ab']],
    ['x(y)', ['x(y)'], ['xy']],
    ['[ab]', ['[ab]'], ['a']],
    ['a|b', ['a|b'], ['a', 'b']],
    ['^$?{1}\\', ['^$?{1}\\'], ['', '{1}']],
  ])('%p', (glob, matches, misses) => {
    const pattern = idPattern(glob)
    for (const id of matches) expect([id, pattern.test(id)]).toEqual([id, true])
    for (const id of misses) expect([id, pattern.test(id)]).toEqual([id, false])
  })
})
