// describe_command (src/tools/builtins/describe-command.ts), called directly on plans of the example CLI: one command
// in full with the definitionHash run_command needs, and the one answer for a command that is unknown or outside the
// boundary (hidden, the server's own, a writing command on a read-only server), which cannot be told apart.
import type {Config} from '@oclif/core'

import {beforeAll, describe, expect, it} from '@jest/globals'

import type {ServerPlan} from '../../../src/mcp/plan.js'

import {BUILTIN_HINTS} from '../../../src/tools/builtins/builtin-tool.js'
import {describeCommandTool} from '../../../src/tools/builtins/describe-command.js'
import {definitionHash} from '../../../src/tools/catalog/definition-hash.js'
import {accepts, callBuiltin, commandOf, dataOf, fencedOf, listingOfCommands, loadTaskbox, scopeOf, taskboxPlan, textsOf} from '../../helpers/builtins.js'

let config: Config
let plan: ServerPlan
let readOnly: ServerPlan

beforeAll(async () => {
  config = await loadTaskbox()
  plan = taskboxPlan(config)
  readOnly = taskboxPlan(config, {'read-only': true})
})

/** What an answer says, the command's name in it made a placeholder: two answers for two names compared as one. */
const shape = async (tool: ReturnType<typeof describeCommandTool>, command: string) => {
  const result = await callBuiltin(tool, {command})
  return {...result, content: [{text: textsOf(result).replaceAll(`"${command}"`, '"…"'), type: 'text' as const}]}
}

describe('describe_command', () => {
  it('takes one command name, nothing else, and only reads', () => {
    const tool = describeCommandTool(scopeOf(plan))
    expect(accepts(tool, {command: 'tasks add'})).toBe(true)
    for (const input of [{}, {command: ''}, {command: 3}, {command: 'tasks add', verbose: true}]) expect(accepts(tool, input)).toBe(false)
    expect(tool.annotations).toEqual({...BUILTIN_HINTS, title: 'Describe a command'})
  })

  it('describes a listed command in full, with its definitionHash', async () => {
    const add = commandOf(plan, 'tasks:add')
    const result = await callBuiltin(describeCommandTool(scopeOf(plan)), {command: 'tasks add'})
    expect(result.isError).toBeUndefined()
    const data = dataOf(result)
    expect(data).toMatchObject({
      aliases: [],
      annotations: add.hints,
      args: [{description: 'What needs doing.', name: 'title', required: true}],
      definitionHash: definitionHash(add),
      description: 'Add a task.',
      examples: ['taskbox tasks add "Write the release notes" --priority 2 --tag docs --tag release', 'taskbox tasks add "Call the plumber" --assignee sam --notify'],
      foregroundSeconds: 45,
      id: 'tasks add',
      jsonOutput: true,
      listed: true,
      plugin: 'taskbox',
      summary: 'Add a task.',
      timeoutSeconds: 1800,
      tool: 'tasks_add',
    })
    expect(data.definitionHash).toMatch(/^sha256:[0-9a-f]{32}$/)
    const schema = data.inputSchema as {properties: Record<string, unknown>; required: string[]}
    expect(schema.required).toEqual(['title'])
    expect(Object.keys(schema.properties)).toEqual(['priority', 'tag', 'due', 'assignee', 'unassigned', 'notify', 'title', 'cwd', 'idempotencyKey'])
    const {data: fenced, summary} = fencedOf(result)
    expect(summary).toBe('taskbox tasks add: call the tool tasks_add')
    expect(fenced).toEqual(data)
  })

  it('finds a command by its id with a colon, with spaces, or by its tool name, the same each way', async () => {
    const tool = describeCommandTool(scopeOf(plan))
    const expected = dataOf(await callBuiltin(tool, {command: 'tasks add'}))
    for (const command of ['tasks:add', 'tasks_add', '  tasks   add ']) expect(dataOf(await callBuiltin(tool, {command}))).toEqual(expected)
    const remove = dataOf(await callBuiltin(tool, {command: 'tasks remove'}))
    expect(remove.aliases).toEqual(['tasks rm'])
    // An alias it reports finds the command too, spelled either way.
    for (const command of ['tasks rm', 'tasks:rm']) expect(dataOf(await callBuiltin(tool, {command}))).toEqual(remove)
  })

  it("lists only the flags its tool takes: --json, which the server passes itself, is not one", async () => {
    const data = dataOf(await callBuiltin(describeCommandTool(scopeOf(plan)), {command: 'tasks list'}))
    const flags = (data.flags as {name: string}[]).map((flag) => flag.name)
    const properties = Object.keys((data.inputSchema as {properties: Record<string, unknown>}).properties)
    expect(flags).not.toContain('json')
    expect(flags.length).toBeGreaterThan(0)
    expect(flags.filter((flag) => !properties.includes(flag))).toEqual([])
  })

  it('says to use run_command, with the hash, for a command the host does not list', async () => {
    const tool = describeCommandTool({...scopeOf(plan), listingOf: () => listingOfCommands([commandOf(plan, 'status')])})
    const add = await callBuiltin(tool, {command: 'tasks add'})
    expect(fencedOf(add).summary).toBe('taskbox tasks add: run it with run_command, passing this definitionHash')
    expect(dataOf(add)).toMatchObject({definitionHash: definitionHash(commandOf(plan, 'tasks:add')), listed: false, tool: null})
    const status = await callBuiltin(tool, {command: 'status'})
    expect(fencedOf(status).summary).toBe('taskbox status: call the tool status')
    expect(dataOf(status)).toMatchObject({listed: true, tool: 'status'})
  })

  it('answers an unknown command with an error naming close commands in reach, and nothing else', async () => {
    const tool = describeCommandTool(scopeOf(plan))
    const result = await callBuiltin(tool, {command: 'tasks adx'})
    expect(result).toEqual({
      content: [{text: 'No command "tasks adx". Did you mean: tasks add, tasks done, tasks list, tasks show, tasks clear?', type: 'text'}],
      isError: true,
    })
    expect(textsOf(await callBuiltin(tool, {command: 'nothing'}))).toBe('No command "nothing". Use find_commands or list_commands to see what there is.')
  })

  it("answers a hidden command and the server's own exactly like unknown ones", async () => {
    const tool = describeCommandTool(scopeOf(plan))
    const unknown = await shape(tool, 'debug dumx')
    expect(textsOf(unknown)).toBe('No command "…". Use find_commands or list_commands to see what there is.')
    expect(await shape(tool, 'debug dump')).toEqual(unknown)
    expect(await shape(tool, 'debug:dump')).toEqual(unknown)
    expect(await shape(tool, 'mcp stdio')).toEqual(unknown)
  })

  it('on a read-only server answers a writing command exactly like an unknown one, suggesting only commands in reach', async () => {
    const tool = describeCommandTool(scopeOf(readOnly))
    expect(await shape(tool, 'init')).toEqual(await shape(tool, 'inix'))
    expect(textsOf(await callBuiltin(tool, {command: 'init'}))).toBe('No command "init". Use find_commands or list_commands to see what there is.')
    const unknown = await shape(tool, 'tasks adx')
    expect(textsOf(unknown)).toBe('No command "…". Did you mean: tasks list, tasks show?')
    for (const command of ['tasks add', 'tasks:add', 'tasks_add', 'tasks clear']) expect(await shape(tool, command)).toEqual(unknown)
    // A read-only command is described as on any server.
    expect(dataOf(await callBuiltin(tool, {command: 'tasks list'}))).toMatchObject({id: 'tasks list', listed: true, tool: 'tasks_list'})
  })
})
