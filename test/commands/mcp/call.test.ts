import {afterAll, afterEach, beforeAll, describe, expect, it} from '@jest/globals'
import {existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'

import {plain, runTaskbox, stopAll} from '../../helpers/run-cli.js'
import {scratch, taskboxEnv} from '../../helpers/taskbox.js'

interface Result {
  content: {text: string; type: string}[]
  isError?: boolean
  structuredContent?: Record<string, unknown>
}

const space = scratch('mcp-call-')
const project = join(space.dir, 'project')
const temp = join(space.dir, 'tmp')
// TMPDIR inside the scratch directory, to see that the private working directory is removed again.
const env = {...taskboxEnv(join(space.dir, 'home')), TMPDIR: temp}
const call = (args: string[], input?: string) => runTaskbox(['mcp', 'call', ...args], {cwd: space.dir, env, input})
const at = (dir: string) => JSON.stringify({cwd: dir})

beforeAll(() => {
  mkdirSync(project)
  mkdirSync(temp)
  writeFileSync(join(project, '.taskbox.json'), JSON.stringify({name: 'project', nextId: 1, tasks: []}))
})
afterEach(() => stopAll())
afterAll(() => space.cleanup())

describe('mcp call', () => {
  it("prints the result's text and exits 0", async () => {
    const ran = await call(['status', '--args', at(project)])
    expect(ran.code).toBe(0)
    expect(ran.stdout).toContain('$ taskbox status --json')
    expect(ran.stdout).toContain(`in ${project}`)
    expect(ran.stdout).toContain('"initialized": true')
  })

  it('--json prints the raw CallToolResult', async () => {
    const ran = await call(['tasks_add', '--args', JSON.stringify({cwd: project, title: 'Write docs'}), '--json'])
    expect(ran.code).toBe(0)
    const result = JSON.parse(ran.stdout) as Result
    expect(result.isError).toBeUndefined()
    expect(result.content[0]).toMatchObject({type: 'text'})
    expect(result.structuredContent).toMatchObject({command: 'tasks:add', cwd: project, data: {title: 'Write docs'}, exitCode: 0})
    expect(JSON.parse(readFileSync(join(project, '.taskbox.json'), 'utf8')).tasks).toHaveLength(1)
  })

  it('exits 1 when the result is an error, with its text on stderr (or the raw result with --json)', async () => {
    const empty = join(space.dir, 'empty')
    mkdirSync(empty)
    const ran = await call(['tasks_list', '--args', at(empty)])
    expect(ran.code).toBe(1)
    expect(ran.stdout).toBe('')
    expect(ran.stderr).toContain('No task list')

    const raw = await call(['tasks_list', '--args', at(empty), '--json'])
    expect(raw.code).toBe(1)
    expect(JSON.parse(raw.stdout)).toMatchObject({isError: true})
  })

  it('reports arguments the tool schema refuses as an error result, like the servers do', async () => {
    const ran = await call(['status', '--args', JSON.stringify({nope: 1})])
    expect(ran.code).toBe(1)
    expect(ran.stderr).toContain('nope')
  })

  it('warns when --args puts a secret-named argument on its own command line, and not when stdin brings it', async () => {
    const args = JSON.stringify({cwd: project, remote: 'http://127.0.0.1:9', token: 'tk-on-the-command-line'})
    const flagged = await call(['sync', '--args', args])
    expect(flagged.stderr).toMatch(/--args holds "token", named like a secret/)
    expect(flagged.stderr).toContain('standard input')
    const piped = await call(['sync'], args)
    expect(piped.stderr).not.toContain('named like a secret')
    expect(piped.stderr).toContain('[REDACTED]')
  })

  it('reads the arguments from stdin when --args is absent', async () => {
    const ran = await call(['status'], at(project))
    expect(ran.code).toBe(0)
    expect(ran.stdout).toContain(`in ${project}`)
  })

  it('runs in a private directory without arguments, and removes it afterwards', async () => {
    const ran = await call(['status'], '')
    expect(ran.code).toBe(0)
    const dir = /\(exit 0, \d+ ms, in (\S+)\)/.exec(ran.stdout)?.[1]
    expect(dir?.startsWith(temp)).toBe(true)
    expect(existsSync(dir!)).toBe(false)
    expect(readdirSync(temp)).toEqual([])
  })

  it.each([
    {args: ['status', '--args', '{"cwd": '], message: 'The arguments in --args are not valid JSON'},
    {args: ['status'], input: 'cwd=/tmp', message: 'The arguments in standard input are not valid JSON'},
    {args: ['status', '--args', '["/tmp"]'], message: 'The arguments in --args must be a JSON object, not an array'},
    {args: ['status'], input: '"/tmp"', message: 'The arguments in standard input must be a JSON object, not a string'},
  ])('refuses $message (exit 2)', async ({args, input, message}) => {
    const ran = await call(args, input)
    expect(ran.code).toBe(2)
    expect(ran.stdout).toBe('')
    expect(plain(ran.stderr)).toContain(message)
  })

  it('refuses an unknown tool, naming close ones', async () => {
    const ran = await call(['stats'])
    expect(ran.code).toBe(2)
    expect(plain(ran.stderr)).toContain('No tool "stats". Did you mean: status')
    expect(plain(ran.stderr)).toContain('taskbox mcp tools')
  })

  it('calls a command outside the typed band by its tool name, as a server does for a host that lists it, and through the gateway', async () => {
    const direct = await call(['tasks_add', '--max-tools', '1', '--args', JSON.stringify({cwd: project, title: 'By its own name'})])
    expect([direct.code, direct.stderr]).toEqual([0, ''])
    expect(direct.stdout).toContain('By its own name')
    const described = JSON.parse((await call(['describe_command', '--max-tools', '1', '--args', JSON.stringify({command: 'tasks add'}), '--json'])).stdout) as {structuredContent: {definitionHash: string}}
    const args = {arguments: {cwd: project, title: 'Via the gateway'}, command: 'tasks add', expectedDefinitionHash: described.structuredContent.definitionHash}
    const ran = await call(['run_command', '--max-tools', '1', '--args', JSON.stringify(args)])
    expect(ran.stderr).toBe('')
    expect(ran.code).toBe(0)
    expect(ran.stdout).toContain('Via the gateway')
  })

  it('keeps the capability boundary: read-only mode makes a mutating command unknown on every path', async () => {
    const direct = await call(['tasks_add', '--read-only'])
    expect(direct.code).toBe(2)
    expect(plain(direct.stderr)).toContain('No tool "tasks_add"')
    const gateway = await call(['run_command', '--read-only', '--args', JSON.stringify({command: 'tasks add', expectedDefinitionHash: 'sha256:0'})])
    expect(gateway.code).toBe(1)
    expect(gateway.stderr).toContain('No command "tasks add"')
  })
})
