import {describe, expect, it} from '@jest/globals'

import {textOf} from '../../helpers/taskbox.js'
import {parseJsonOutput, type RunContext, stripAnsi, toToolResult, withoutHostWarnings} from '../../../src/tools/execution/tool-result.js'
import type {RunOutcome} from '../../../src/tools/execution/child-process.js'

const ESC = '\u001B'

function outcome(fields: Partial<RunOutcome> = {}): RunOutcome {
  return {cancelled: false, durationMs: 42, exitCode: 0, signal: undefined, stderr: '', stderrDropped: 0, stdout: '', stdoutDropped: 0, timedOut: false, ...fields}
}

function context(json: boolean): RunContext {
  return {argv: ['--title=x', ...(json ? ['--json'] : [])], commandLine: 'acme tasks add --title=x', cwd: '/tmp/work', id: 'tasks:add', json}
}

function run(fields: Partial<RunOutcome>, json = false) {
  const result = toToolResult(outcome(fields), context(json), 30_000)
  return {...result, structured: result.structuredContent as Record<string, unknown>, text: textOf(result)}
}

describe('stripAnsi', () => {
  it.each([
    ['colours', `${ESC}[31mred${ESC}[0m and ${ESC}[1;32mbold green${ESC}[22m`, 'red and bold green'],
    ['cursor moves', `a${ESC}[2K${ESC}[1Gb`, 'ab'],
    ['OSC 8 hyperlinks (BEL)', `${ESC}]8;;https://x.dev\u0007link${ESC}]8;;\u0007`, 'link'],
    ['OSC with ST', `${ESC}]0;title${ESC}\\text`, 'text'],
    ['lone escapes', `${ESC}Mup${ESC}D${ESC}_`, 'up'],
    ['plain text', 'nothing [31m here', 'nothing [31m here'],
  ])('%s', (_, input, output) => {
    expect(stripAnsi(input)).toBe(output)
  })
})

describe('parseJsonOutput', () => {
  it.each([
    ['an object', '{"a":1}', {a: 1}],
    ['an array with whitespace', '\n  [1, 2]\n', [1, 2]],
    ['a scalar', '42', 42],
    ['noise before an object', 'Warning: update available\n› run npm i\n{\n  "a": 1\n}', {a: 1}],
    ['noise before an array', 'hook says hi\n[{"id":1}]', [{id: 1}]],
  ])('parses %s', (_, stdout, value) => {
    expect(parseJsonOutput(stdout)).toEqual({ok: true, value})
  })

  it.each([
    ['empty', ''],
    ['blank', '  \n '],
    ['plain text', 'Added task 3'],
    ['broken JSON', '{"a":'],
    ['noise before broken JSON', 'warning\n{"a":'],
    ['a brace in the middle of a line', 'value is {"a":1}'],
  ])('refuses %s', (_, stdout) => {
    expect(parseJsonOutput(stdout)).toEqual({ok: false})
  })
})

describe('toToolResult', () => {
  describe('success', () => {
    it('puts JSON output in structuredContent.data and fenced in the text', () => {
      const {isError, structured, text} = run({stdout: '{"id":3,"title":"x"}'}, true)
      expect(isError).toBeUndefined()
      expect(structured).toEqual({argv: ['--title=x', '--json'], command: 'tasks:add', cwd: '/tmp/work', data: {id: 3, title: 'x'}, durationMs: 42, exitCode: 0})
      expect(text).toBe(['$ acme tasks add --title=x', '(exit 0, 42 ms, in /tmp/work)', '', '```json', '{\n  "id": 3,\n  "title": "x"\n}', '```'].join('\n'))
    })

    it('passes text output through, without colour', () => {
      const {structured, text} = run({stdout: `${ESC}[32mAdded task 3${ESC}[39m\n`})
      expect(structured.stdout).toBe('Added task 3\n')
      expect(structured).not.toHaveProperty('data')
      expect(text).toBe('$ acme tasks add --title=x\n(exit 0, 42 ms, in /tmp/work)\n\nAdded task 3')
    })

    it('keeps output that is not JSON even when JSON was asked for', () => {
      const {structured, text} = run({stdout: 'not json'}, true)
      expect(structured.stdout).toBe('not json')
      expect(structured).not.toHaveProperty('data')
      expect(text.endsWith('\n\nnot json')).toBe(true)
    })

    it('does not parse JSON when it was not asked for', () => {
      expect(run({stdout: '{"a":1}'}).structured).toMatchObject({stdout: '{"a":1}'})
    })

    it('shows what a successful command printed on stderr, even when it printed nothing else', () => {
      expect(run({stderr: 'Autocorrect is on.\n', stdout: ''}).text.endsWith('\n\n(nothing on stdout)\n\nOn stderr:\nAutocorrect is on.')).toBe(true)
      expect(run({stderr: 'warning: old\n', stdout: 'done\n'}).text.endsWith('\n\ndone\n\nOn stderr:\nwarning: old')).toBe(true)
    })

    it.each([[''], ['  \n']])('says so when there is no output (%p)', (stdout) => {
      expect(run({stdout}).text.endsWith('\n\n(no output)')).toBe(true)
    })

    it('keeps stderr whole in structuredContent', () => {
      const stderr = `Warning: ${'w'.repeat(5000)}`
      expect(run({stderr, stdout: 'ok'}).structured.stderr).toBe(stderr)
    })
  })

  describe('failure', () => {
    it.each<[string, Partial<RunOutcome>, string, Record<string, unknown>]>([
      ['non-zero exit', {exitCode: 2}, 'The command failed with exit code 2.', {exitCode: 2}],
      ['timeout', {exitCode: undefined, signal: 'SIGTERM', timedOut: true}, 'Timed out after 30 s; the command and everything it started were killed.', {exitCode: null, signal: 'SIGTERM', timedOut: true}],
      ['cancellation', {cancelled: true, exitCode: undefined, signal: 'SIGTERM'}, 'Cancelled; the command and everything it started were killed.', {cancelled: true, exitCode: null}],
      ['a signal', {exitCode: undefined, signal: 'SIGKILL'}, 'The command was killed by SIGKILL.', {exitCode: null, signal: 'SIGKILL'}],
      ['spawn failure', {exitCode: undefined, spawnError: 'spawn acme ENOENT'}, 'Could not start the command: spawn acme ENOENT', {exitCode: null}],
    ])('%s', (_, fields, headline, structured) => {
      const result = run(fields)
      expect(result.isError).toBe(true)
      expect(result.text.split('\n')[3]).toBe(headline)
      expect(result.structured).toMatchObject({...structured, error: {message: headline}})
      expect(result.text.split('\n')[1]).toBe(`(${fields.exitCode === undefined ? 'no exit code' : `exit ${fields.exitCode}`}, 42 ms, in /tmp/work)`)
    })

    it('shows the tail of stderr under the headline', () => {
      const {structured, text} = run({exitCode: 1, stderr: `${'x'.repeat(5000)}\n${ESC}[31mError: the real cause${ESC}[0m\n`})
      expect(text).toContain('The command failed with exit code 1.\n…')
      expect(text.endsWith('Error: the real cause')).toBe(true)
      expect(text.length).toBeLessThan(2200)
      expect((structured.stderr as string).length).toBe(2001)
    })

    it('shows plain stdout printed before the failure', () => {
      const {text} = run({exitCode: 1, stderr: 'boom', stdout: 'step 1 done\n'})
      expect(text.endsWith('The command failed with exit code 1.\nboom\n\nOutput before the failure:\nstep 1 done')).toBe(true)
    })

    it('gives just the message and code of an oclif JSON error', () => {
      const error = {error: {code: 'NOT_FOUND', message: 'Task 9 not found', oclif: {exit: 2}, stack: 'Error: Task 9 not found\n    at x'}}
      const {structured, text} = run({exitCode: 2, stderr: 'ignored', stdout: JSON.stringify(error)}, true)
      expect(text.split('\n').slice(3)).toEqual(['The command failed with exit code 2.', 'Error NOT_FOUND: Task 9 not found'])
      expect(structured.error).toEqual({code: 'NOT_FOUND', message: 'Task 9 not found'})
      expect(structured).not.toHaveProperty('data')
      expect(structured).not.toHaveProperty('stdout')
    })

    it('gives the exit code the command asked for when the process exited with another (oclif 4 exits 1 under --json)', () => {
      const error = {error: {code: 'NO_TASK', message: 'No task with id 999.', name: 'Error', oclif: {exit: 3}}}
      const {structured, text} = run({exitCode: 1, stdout: JSON.stringify(error)}, true)
      expect(text.split('\n').slice(3)).toEqual(['The command failed with exit code 1 (the command\'s error asks for exit code 3).', 'Error NO_TASK: No task with id 999.'])
      expect(structured).toMatchObject({error: {code: 'NO_TASK', exit: 3, message: 'No task with id 999.'}, exitCode: 1})
    })

    it.each([
      ['a named error', {message: 'No default org.', name: 'NoDefaultEnvError', status: 1}, 'Error NoDefaultEnvError: No default org.', {code: 'NoDefaultEnvError', message: 'No default org.'}],
      ['a plain Error', {message: 'Something broke.', name: 'Error', status: 1}, 'Error: Something broke.', {message: 'Something broke.'}],
    ])('gives just the message of a Salesforce-style JSON error: %s', (_, error, line, structuredError) => {
      const {structured, text} = run({exitCode: 1, stdout: JSON.stringify({...error, stack: 'at x', warnings: []})}, true)
      expect(text.split('\n').at(-1)).toBe(line)
      expect(structured.error).toEqual(structuredError)
    })

    it('keeps a 30 KB JSON error short', () => {
      const big = {
        context: 'Deploy',
        data: Array.from({length: 300}, (_, i) => ({component: `Class${i}`, problem: 'x'.repeat(80)})),
        message: 'Deploy failed: 300 component errors.',
        name: 'DeployFailed',
        stack: 'y'.repeat(2000),
        status: 1,
      }
      const stdout = JSON.stringify(big)
      expect(stdout.length).toBeGreaterThan(30_000)
      const {content, structured, text} = run({exitCode: 1, stdout}, true)
      expect(text.length).toBeLessThan(300)
      expect(text).toContain('Error DeployFailed: Deploy failed: 300 component errors.')
      expect(text).not.toContain('Class0')
      expect(JSON.stringify(structured).length).toBeLessThan(500)
      expect(content).toHaveLength(1)
    })

    it('keeps JSON output that is not an error', () => {
      const report = {failed: 1, failures: [{name: 'adds two numbers'}], passed: 9}
      const {structured, text} = run({exitCode: 1, stdout: JSON.stringify(report)}, true)
      expect(structured.data).toEqual(report)
      expect(structured.error).toEqual({message: 'The command failed with exit code 1.'})
      expect(text).toContain('adds two numbers')
    })

    it('does not read a JSON error out of a successful run', () => {
      const {isError, structured} = run({stdout: '{"message":"all good","status":0}'}, true)
      expect(isError).toBeUndefined()
      expect(structured.data).toEqual({message: 'all good', status: 0})
      expect(structured).not.toHaveProperty('error')
    })

    it('prefers the timeout headline over the exit code', () => {
      expect(run({exitCode: 143, timedOut: true}).text.split('\n')[3]).toMatch(/^Timed out after 30 s/)
    })
  })

  describe('truncation', () => {
    it.each<[Partial<RunOutcome>, string | undefined, Record<string, number> | undefined]>([
      [{stdoutDropped: 500}, '[output truncated: 500 bytes of stdout not shown]', {stderrBytes: 0, stdoutBytes: 500}],
      [{stderrDropped: 7}, '[output truncated: 7 bytes of stderr not shown]', {stderrBytes: 7, stdoutBytes: 0}],
      [{stderrDropped: 7, stdoutDropped: 500}, '[output truncated: 500 bytes of stdout and 7 bytes of stderr not shown]', {stderrBytes: 7, stdoutBytes: 500}],
      [{}, undefined, undefined],
    ])('%p', (fields, notice, truncated) => {
      const {structured, text} = run({...fields, stdout: 'partial'})
      if (notice) expect(text.endsWith(`partial\n\n${notice}`)).toBe(true)
      else expect(text).not.toContain('truncated')
      expect(structured.truncated).toEqual(truncated)
    })

    it('notes truncation on failures too', () => {
      expect(run({exitCode: 1, stdoutDropped: 10}).text.endsWith('\n\n[output truncated: 10 bytes of stdout not shown]')).toBe(true)
    })
  })
})

describe('withoutHostWarnings', () => {
  it('drops oclif v1\'s report of a failing init hook and Node\'s colour note, and nothing after them', () => {
    const v1 = '(node:11985) SyntaxError Plugin: vtex: Cannot use import statement outside a module\nmodule: @oclif/config@1.18.17\ntask: runHook init\nplugin: vtex\nroot: /x/node_modules/vtex\nSee more details with DEBUG=*\n(Use `node --trace-warnings ...` to show where the warning was created)\n'
    const colour = "(node:11985) Warning: The 'NO_COLOR' env is ignored due to the 'FORCE_COLOR' env being set.\n"
    expect(withoutHostWarnings(`${v1}${colour}Error: not logged in\n`)).toBe('Error: not logged in\n')
    // A failing hook of a command's own run (not init) is the command's business: it stays.
    const prerun = v1.replace('runHook init', 'runHook prerun')
    expect(withoutHostWarnings(prerun)).toBe(prerun)
  })

  it("drops oclif's own plugin-loading warnings, wrapped or not, and nothing else", () => {
    // As @oclif/core 3.27 prints it (each wrapped line ends in a space).
    const wrapped = ' ›   Warning: oclif-plugin-mcp is a linked ESM module and cannot be \n ›   auto-transpiled. Existing compiled source will be used instead.\n'
    const single = 'Warning: oclif-plugin-mcp is a linked ESM module and cannot be auto-transpiled. Existing compiled source will be used instead.\n'
    const tsNode = ' ›   Warning: ts-node executable cannot transpile ESM in Node 20. Existing compiled source will be used\n ›   instead. See https://github.com/oclif/core/issues/817.\n'
    const own = ' ›   Warning: the region flag is deprecated; Existing compiled source will be used instead.\n'
    expect(withoutHostWarnings(`${wrapped}real error\n`)).toBe('real error\n')
    // What follows in oclif's own form stays: an error under the warning.
    expect(withoutHostWarnings(`${wrapped} ›   Error: No file named missing.txt\n`)).toBe(' ›   Error: No file named missing.txt\n')
    expect(withoutHostWarnings(`${single}${tsNode}done\n`)).toBe('done\n')
    expect(withoutHostWarnings(`${own}done\n`)).toBe(`${own}done\n`)
    expect(withoutHostWarnings('plain\n')).toBe('plain\n')
  })
})
