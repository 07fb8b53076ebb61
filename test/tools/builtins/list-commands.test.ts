// list_commands (src/tools/builtins/list-commands.ts), called directly on plans of the example CLI: every command
// inside the boundary, by topic or by words, each saying whether the caller's host lists it and under which name.
import type {Config} from '@oclif/core'

import {beforeAll, describe, expect, it} from '@jest/globals'

import type {ServerPlan} from '../../../src/mcp/plan.js'

import {BUILTIN_HINTS} from '../../../src/tools/builtins/builtin-tool.js'
import {listCommandsTool} from '../../../src/tools/builtins/list-commands.js'
import {accepts, callBuiltin, commandOf, dataOf, fencedOf, listingOfCommands, loadTaskbox, scopeOf, taskboxPlan} from '../../helpers/builtins.js'

interface Entry {
  annotations: Record<string, boolean>
  id: string
  listed: boolean
  summary: string
  tool: null | string
  topic: string
}

const ALL = ['init', 'report weekly', 'status', 'sync', 'tasks add', 'tasks clear', 'tasks done', 'tasks list', 'tasks remove', 'tasks show']
const TASKS = ['tasks add', 'tasks clear', 'tasks done', 'tasks list', 'tasks remove', 'tasks show']

let config: Config
let plan: ServerPlan

beforeAll(async () => {
  config = await loadTaskbox()
  plan = taskboxPlan(config)
})

const entries = (result: Awaited<ReturnType<typeof callBuiltin>>) => dataOf(result).commands as Entry[]
const ids = (result: Awaited<ReturnType<typeof callBuiltin>>) => entries(result).map((entry) => entry.id)

describe('list_commands', () => {
  it('takes an optional topic and optional words, nothing else, and only reads', () => {
    const tool = listCommandsTool(scopeOf(plan))
    for (const input of [{}, {topic: 'tasks'}, {query: 'add'}, {query: 'add', topic: 'tasks'}]) expect(accepts(tool, input)).toBe(true)
    for (const input of [{topic: 1}, {query: ['add']}, {limit: 5}]) expect(accepts(tool, input)).toBe(false)
    expect(tool.annotations).toEqual({...BUILTIN_HINTS, title: 'List commands'})
  })

  it('lists every command in reach with its annotations, id, summary, tool name and topic', async () => {
    const result = await callBuiltin(listCommandsTool(scopeOf(plan)))
    expect(ids(result)).toEqual(ALL)
    const list = commandOf(plan, 'tasks:list')
    expect(entries(result).find((entry) => entry.id === 'tasks list')).toEqual({
      annotations: list.hints,
      id: 'tasks list',
      listed: true,
      summary: 'List tasks, most urgent first.',
      tool: 'tasks_list',
      topic: 'tasks',
    })
    expect(entries(result).find((entry) => entry.id === 'init')).toMatchObject({listed: true, tool: 'init', topic: ''})
    expect(entries(result).find((entry) => entry.id === 'report weekly')).toMatchObject({tool: 'report_weekly', topic: 'report'})
    const {data, summary} = fencedOf(result)
    expect(summary).toBe('10 of 10 commands (listed: false means run it with run_command)')
    expect(data).toEqual(dataOf(result))
    // What is outside the boundary is not there.
    expect(JSON.stringify(result)).not.toMatch(/debug|mcp/)
  })

  it('narrows to a topic, written with spaces or colons, or to one command', async () => {
    const tool = listCommandsTool(scopeOf(plan))
    expect(ids(await callBuiltin(tool, {topic: 'tasks'}))).toEqual(TASKS)
    expect(ids(await callBuiltin(tool, {topic: ' report '}))).toEqual(['report weekly'])
    expect(ids(await callBuiltin(tool, {topic: 'tasks add'}))).toEqual(['tasks add'])
    expect(ids(await callBuiltin(tool, {topic: 'tasks:add'}))).toEqual(['tasks add'])
    expect(ids(await callBuiltin(tool, {topic: 'tasks  add'}))).toEqual(['tasks add'])
    // A topic is a whole word of the id, not its beginning.
    const partial = await callBuiltin(tool, {topic: 'task'})
    expect(ids(partial)).toEqual([])
    expect(fencedOf(partial).summary).toBe('0 of 10 commands (listed: false means run it with run_command)')
  })

  it('keeps the commands whose id or summary holds every word, in any case', async () => {
    const tool = listCommandsTool(scopeOf(plan))
    // "task list" is in the summaries of init and sync too ("Start a task list…", "Upload the task list…").
    expect(ids(await callBuiltin(tool, {query: 'TASK  List'}))).toEqual(['init', 'sync', 'tasks list'])
    expect(ids(await callBuiltin(tool, {query: 'weekly report'}))).toEqual(['report weekly'])
    expect(ids(await callBuiltin(tool, {query: 'delete', topic: 'tasks'}))).toEqual(['tasks clear', 'tasks remove'])
    expect(ids(await callBuiltin(tool, {query: 'delete', topic: 'report'}))).toEqual([])
    // Words only in a command's description (not its summary) do not count.
    expect(ids(await callBuiltin(tool, {query: 'TASKBOX_SYNC_URL'}))).toEqual([])
    expect(ids(await callBuiltin(tool, {query: '   '}))).toEqual(ALL)
  })

  it("marks listed and tool from the caller's host listing: the others are run with run_command", async () => {
    const listed = [commandOf(plan, 'status'), commandOf(plan, 'tasks:list')]
    const tool = listCommandsTool({...scopeOf(plan), listingOf: () => listingOfCommands(listed)})
    const result = entries(await callBuiltin(tool))
    expect(result.filter((entry) => entry.listed).map((entry) => [entry.id, entry.tool])).toEqual([
      ['status', 'status'],
      ['tasks list', 'tasks_list'],
    ])
    for (const entry of result.filter((e) => !e.listed)) expect(entry.tool).toBeNull()
    expect(result).toHaveLength(10)
  })

  it('on a read-only server lists the read-only commands only', async () => {
    const tool = listCommandsTool(scopeOf(taskboxPlan(config, {'read-only': true})))
    const result = await callBuiltin(tool)
    expect(ids(result)).toEqual(['report weekly', 'status', 'tasks list', 'tasks show'])
    expect(fencedOf(result).summary).toBe('4 of 4 commands (listed: false means run it with run_command)')
    expect(ids(await callBuiltin(tool, {query: 'add'}))).toEqual([])
  })
})
