import {describe, expect, it} from '@jest/globals'

import {ArgvError, buildArgv, commandLineProblem, concealedArgv, SECRET_PLACEHOLDER} from '../../../src/tools/execution/argv.js'
import type {Param} from '../../../src/tools/catalog/input-schema.js'

const option = (name: string, property = name): Param => ({allowNo: false, kind: 'flag', multiple: false, name, property, secret: false, type: 'option'})
const multiple = (name: string): Param => ({allowNo: false, kind: 'flag', multiple: true, name, property: name, secret: false, type: 'option'})
const bool = (name: string, allowNo = false): Param => ({allowNo, kind: 'flag', multiple: false, name, property: name, secret: false, type: 'boolean'})
const arg = (name: string, property = name): Param => ({kind: 'arg', name, property, secret: false})
const rest: Param = {kind: 'rest', property: 'extra_args'}

describe('buildArgv', () => {
  describe('option flags', () => {
    it.each([
      ['plain', 'Buy milk', ['--title=Buy milk']],
      ['starting with a dash', '-x', ['--title=-x']],
      ['looking like a flag', '--force', ['--title=--force']],
      ['containing =', 'a=b=c', ['--title=a=b=c']],
      ['with spaces and a newline', 'line one\nline two', ['--title=line one\nline two']],
      ['with quotes', `it's "quoted"`, [`--title=it's "quoted"`]],
      ['with shell metacharacters', '$(rm -rf ~); `id` | cat > /tmp/x & *', ['--title=$(rm -rf ~); `id` | cat > /tmp/x & *']],
      ['empty', '', ['--title=']],
      ['an integer', 10, ['--title=10']],
      ['a number', 0.5, ['--title=0.5']],
    ])('%s → one element', (_, value, argv) => {
      expect(buildArgv([option('title')], {title: value}, false)).toEqual(argv)
    })

    it('repeats a multiple flag once per value, in order', () => {
      expect(buildArgv([multiple('tag')], {tag: ['b', 'a', '-c', 'x=y']}, false)).toEqual(['--tag=b', '--tag=a', '--tag=-c', '--tag=x=y'])
    })

    it('uses the flag name, not the (renamed) property', () => {
      expect(buildArgv([option('cwd', 'cwd_flag')], {cwd: '/ignored', cwd_flag: 'dir'}, false)).toEqual(['--cwd=dir'])
    })

    it('leaves out flags that were not given', () => {
      expect(buildArgv([option('title'), option('owner'), multiple('tag')], {owner: 'me'}, false)).toEqual(['--owner=me'])
    })
  })

  describe('boolean flags', () => {
    it.each([
      ['true', false, true, ['--done']],
      ['true with allowNo', true, true, ['--done']],
      ['false with allowNo', true, false, ['--no-done']],
      ['false without allowNo', false, false, []],
      ['absent with allowNo', true, undefined, []],
      ['absent', false, undefined, []],
    ])('%s', (_, allowNo, value, argv) => {
      expect(buildArgv([bool('done', allowNo)], {done: value}, false)).toEqual(argv)
    })
  })

  describe('--json', () => {
    it.each([
      [false, {}, []],
      [true, {}, ['--json']],
      [true, {title: 'x'}, ['--title=x', '--json']],
      [true, {file: 'a.txt', title: 'x'}, ['--title=x', '--json', '--', 'a.txt']],
    ])('json=%p with %p', (json, input, argv) => {
      expect(buildArgv([option('title'), arg('file')], input, json)).toEqual(argv)
    })
  })

  describe('positionals', () => {
    const params = [bool('force'), arg('source'), arg('target'), option('mode')]

    it.each([
      ['none', {}, []],
      ['the first', {source: 'a'}, ['--', 'a']],
      ['both, in declared order', {mode: 'fast', source: 'a', target: 'b'}, ['--mode=fast', '--', 'a', 'b']],
      ['after every flag, whatever the input order', {force: true, target: 'b', source: 'a'}, ['--force', '--', 'a', 'b']],
      ['values that look like flags stay positional', {source: '-rf', target: '--help'}, ['--', '-rf', '--help']],
      ['a value of just --', {source: '--'}, ['--', '--']],
      ['shell metacharacters unchanged', {source: '*.txt; ls', target: 'a b\nc'}, ['--', '*.txt; ls', 'a b\nc']],
      ['an empty string', {source: ''}, ['--', '']],
    ])('%s', (_, input, argv) => {
      expect(buildArgv(params, input, false)).toEqual(argv)
    })

    it('rejects a later arg given while an earlier one is missing', () => {
      expect(() => buildArgv(params, {target: 'b'}, false)).toThrow(ArgvError)
      expect(() => buildArgv(params, {target: 'b'}, false)).toThrow('"target" was given but "source", which comes before it, was not.')
    })

    it('names the properties, which may be renamed', () => {
      expect(() => buildArgv([arg('cwd', 'cwd_arg'), arg('file')], {file: 'x'}, false)).toThrow('"file" was given but "cwd_arg"')
    })

    it('carries a string code', () => {
      let error: unknown
      try {
        buildArgv(params, {target: 'b'}, false)
      } catch (error_) {
        error = error_
      }

      expect(error).toBeInstanceOf(ArgvError)
      expect((error as ArgvError).code).toBe('INVALID_ARGUMENTS')
    })
  })

  describe('extra_args', () => {
    const params = [option('mode'), arg('file'), rest]

    it.each([
      ['after the args', params, {extra_args: ['b', '-c'], file: 'a'}, ['--', 'a', 'b', '-c']],
      ['alone when there are no args declared', [rest], {extra_args: ['x', 'y']}, ['--', 'x', 'y']],
      ['empty', params, {extra_args: [], file: 'a'}, ['--', 'a']],
      ['empty with the arg missing', params, {extra_args: []}, []],
      ['with flags', params, {extra_args: ['--flag-like'], file: 'a', mode: 'm'}, ['--mode=m', '--', 'a', '--flag-like']],
    ])('%s', (_, list, input, argv) => {
      expect(buildArgv(list, input, false)).toEqual(argv)
    })

    it('rejects extra args while a declared arg is missing', () => {
      expect(() => buildArgv(params, {extra_args: ['b']}, false)).toThrow('"extra_args" was given but "file"')
    })
  })

  it('does not change the input', () => {
    const input = Object.freeze({extra_args: Object.freeze(['x']), file: 'a', mode: 'm'})
    expect(buildArgv([option('mode'), arg('file'), rest], input, true)).toEqual(['--mode=m', '--json', '--', 'a', 'x'])
    expect(input).toEqual({extra_args: ['x'], file: 'a', mode: 'm'})
  })
})

describe('values oclif would take for a flag', () => {
  const tokens = {long: new Set(['upper', 'force', 'no-force', 'loud']), short: new Set(['u', 'f'])}

  it.each(['--upper', '--no-force', '--loud', '-u', '-urgent', '-f'])('%p is refused before anything runs, saying why', (value) => {
    expect(() => buildArgv([option('message')], {message: value}, false, tokens)).toThrow(ArgvError)
    expect(() => buildArgv([option('message')], {message: value}, false, tokens)).toThrow('expects a value')
  })

  it.each(['--uppercase', '-x', '-', '--', ' --upper', 'upper', '---upper'])('%p passes', (value) => {
    expect(buildArgv([option('message')], {message: value}, false, tokens)).toEqual([`--message=${value}`])
  })

  it('checks every value of a multiple flag; positionals come after -- and are never read as flags', () => {
    expect(() => buildArgv([multiple('tag')], {tag: ['a', '--force']}, false, tokens)).toThrow(ArgvError)
    expect(buildArgv([arg('first')], {first: '--force'}, false, tokens)).toEqual(['--', '--force'])
  })
})

describe('concealedArgv', () => {
  const secret = (param: Param, env?: string): Param => ({...param, secret: true, ...(env ? {env} : {})}) as Param
  const params = [option('title'), secret(option('password')), secret(option('api-key'), 'API_KEY'), secret(multiple('pin'), 'PINS'), secret(arg('token'))]
  const input = {'api-key': 'k-123', password: 'p-456', pin: ['1111', '2222'], title: 'plain', token: 't-789'}

  it('moves a lone secret flag with a variable into it, and puts a placeholder where any other secret stands', () => {
    expect(concealedArgv(params, input, true)).toEqual({
      argv: ['--title=plain', `--password=${SECRET_PLACEHOLDER}`, `--pin=${SECRET_PLACEHOLDER}`, `--pin=${SECRET_PLACEHOLDER}`, '--json', '--', SECRET_PLACEHOLDER],
      env: {API_KEY: 'k-123'},
      plain: buildArgv(params, input, true),
      secrets: [
        [1, '--password=p-456'],
        [2, '--pin=1111'],
        [3, '--pin=2222'],
        [6, 't-789'],
      ],
    })
  })

  it('gives back exactly buildArgv once each placeholder is filled in, the variable aside', () => {
    const {argv, secrets} = concealedArgv(params, input, false)
    for (const [index, entry] of secrets) argv[index] = entry
    expect(argv).toEqual(buildArgv(params, input, false).filter((entry) => !entry.startsWith('--api-key=')))
  })

  it('leaves a command line without secrets, and an empty secret value, as it is', () => {
    expect(concealedArgv([option('title'), secret(option('password'))], {password: '', title: 'x'}, false)).toEqual({argv: ['--title=x', '--password='], env: {}, plain: ['--title=x', '--password='], secrets: []})
  })

  it('puts a second flag of the same variable on the pipe (one variable holds one value)', () => {
    const both = [secret(option('a'), 'SAME'), secret(option('b'), 'SAME')]
    expect(concealedArgv(both, {a: 'first-value', b: 'second-value'}, false)).toEqual({argv: [`--b=${SECRET_PLACEHOLDER}`], env: {SAME: 'first-value'}, plain: ['--a=first-value', '--b=second-value'], secrets: [[0, '--b=second-value']]})
  })
})

describe('commandLineProblem', () => {
  it('passes an ordinary command line', () => {
    expect(commandLineProblem(['node', 'bin', 'tasks:add', '--title=x'], {HOME: '/root'})).toBeUndefined()
  })

  it('refuses one argument over Linux\'s 128 KiB limit, naming the flag', () => {
    if (process.platform !== 'linux') return
    expect(commandLineProblem([`--title=${'x'.repeat(131_072)}`], {})).toMatch(/^--title is 131,080 bytes long/)
  })

  it('refuses a command line and environment that together pass 1 MiB', () => {
    const args = Array.from({length: 20}, () => 'y'.repeat(60_000))
    expect(commandLineProblem(args, {})).toMatch(/would take 1,200,180 bytes/)
  })
})
