import {afterAll, beforeAll, describe, expect, it} from '@jest/globals'
import {existsSync, mkdirSync, realpathSync} from 'node:fs'
import {join} from 'node:path'

import {connectTaskbox, type Connected, type Era, scratch, taskboxEnv, textOf} from '../helpers/taskbox.js'

type Result = Awaited<ReturnType<Connected['client']['callTool']>>
const structured = (result: Result) => result.structuredContent as Record<string, unknown>

describe.each<Era>(['legacy', 'modern'])('mcp stdio, %s era, official client', (era) => {
  const space = scratch()
  const serverCwd = join(space.dir, 'server-cwd')
  const projectA = join(space.dir, 'project-a')
  const projectB = join(space.dir, 'project-b')
  let server: Connected

  beforeAll(async () => {
    for (const dir of [serverCwd, projectA, projectB]) mkdirSync(dir)
    server = await connectTaskbox({cwd: serverCwd, env: taskboxEnv(join(space.dir, 'home')), era})
  })

  afterAll(async () => {
    await server?.close()
    space.cleanup()
  })

  const call = (name: string, args: Record<string, unknown> = {}) => server.client.callTool({arguments: args, name})

  it('connects in the era asked for', () => {
    expect(server.client.getProtocolEra()).toBe(era)
  })

  it('lists one tool per visible command plus the built-ins', async () => {
    const {tools} = await server.client.listTools()
    expect(tools.map((t) => t.name).sort()).toEqual(
      [
        'cancel_job', 'cli_info', 'describe_capabilities', 'describe_command', 'find_commands', 'init', 'job_status',
        'list_commands', 'read_doc', 'read_output', 'report_weekly', 'run_command', 'search_docs', 'status', 'sync',
        'tasks_add', 'tasks_clear', 'tasks_done', 'tasks_list', 'tasks_remove', 'tasks_show',
      ].sort(),
    )
    for (const tool of tools) {
      expect(tool.inputSchema.type).toBe('object')
      expect(tool.inputSchema.additionalProperties).toBe(false)
      expect(typeof tool.annotations?.readOnlyHint).toBe('boolean')
      expect(typeof tool.annotations?.destructiveHint).toBe('boolean')
    }

    // What a client sees, pinned: a change to names, schemas, descriptions or hints must be deliberate.
    if (era === 'legacy') expect(tools).toMatchSnapshot()

    const byName = new Map(tools.map((t) => [t.name, t]))
    expect(byName.get('tasks_remove')?.annotations).toMatchObject({destructiveHint: true, readOnlyHint: false})
    expect(byName.get('tasks_list')?.annotations).toMatchObject({destructiveHint: false, readOnlyHint: true})
    expect(byName.get('report_weekly')?.annotations).toMatchObject({openWorldHint: false, readOnlyHint: true})
  })

  it('offers agent instructions as the server instructions and as a resource', async () => {
    // What the CLI is and when to use it first (Codex shows its model that paragraph alone), then the author's words.
    const [purpose, own] = server.client.getInstructions()!.split('\n\n')
    expect(purpose).toBe('A small task tracker that keeps its tasks in the directory you run it in: the `taskbox` command-line tool. Use when the person asks to work with taskbox (report, tasks), or to run a taskbox command: these tools run its commands in a fresh process each, and find_commands finds any of them by task.')
    expect(own).toMatch(/^Taskbox keeps a task list/)
    const {resources} = await server.client.listResources()
    // First of the resources (the docs and command references follow: test/e2e/resources-prompts.test.ts).
    expect(resources.map((r) => r.uri)[0]).toBe('taskbox://setup/agent-instructions')
    const {contents} = await server.client.readResource({uri: 'taskbox://setup/agent-instructions'})
    const text = (contents[0] as {text: string}).text
    expect(text).toContain('# Using taskbox through MCP')
    expect(text).toContain('Taskbox keeps a task list')
    expect(text).toContain('`taskbox tasks remove`')
  })

  it('answers cli_info with the CLI and the protocol revisions', async () => {
    const info = structured(await call('cli_info'))
    expect(info).toMatchObject({bin: 'taskbox', version: '1.4.0'})
    expect(info.protocolRevisions).toEqual(expect.arrayContaining(['2026-07-28', '2025-11-25']))
    expect(typeof info.oclifCore).toBe('string')
  })

  it('runs mutating commands in the cwd each call names, and nowhere else', async () => {
    for (const dir of [projectA, projectB]) {
      const init = await call('init', {cwd: dir})
      expect(init.isError).toBeFalsy()
      expect(structured(init).cwd).toBe(realpathSync(dir))
    }

    const added = await call('tasks_add', {cwd: projectA, priority: 1, tag: ['docs', 'release'], title: '--force; rm -rf "$HOME"'})
    expect(added.isError).toBeFalsy()
    expect(structured(added).data).toMatchObject({priority: 1, tags: ['docs', 'release'], title: '--force; rm -rf "$HOME"'})

    const listA = structured(await call('tasks_list', {cwd: projectA, status: 'all'}))
    const listB = structured(await call('tasks_list', {cwd: projectB, status: 'all'}))
    expect((listA.data as {tasks: unknown[]}).tasks).toHaveLength(1)
    expect((listB.data as {tasks: unknown[]}).tasks).toHaveLength(0)
    expect(existsSync(join(serverCwd, '.taskbox.json'))).toBe(false)
  })

  it('runs a call without cwd in a private empty directory, never the server process cwd', async () => {
    const status = structured(await call('status'))
    const data = status.data as {directory: string; initialized: boolean}
    expect(data.initialized).toBe(false)
    expect(data.directory).not.toBe(realpathSync(serverCwd))
    expect(status.cwd).toBe(data.directory)
  })

  it('runs a call that names a directory there, resolved first: /proc/self/cwd is the server\'s real directory, and the result says so', async () => {
    // The promise is about the default: a call may name any existing directory, the server's own included.
    const status = structured(await call('status', {cwd: '/proc/self/cwd'}))
    expect(status.cwd).toBe(realpathSync(serverCwd))
    expect((status.data as {directory: string}).directory).toBe(realpathSync(serverCwd))
  })

  it('reports a failing command as an error result with its message and exit code', async () => {
    const result = await call('sync', {cwd: projectA})
    expect(result.isError).toBe(true)
    expect(structured(result).exitCode).toBe(4)
    expect(textOf(result)).toContain('No sync server configured')
  })

  it('ends a command at its question when the client cannot be asked, naming the flag that skips it', async () => {
    const result = await call('tasks_clear', {cwd: projectA})
    expect(result.isError).toBe(true)
    expect(textOf(result)).toMatch(/^"taskbox tasks clear" asked: "Delete \d+ done task\(s\)\? \[y\/N\]" — and nobody can be asked here .* give --yes\.$/)
    expect(structured(result)).toMatchObject({code: 'QUESTION_UNANSWERED', question: {avoidWith: ['--yes'], kind: 'confirm'}})
  })

  it('reports a JSON command error by its message, and the exit code the command asked for', async () => {
    const result = await call('tasks_show', {cwd: projectA, id: '99'})
    expect(result.isError).toBe(true)
    // oclif 4 exits 1 for any error it prints as JSON; the command's own code (3) is in the error.
    expect(structured(result)).toMatchObject({error: {code: 'NO_TASK', exit: 3, message: 'No task with id 99.'}, exitCode: 1})
    expect(textOf(result)).toContain("the command's error asks for exit code 3")
  })

  it.each([
    [{cwd: 'relative/dir'}, 'must be an absolute path'],
    [{cwd: '/definitely/not/here'}, 'does not exist'],
  ])('refuses a bad cwd %j without running anything', async (args, message) => {
    const result = await call('init', args)
    expect(result.isError).toBe(true)
    expect(textOf(result)).toContain(message)
    expect(textOf(result)).toContain('Nothing was run')
  })

  it('rejects arguments the schema does not allow', async () => {
    for (const args of [{cwd: projectA, bogus: 1}, {cwd: projectA, limit: 'ten'}, {cwd: projectA, status: 'sideways'}]) {
      const result = await call('tasks_list', args)
      expect(result.isError).toBe(true)
    }
  })

  it('describes a command and finds it in the docs', async () => {
    const described = structured(await call('describe_command', {command: 'tasks add'}))
    expect(described).toMatchObject({id: 'tasks add', tool: 'tasks_add'})
    expect((described.flags as {name: string}[]).map((f) => f.name)).toEqual(expect.arrayContaining(['priority', 'tag', 'assignee']))
    const unknown = await call('describe_command', {command: 'tasks explode'})
    expect(unknown.isError).toBe(true)
    expect(textOf(unknown)).toContain('Did you mean')

    const found = structured(await call('search_docs', {query: 'priority tags'}))
    const [top] = found.hits as {path: string; section: string}[]
    expect(top.path).toBe('taskbox/docs/tasks.md')
    const page = structured(await call('read_doc', {path: top.path}))
    expect(page.text).toContain('Priorities')
    const escape = await call('read_doc', {path: 'taskbox/../../package.json'})
    expect(escape.isError).toBe(true)
  })
})
