// Resources, prompts and completion over real stdio and real HTTP, in both eras, with the official client: the
// paginated resources/list, docs and command references (only inside the boundary), completion of command ids,
// doc paths and prompt arguments, and the example CLI's own prompt (oclif.mcp.prompts).
import {Client, StreamableHTTPClientTransport} from '@modelcontextprotocol/client'
import {afterAll, describe, expect, it} from '@jest/globals'
import {join} from 'node:path'

import {type Served, serveTaskbox} from '../helpers/serve.js'
import {connectTaskbox, type Era, scratch, taskboxEnv} from '../helpers/taskbox.js'

const space = scratch('mcp-resources-')
const closers: (() => Promise<unknown>)[] = []

afterAll(async () => {
  await Promise.all(closers.map((close) => close()))
  space.cleanup()
})

async function stdio(era: Era, args: string[] = []): Promise<Client> {
  const connected = await connectTaskbox({args, cwd: space.dir, env: taskboxEnv(join(space.dir, `home-stdio-${era}-${args.length}`)), era})
  closers.push(connected.close)
  return connected.client
}

async function http(era: Era): Promise<Client> {
  const served: Served = await serveTaskbox({cwd: space.dir, env: taskboxEnv(join(space.dir, `home-http-${era}`))})
  const client = new Client({name: 'resources-test', version: '1'}, era === 'modern' ? {versionNegotiation: {mode: {pin: '2026-07-28'}}} : {})
  await client.connect(new StreamableHTTPClientTransport(new URL(served.url)))
  closers.push(async () => {
    await client.close().catch(() => {})
    await served.stop()
  })
  return client
}

const COMMANDS = ['init', 'report:weekly', 'status', 'sync', 'tasks:add', 'tasks:clear', 'tasks:done', 'tasks:list', 'tasks:remove', 'tasks:show']

describe.each<[string, () => Promise<Client>]>([
  ['stdio, 2025 era', () => stdio('legacy')],
  ['stdio, 2026-07-28 era', () => stdio('modern')],
  ['HTTP, 2025 era', () => http('legacy')],
  ['HTTP, 2026-07-28 era', () => http('modern')],
])('%s', (_, open) => {
  let client: Client
  it('lists the instructions, the docs and one reference per command, and the templates', async () => {
    client = await open()
    const {nextCursor, resources} = await client.listResources()
    expect(nextCursor).toBeUndefined()
    const uris = resources.map((r) => r.uri)
    expect(uris[0]).toBe('taskbox://setup/agent-instructions')
    expect(uris).toContain('taskbox://docs/taskbox/README.md')
    expect(uris).toContain('taskbox://docs/taskbox/docs/tasks.md')
    expect(uris.filter((uri) => uri.startsWith('taskbox://commands/')).sort()).toEqual(COMMANDS.map((id) => `taskbox://commands/${id}`).sort())
    for (const resource of resources) expect(resource.mimeType).toBe('text/markdown')
    const {resourceTemplates} = await client.listResourceTemplates()
    expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual(['taskbox://docs/{+path}', 'taskbox://commands/{id}', 'taskbox://output/{id}/{stream}'])
  }, 60_000)

  it("reads a command's reference and a doc, and refuses an unknown URI with a protocol error", async () => {
    const reference = await client.readResource({uri: 'taskbox://commands/tasks:add'})
    const text = (reference.contents[0] as {text: string}).text
    expect(text).toMatch(/^# taskbox tasks add\n\nAdd a task\.\n/)
    expect(text).toContain('- `--priority <value>` (`-p`) — Priority from 1 (urgent) to 5 (someday). (default: 3)')
    expect(text).toContain('taskbox tasks add "Write the release notes" --priority 2 --tag docs --tag release')
    expect(text).toContain('Call the tool `tasks_add`.')
    const readme = await client.readResource({uri: 'taskbox://docs/taskbox/README.md'})
    expect((readme.contents[0] as {text: string}).text).toMatch(/^# taskbox\n/)
    await expect(client.readResource({uri: 'taskbox://commands/nope'})).rejects.toThrow(/No command at taskbox:\/\/commands\/nope/)
    await expect(client.readResource({uri: 'taskbox://docs/../../etc/passwd'})).rejects.toThrow(/No document/)
  })

  it('completes command ids (by prefix, then typos), doc paths and prompt arguments', async () => {
    const ids = await client.complete({argument: {name: 'id', value: 'tasks:'}, ref: {type: 'ref/resource', uri: 'taskbox://commands/{id}'}})
    expect(ids.completion.values).toEqual(['tasks:add', 'tasks:clear', 'tasks:done', 'tasks:list', 'tasks:remove', 'tasks:show'])
    const typo = await client.complete({argument: {name: 'id', value: 'taks:ad'}, ref: {type: 'ref/resource', uri: 'taskbox://commands/{id}'}})
    expect(typo.completion.values).toEqual(['tasks:add'])
    const paths = await client.complete({argument: {name: 'path', value: 'taskbox/'}, ref: {type: 'ref/resource', uri: 'taskbox://docs/{+path}'}})
    expect(paths.completion.values).toEqual(['taskbox/README.md', 'taskbox/docs/tasks.md'])
    const focus = await client.complete({argument: {name: 'focus', value: 'h'}, ref: {name: 'plan-week', type: 'ref/prompt'}})
    expect(focus.completion.values).toEqual(['high'])
  })

  it("lists and renders the CLI author's prompt; unknown prompts and values it does not take are protocol errors", async () => {
    const {prompts} = await client.listPrompts()
    expect(prompts).toEqual([
      {
        arguments: [
          {description: 'Absolute path of the project directory (its .taskbox.json).', name: 'project', required: true},
          {description: 'Which priority to plan first.', name: 'focus', required: false},
        ],
        description: "Review the open tasks in a project and plan the week's work by priority.",
        name: 'plan-week',
        title: 'Plan the week',
      },
    ])
    const got = await client.getPrompt({arguments: {focus: 'high', project: '/srv/app'}, name: 'plan-week'})
    expect(got.messages).toEqual([
      {
        content: {
          text: "In /srv/app, list the open tasks with the `tasks_list` tool (pass cwd: /srv/app). Plan the week's work, high-priority tasks first: for each task say what to do and in what order. Mark finished ones done with the `tasks_done` tool, and add anything missing with the `tasks_add` tool. Finish with the `report_weekly` tool.",
          type: 'text',
        },
        role: 'user',
      },
    ])
    await expect(client.getPrompt({name: 'nope'})).rejects.toThrow(/Prompt nope not found/)
    await expect(client.getPrompt({arguments: {focus: 'urgent', project: '/x'}, name: 'plan-week'})).rejects.toThrow(/expected one of "high"\|"normal"\|"low"/)
  })
})

describe('the boundary', () => {
  it('under --read-only: no reference, completion or prompt reaches a command that writes', async () => {
    const client = await stdio('legacy', ['--read-only'])
    const {resources} = await client.listResources()
    expect(resources.map((r) => r.uri)).not.toContain('taskbox://commands/tasks:add')
    await expect(client.readResource({uri: 'taskbox://commands/tasks:add'})).rejects.toThrow(/No command at/)
    const ids = await client.complete({argument: {name: 'id', value: 'tasks:'}, ref: {type: 'ref/resource', uri: 'taskbox://commands/{id}'}})
    expect(ids.completion.values).toEqual(['tasks:list', 'tasks:show'])
    // The prompt names tasks:done and tasks:add, which this server does not expose: it is not served, and asking for
    // it is answered exactly as for a prompt that does not exist (no template text, no command named).
    // (taskbox has no other prompt, so this server offers none: no prompts capability, and prompts/list is not served.)
    expect(await client.listPrompts().then((listed) => listed.prompts.map((p) => p.name), () => [])).not.toContain('plan-week')
    const refused = await client.getPrompt({arguments: {project: '/srv/app'}, name: 'plan-week'}).catch((error: Error) => error.message)
    const absent = await client.getPrompt({name: 'no-such-prompt'}).catch((error: Error) => error.message)
    expect(refused).toBe(String(absent).replace('no-such-prompt', 'plan-week'))
    expect(refused).not.toMatch(/tasks|list the open/)
  }, 60_000)
})
