import {afterAll, beforeAll, describe, expect, it} from '@jest/globals'
import {existsSync, mkdirSync, readFileSync} from 'node:fs'
import {join} from 'node:path'

import {connectTaskbox, type Connected, scratch, taskboxEnv, textOf} from '../helpers/taskbox.js'

type Result = Awaited<ReturnType<Connected['client']['callTool']>>
const data = (result: Result) => result.structuredContent as Record<string, unknown>
const tasksIn = (dir: string) => (JSON.parse(readFileSync(join(dir, '.taskbox.json'), 'utf8')) as {tasks: {title: string}[]}).tasks

describe('the gateway: a small typed band, every command still reachable', () => {
  const space = scratch()
  const home = join(space.dir, 'home')
  const project = join(space.dir, 'project')
  const servers: Connected[] = []
  let server: Connected

  const start = async (args: string[]) => {
    const started = await connectTaskbox({args, cwd: space.dir, env: taskboxEnv(home), era: 'legacy'})
    servers.push(started)
    return started
  }

  const call = (name: string, args: Record<string, unknown> = {}, on = server) => on.client.callTool({arguments: args, name})
  const hashOf = async (command: string, on = server) => data(await call('describe_command', {command}, on)).definitionHash as string

  beforeAll(async () => {
    mkdirSync(project)
    server = await start(['--max-tools', '3', '--exclude', 'sync'])
  })

  afterAll(async () => {
    for (const started of servers) await started.close()
    space.cleanup()
  })

  it('lists the built-ins plus a bounded band, and describe_capabilities reports exactly that list', async () => {
    const {tools} = await server.client.listTools()
    const names = tools.map((t) => t.name)
    expect(names.slice(0, 11)).toEqual([
      'describe_capabilities', 'cli_info', 'list_commands', 'describe_command', 'find_commands', 'run_command',
      'job_status', 'cancel_job', 'read_output', 'search_docs', 'read_doc',
    ])
    expect(names).toHaveLength(14)
    const capabilities = data(await call('describe_capabilities'))
    expect(capabilities.tools).toEqual(names)
    expect(capabilities).toMatchObject({limits: {maxBytes: 32_768, maxTools: 3}, profile: {name: null, source: 'default selection'}, readOnly: false})
    expect((capabilities.typedBand as {count: number}).count).toBe(3)
    const reasons = new Map((capabilities.notListed as {command: string; reason: string}[]).map((n) => [n.command, n.reason]))
    expect(reasons.get('sync')).toBe('excluded by flag')
    // What the author hid is counted, never named: the model cannot learn it from here either.
    expect(reasons.has('debug:dump')).toBe(false)
    expect(capabilities.notNamed).toEqual({hidden: 1})
    expect(reasons.get('tasks:add')).toBe('outside the typed band (reachable through run_command)')
  })

  it('finds commands by what they do, with paging', async () => {
    const found = data(await call('find_commands', {query: 'add a new task'}))
    const hits = found.hits as {id: string; listed: boolean}[]
    expect(hits.slice(0, 5).map((h) => h.id)).toContain('tasks add')
    expect(hits.find((h) => h.id === 'tasks add')?.listed).toBe(false)
    expect(hits.map((h) => h.id)).not.toContain('sync')

    const first = data(await call('find_commands', {limit: 2, query: 'tasks'}))
    expect(first.hits as unknown[]).toHaveLength(2)
    const second = data(await call('find_commands', {cursor: first.nextCursor, limit: 2, query: 'tasks'}))
    expect((second.hits as {id: string}[])[0].id).not.toBe((first.hits as {id: string}[])[0].id)
    const wrong = await call('find_commands', {cursor: first.nextCursor, query: 'something else'})
    expect(wrong.isError).toBe(true)
  })

  it('runs an unlisted command with its definition hash, and refuses a stale hash without running', async () => {
    const stale = await call('run_command', {arguments: {cwd: project}, command: 'init', expectedDefinitionHash: 'sha256:0000'})
    expect(stale.isError).toBe(true)
    expect(data(stale)).toMatchObject({code: 'STALE_DEFINITION', definitionHash: await hashOf('init')})
    expect(existsSync(join(project, '.taskbox.json'))).toBe(false)

    const init = await call('run_command', {arguments: {cwd: project}, command: 'init', expectedDefinitionHash: await hashOf('init')})
    expect(init.isError).toBeFalsy()
    expect(existsSync(join(project, '.taskbox.json'))).toBe(true)

    const bad = await call('run_command', {arguments: {cwd: project, priority: 'high', title: 'x'}, command: 'tasks add', expectedDefinitionHash: await hashOf('tasks add')})
    expect(bad.isError).toBe(true)
    expect(textOf(bad)).toContain('Nothing was run')
    expect(tasksIn(project)).toHaveLength(0)
  })

  it('answers a command outside the boundary exactly like an unknown one, on every path', async () => {
    for (const tool of ['describe_command', 'run_command']) {
      const args = (command: string) => (tool === 'run_command' ? {command, expectedDefinitionHash: 'x'} : {command})
      const excluded = textOf(await call(tool, args('sync')))
      const unknown = textOf(await call(tool, args('zync')))
      expect(excluded.replace('"sync"', '"?"')).toBe(unknown.replace('"zync"', '"?"'))
    }
  })

  it('runs a command once per idempotency key, also across a server restart', async () => {
    const hash = await hashOf('tasks add')
    const add = (key: string, title: string, on = server) =>
      call('run_command', {arguments: {cwd: project, title}, command: 'tasks add', expectedDefinitionHash: hash, idempotencyKey: key}, on)
    const [a, b] = await Promise.all([add('k-1', 'only once'), add('k-1', 'only once')])
    expect(a.isError).toBeFalsy()
    expect(b.isError).toBeFalsy()
    expect(tasksIn(project).filter((t) => t.title === 'only once')).toHaveLength(1)

    const conflict = await add('k-1', 'something else')
    expect(conflict.isError).toBe(true)

    const restarted = await start(['--max-tools', '3'])
    const replay = await add('k-1', 'only once', restarted)
    expect(textOf(replay)).toContain('"only once"')
    expect((replay.content as {text: string}[]).at(-1)?.text).toContain('Replayed')
    expect(tasksIn(project).filter((t) => t.title === 'only once')).toHaveLength(1)

    const typed = await start([])
    for (let i = 0; i < 2; i++) await call('tasks_add', {cwd: project, idempotencyKey: 'typed-1', title: 'typed once'}, typed)
    expect(tasksIn(project).filter((t) => t.title === 'typed once')).toHaveLength(1)
  })

  it('keeps idempotency keys for commands that change things: a read-only command runs again, by either path', async () => {
    const properties = async (command: string) => Object.keys((data(await call('describe_command', {command})).inputSchema as {properties: object}).properties)
    expect(await properties('tasks add')).toEqual(expect.arrayContaining(['cwd', 'idempotencyKey']))
    expect(await properties('tasks list')).toContain('cwd')
    expect(await properties('tasks list')).not.toContain('idempotencyKey')
    // Through run_command a key for a read-only command is no error; the command just runs (twice, both answers fresh).
    const hash = await hashOf('tasks list')
    for (let i = 0; i < 2; i++) {
      const listed = await call('run_command', {arguments: {cwd: project}, command: 'tasks list', expectedDefinitionHash: hash, idempotencyKey: 'read-1'})
      expect(listed.isError).toBeFalsy()
      expect((listed.content as {text: string}[]).at(-1)?.text).not.toContain('Replayed')
    }
  })

  it('in read-only mode reaches no mutating command through any path', async () => {
    const readOnly = await start(['--read-only'])
    const names = (await readOnly.client.listTools()).tools.map((t) => t.name)
    expect(names).not.toContain('tasks_add')
    expect(names).toContain('tasks_list')
    const refused = await call('run_command', {arguments: {cwd: project, title: 'nope'}, command: 'tasks add', expectedDefinitionHash: 'x'}, readOnly)
    expect(textOf(refused)).toMatch(/^No command "tasks add"\./)
    const capabilities = data(await call('describe_capabilities', {}, readOnly))
    expect(capabilities.readOnly).toBe(true)
    expect((capabilities.notListed as {command: string; reason: string}[]).find((n) => n.command === 'tasks:add')?.reason).toBe('read-only mode')
  })
})
