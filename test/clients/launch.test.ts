import {afterAll, beforeAll, describe, expect, it} from '@jest/globals'
import {Config} from '@oclif/core'
import {chmodSync, mkdirSync, symlinkSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'

import {clientSetup} from '../../src/clients/client-setup.js'
import {claudeAddCommand, CLIENTS, type Place, shellQuote} from '../../src/clients/client-specs.js'
import {binOnPath, resolveLaunch, stdioArgs} from '../../src/clients/launch.js'
import {closeNames, parseToolArguments} from '../../src/mcp/in-process-call.js'
import {ROOT, scratch, TASKBOX_BIN} from '../helpers/taskbox.js'

describe('stdioArgs', () => {
  it.each([
    {args: ['mcp', 'stdio'], options: {}},
    {args: ['mcp', 'stdio', '--cwd', '/srv/app', '--profile', 'core', '--read-only'], options: {cwd: '/srv/app', profile: 'core', readOnly: true}},
    {args: ['mcp', 'stdio', '--tools', 'tasks', '--tools', 'report weekly', '--exclude', 'sync'], options: {exclude: ['sync'], tools: ['tasks', 'report weekly']}},
    {args: ['mcp', 'stdio', '--max-tools', '0', '--max-bytes', '4096'], options: {maxBytes: 4096, maxTools: 0}},
  ])('$options → $args', ({args, options}) => {
    expect(stdioArgs({topicSeparator: ' '}, options)).toEqual(args)
  })

  it('spells the command mcp:stdio in a CLI whose topic separator is ":"', () => {
    expect(stdioArgs({topicSeparator: ':'}, {readOnly: true})).toEqual(['mcp:stdio', '--read-only'])
  })
})

describe('shell words', () => {
  it.each([
    ['/usr/bin/node', 'linux', '/usr/bin/node'],
    ['/Users/me/My Apps/cli', 'darwin', `'/Users/me/My Apps/cli'`],
    ["it's", 'linux', String.raw`'it'\''s'`],
    [String.raw`C:\Program Files\cli.cmd`, 'win32', String.raw`"C:\Program Files\cli.cmd"`],
  ] as const)('%s on %s → %s', (word, platform, quoted) => {
    expect(shellQuote(word, platform)).toBe(quoted)
  })

  it('builds the claude mcp add line', () => {
    expect(claudeAddCommand('tb', {args: ['/a b/run.js', 'mcp', 'stdio'], command: '/usr/bin/node'}, 'linux')).toBe(
      `claude mcp add tb -- /usr/bin/node '/a b/run.js' mcp stdio`,
    )
  })
})

describe('client config paths', () => {
  const place = (platform: NodeJS.Platform, env: NodeJS.ProcessEnv = {}): Place => ({cwd: '/work/app', env, home: '/home/me', platform})
  it.each([
    ['claude-code', place('linux'), '/home/me/.claude.json'],
    ['claude-code', {...place('linux'), scope: 'project'}, '/work/app/.mcp.json'],
    ['claude-code', place('linux', {CLAUDE_CONFIG_DIR: '/etc/claude'}), '/etc/claude/.claude.json'],
    ['vscode', place('darwin'), '/work/app/.vscode/mcp.json'],
    ['cursor', place('linux'), '/home/me/.cursor/mcp.json'],
    ['codex', place('linux'), '/home/me/.codex/config.toml'],
    ['codex', place('linux', {CODEX_HOME: '/etc/codex'}), '/etc/codex/config.toml'],
    ['claude-desktop', place('darwin'), '/home/me/Library/Application Support/Claude/claude_desktop_config.json'],
    ['claude-desktop', place('linux'), '/home/me/.config/Claude/claude_desktop_config.json'],
    ['claude-desktop', place('linux', {XDG_CONFIG_HOME: '/x'}), '/x/Claude/claude_desktop_config.json'],
    ['claude-desktop', place('win32', {APPDATA: '/roaming'}), join('/roaming', 'Claude', 'claude_desktop_config.json')],
  ] as const)('%s → %s', (client, where, path) => {
    expect(CLIENTS[client].configPath(where)).toBe(path)
  })

  it('wraps each entry the way its client reads it', () => {
    const launch = {args: ['x'], command: '/bin/cli'}
    const here = place('linux')
    expect(JSON.parse(clientSetup('cursor', 'tb', launch, here).snippet)).toEqual({mcpServers: {tb: {args: ['x'], command: '/bin/cli'}}})
    expect(JSON.parse(clientSetup('claude-desktop', 'tb', launch, here).snippet)).toEqual({mcpServers: {tb: {args: ['x'], command: '/bin/cli'}}})
    expect(JSON.parse(clientSetup('claude-code', 'tb', launch, here).snippet)).toEqual({projects: {'/work/app': {mcpServers: {tb: {args: ['x'], command: '/bin/cli', type: 'stdio'}}}}})
    expect(JSON.parse(clientSetup('claude-code', 'tb', launch, {...here, scope: 'user'}).snippet)).toEqual({mcpServers: {tb: {args: ['x'], command: '/bin/cli', type: 'stdio'}}})
    expect(clientSetup('claude-code', 'tb', launch, {...here, scope: 'project'}).addCommand).toBe('claude mcp add --scope project tb -- /bin/cli x')
    expect(JSON.parse(clientSetup('vscode', 'tb', launch, here).snippet)).toEqual({servers: {tb: {args: ['x'], command: '/bin/cli', type: 'stdio'}}})
    expect(clientSetup('codex', 'tb', launch, here).snippet).toBe('[mcp_servers.tb]\ncommand = "/bin/cli"\nargs = ["x"]')
    expect(clientSetup('claude-code', 'tb', launch, here).addCommand).toBe('claude mcp add tb -- /bin/cli x')
  })
})

describe('resolveLaunch', () => {
  const space = scratch('launch-')
  let taskbox: Config
  beforeAll(async () => {
    taskbox = await Config.load(join(ROOT, 'examples/taskbox'))
  })
  afterAll(() => space.cleanup())

  it('launches a plain Node bin script with the Node running now', () => {
    expect(resolveLaunch(taskbox, {readOnly: true}, {PATH: ''})).toEqual({args: [TASKBOX_BIN, 'mcp', 'stdio', '--read-only'], command: process.execPath})
  })

  it("prefers the CLI's executable on PATH, but only one that resolves into the CLI's package", () => {
    const root = join(space.dir, 'pkg')
    const bin = join(root, 'bin', 'tb')
    mkdirSync(join(root, 'bin'), {recursive: true})
    writeFileSync(bin, '#!/bin/sh\nexec "$(dirname "$0")/node" "$(dirname "$0")/run.js" "$@"\n')
    chmodSync(bin, 0o755)
    const onPath = join(space.dir, 'path-bin')
    const stranger = join(space.dir, 'stranger')
    mkdirSync(onPath)
    mkdirSync(stranger)
    symlinkSync(bin, join(onPath, 'tb'))
    writeFileSync(join(stranger, 'tb'), '#!/bin/sh\n')
    chmodSync(join(stranger, 'tb'), 0o755)

    const config = {bin: 'tb', root}
    expect(binOnPath(config, {PATH: stranger})).toBeUndefined()
    expect(binOnPath(config, {PATH: [stranger, onPath].join(':')})).toBe(join(onPath, 'tb'))
    const launch = resolveLaunch({...taskbox, bin: 'tb', root, topicSeparator: ' '} as Config, {}, {PATH: onPath})
    // A shell wrapper (a standalone install that brings its own Node) is launched as it is.
    expect(launch).toEqual({args: ['mcp', 'stdio'], command: join(onPath, 'tb')})
  })
})

describe('resolveLaunch of a bin whose #! line gives Node options', () => {
  const space = scratch('launch-shebang-')
  let taskbox: Config
  beforeAll(async () => {
    taskbox = await Config.load(join(ROOT, 'examples/taskbox'))
  })
  afterAll(() => space.cleanup())

  it.each([
    ['#!/usr/bin/env -S node --no-deprecation', ['--no-deprecation']],
    ['#!/usr/bin/env node', []],
    ['#!/usr/local/bin/node --enable-source-maps --no-warnings', ['--enable-source-maps', '--no-warnings']],
  ])('%s: this Node, the options, then the script — no PATH needed', (shebang, options) => {
    const root = join(space.dir, `pkg-${options.length}-${shebang.length}`)
    mkdirSync(join(root, 'bin'), {recursive: true})
    const bin = join(root, 'bin', 'run')
    writeFileSync(bin, `${shebang}\nrequire('x')\n`)
    const config = {...taskbox, bin: 'tb', pjson: {...taskbox.pjson, bin: {tb: './bin/run'}}, root, topicSeparator: ':'} as unknown as Config
    expect(resolveLaunch(config, {}, {PATH: ''})).toEqual({args: [...options, bin, 'mcp:stdio'], command: process.execPath})
  })

  it('launches a script whose #! line runs something else as it is', () => {
    const root = join(space.dir, 'pkg-other')
    mkdirSync(join(root, 'bin'), {recursive: true})
    const bin = join(root, 'bin', 'run')
    writeFileSync(bin, '#!/usr/bin/env -S bun --smol\n')
    const config = {...taskbox, bin: 'tb', pjson: {...taskbox.pjson, bin: {tb: './bin/run'}}, root, topicSeparator: ':'} as unknown as Config
    expect(resolveLaunch(config, {}, {PATH: ''})).toEqual({args: ['mcp:stdio'], command: bin})
  })
})

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
    expect(() => parseToolArguments(text, '--args')).toThrow(expect.objectContaining({code: 'BAD_ARGUMENTS', message: expect.stringMatching(message)}))
  })

  it.each([
    ['stats', ['status']],
    ['tasks_ad', ['tasks_add']],
    ['zzz', []],
  ])('names close to %s', (wanted, first) => {
    expect(closeNames(wanted, ['status', 'tasks_add', 'tasks_list', 'cli_info', 'sync']).slice(0, first.length)).toEqual(first)
  })
})
