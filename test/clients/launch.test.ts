import {afterAll, beforeAll, describe, expect, it} from '@jest/globals'
import {Config} from '@oclif/core'
import {chmodSync, mkdirSync, symlinkSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'

import {binOnPath, resolveLaunch, stdioArgs} from '../../src/clients/launch.js'
import {launchArguments} from '../../src/settings/server-options.js'
import {ROOT, scratch, TASKBOX_BIN} from '../helpers/taskbox.js'

describe('stdioArgs', () => {
  it('is mcp stdio and the flags given', () => {
    expect(stdioArgs({topicSeparator: ' '})).toEqual(['mcp', 'stdio'])
    expect(stdioArgs({topicSeparator: ' '}, ['--read-only', '--client', 'codex'])).toEqual(['mcp', 'stdio', '--read-only', '--client', 'codex'])
  })

  it('spells the command mcp:stdio in a CLI whose topic separator is ":"', () => {
    expect(stdioArgs({topicSeparator: ':'}, ['--read-only'])).toEqual(['mcp:stdio', '--read-only'])
  })
})

describe('launchArguments', () => {
  const definitions = {
    'allow-cwd': {multiple: true, type: 'option'},
    audit: {allowNo: true, type: 'boolean'},
    cwd: {type: 'option'},
    foreground: {type: 'option'},
    'read-only': {type: 'boolean'},
    tools: {multiple: true, type: 'option'},
  }
  it.each([
    [{}, []],
    [{cwd: '/srv/app', 'read-only': true}, ['--cwd', '/srv/app', '--read-only']],
    [{'read-only': false}, []],
    [{audit: false}, ['--no-audit']],
    [{audit: true}, ['--audit']],
    [{foreground: 5}, ['--foreground', '5']],
    [{'allow-cwd': ['/a', '/b'], tools: ['tasks', 'report weekly']}, ['--allow-cwd', '/a', '--allow-cwd', '/b', '--tools', 'tasks', '--tools', 'report weekly']],
    [{json: true, unknown: 'x'}, []],
  ])('%p → %p', (given, args) => {
    expect(launchArguments(given, definitions)).toEqual(args)
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
    expect(resolveLaunch(taskbox, ['--read-only'], {PATH: ''})).toEqual({args: [TASKBOX_BIN, 'mcp', 'stdio', '--read-only'], command: process.execPath})
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
    const launch = resolveLaunch({...taskbox, bin: 'tb', root, topicSeparator: ' '} as Config, [], {PATH: onPath})
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
    expect(resolveLaunch(config, [], {PATH: ''})).toEqual({args: [...options, bin, 'mcp:stdio'], command: process.execPath})
  })

  it('launches a script whose #! line runs something else as it is', () => {
    const root = join(space.dir, 'pkg-other')
    mkdirSync(join(root, 'bin'), {recursive: true})
    const bin = join(root, 'bin', 'run')
    writeFileSync(bin, '#!/usr/bin/env -S bun --smol\n')
    const config = {...taskbox, bin: 'tb', pjson: {...taskbox.pjson, bin: {tb: './bin/run'}}, root, topicSeparator: ':'} as unknown as Config
    expect(resolveLaunch(config, [], {PATH: ''})).toEqual({args: ['mcp:stdio'], command: bin})
  })
})

