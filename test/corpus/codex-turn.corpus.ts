// Codex runs a whole turn against the stand-in for its model (codex-turn.ts), with the example CLI's server registered
// by `mcp config --client codex --write`: the test reads what Codex put in front of the model at each step.
import {afterAll, describe, expect, it} from '@jest/globals'
import {mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

import {ROOT, runCli} from './clis.js'
import {codexTurn} from './codex-turn.js'

const TASKBOX = join(ROOT, 'examples/taskbox/bin/run.js')
const FAULTY = join(ROOT, 'test/fixtures/faulty-cli/bin/run.js')
const space = realpathSync(mkdtempSync(join(tmpdir(), 'mcp-codex-turn-')))
afterAll(() => rmSync(space, {force: true, recursive: true}))

type Item = Record<string, unknown>
const items = (body: Record<string, unknown>) => body.input as Item[]

describe('Codex, a whole turn', () => {
  it('finds a server tool with its tool search, calls it, and hands the model the structured result', async () => {
    const project = join(space, 'project')
    const home = join(space, 'home')
    mkdirSync(project, {recursive: true})
    mkdirSync(home)
    const env = {CODEX_HOME: join(home, '.codex'), HOME: home, PATH: process.env.PATH ?? '', XDG_CACHE_HOME: join(home, 'cache'), XDG_CONFIG_HOME: join(home, 'config')}
    expect((await runCli(process.execPath, [TASKBOX, 'mcp', 'config', '--client', 'codex', '--write'], env, project)).code).toBe(0)

    const turn = await codexTurn('How many tasks are open here?', [
      {input: {limit: 3, query: 'task status'}, tool: 'tool_search'},
      {input: {cwd: project}, namespace: 'mcp__taskbox', tool: 'status'},
    ], {env, project})
    expect(turn.code).toBe(0)
    expect(turn.bodies).toHaveLength(3)
    const [first, searched, called] = turn.bodies

    // The server's tools are deferred: the model is offered Codex's tool search, and told the namespace by the first
    // paragraph of the server's instructions.
    expect(first.tools).toContainEqual(expect.objectContaining({execution: 'client', type: 'tool_search'}))
    expect(JSON.stringify(first.tools)).not.toContain('mcp__taskbox')
    // That paragraph says what the CLI is and when to use it.
    expect(JSON.stringify(first.input)).toContain('Deferred tool namespaces:\\n- mcp__taskbox: A small task tracker that keeps its tasks in the directory you run it in: the `taskbox` command-line tool. Use when the person asks to work with taskbox')

    // The search answers with at most `limit` deferred tools (Codex's own among them), grouped by namespace; the
    // server's comes with all its instructions.
    const found = (items(searched).find((item) => item.type === 'tool_search_output') as {tools: {description: string; name: string; tools: Item[]}[]}).tools
    expect(found.flatMap((namespace) => namespace.tools).length).toBeLessThanOrEqual(3)
    const taskbox = found.find((namespace) => namespace.name === 'mcp__taskbox')
    expect(taskbox?.description).toContain('Every result says which directory was used.')
    expect(taskbox?.tools).toContainEqual(expect.objectContaining({defer_loading: true, name: 'status', type: 'function'}))

    // What the model reads of the call: Codex's wall-time line, then the JSON of structuredContent (the text is not sent).
    const output = items(called).find((item) => item.type === 'function_call_output')?.output as string
    expect(output).toMatch(/^Wall time: [\d.]+ seconds\nOutput:\n\{/)
    expect(JSON.parse(output.slice(output.indexOf('\n{') + 1))).toMatchObject({command: 'status', data: {directory: project}})
    expect(output).not.toContain('$ taskbox status')

    const events = turn.stdout.split('\n').filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as {item?: Item; type: string})
    expect(events).toContainEqual({item: expect.objectContaining({server: 'taskbox', status: 'completed', tool: 'status', type: 'mcp_tool_call'}), type: 'item.completed'})
    expect(events).toContainEqual({item: expect.objectContaining({text: 'done', type: 'agent_message'}), type: 'item.completed'})
  })

  /** A project and HOME of their own, with `bin`'s server registered by `mcp config --client codex --write` (and `config`). */
  async function registered(name: string, bin: string, config: string[] = []) {
    const project = join(space, name, 'project')
    const home = join(space, name, 'home')
    mkdirSync(project, {recursive: true})
    mkdirSync(home)
    const env = {CODEX_HOME: join(home, '.codex'), HOME: home, PATH: process.env.PATH ?? '', XDG_CACHE_HOME: join(home, 'cache'), XDG_CONFIG_HOME: join(home, 'config')}
    expect((await runCli(process.execPath, [bin, 'mcp', 'config', '--client', 'codex', '--write', ...config], env, project)).code).toBe(0)
    return {env, project}
  }

  /** What the model got back from its last tool call: Codex's wall-time line, then the JSON of structuredContent. */
  const lastOutput = (turn: {bodies: Record<string, unknown>[]}) => items(turn.bodies.at(-1)!).filter((item) => item.type === 'function_call_output').at(-1)?.output as string

  it('hands the model a cut result whole, within what it keeps, the notice and the call that reads on first', async () => {
    const {env, project} = await registered('cut', FAULTY)
    const turn = await codexTurn('Show me the lines.', [{input: {kib: 2048}, namespace: 'mcp__faulty', tool: 'lines'}], {env, project})
    expect(turn.code).toBe(0)
    const output = lastOutput(turn)
    // The server cut the 2 MiB to its budget for Codex; Codex cut nothing more (it marks a cut "…N tokens truncated…").
    expect(output).toMatch(/^Wall time: [\d.]+ seconds\nOutput:\n\{"cut":\{"message":"Cut to fit what the host shows: only the head and the tail of stdout are shown/)
    expect(output).toMatch(/"read":\[\{"arguments":\{"output":"[^"]+","stream":"stdout","offset":\d+\},"tool":"read_output"\}\]/)
    expect(output).not.toMatch(/tokens truncated/)
    expect(output).toContain('out line 0032768 ')
  })

  it('hands the model the call that follows a job', async () => {
    const {env, project} = await registered('job', TASKBOX, ['--foreground', '1', '--cwd', '.'])
    writeFileSync(join(project, '.taskbox.json'), JSON.stringify({name: 'p', nextId: 1, tasks: []}))
    const turn = await codexTurn('Make the weekly report.', [{input: {delay: 30}, namespace: 'mcp__taskbox', tool: 'report_weekly'}], {env, project})
    expect(turn.code).toBe(0)
    const json = JSON.parse(lastOutput(turn).replace(/^[\s\S]*?\nOutput:\n/, '')) as Record<string, unknown>
    expect(Object.keys(json).slice(0, 3)).toEqual(['message', 'next', 'cancel'])
    expect(json.message).toMatch(/^Job \S+ is running .* Follow it with job_status \{"job": /)
    expect(json.next).toEqual({arguments: {cursor: expect.stringMatching(/^\d+\.\d+$/), job: expect.any(String), wait: 50}, tool: 'job_status'})
  })
})
