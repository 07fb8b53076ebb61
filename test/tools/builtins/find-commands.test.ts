// find_commands (src/tools/builtins/find-commands.ts), called directly on plans of the example CLI: ranked hits
// among the commands in reach, pages joined by nextCursor, a cursor of another query refused, and each hit saying
// whether the caller's host lists it.
import type {Config} from '@oclif/core'

import {beforeAll, describe, expect, it} from '@jest/globals'

import type {ServerPlan} from '../../../src/mcp/plan.js'

import {BUILTIN_HINTS} from '../../../src/tools/builtins/builtin-tool.js'
import {findCommandsTool} from '../../../src/tools/builtins/find-commands.js'
import {accepts, callBuiltin, commandOf, dataOf, fencedOf, listingOfCommands, loadTaskbox, scopeOf, taskboxPlan, textsOf} from '../../helpers/builtins.js'

interface Hit {
  annotations: Record<string, boolean>
  id: string
  listed: boolean
  summary: string
  tool: null | string
}

interface Page {
  hits: Hit[]
  nextCursor: null | string
  total: number
}

const WRONG_CURSOR = 'That cursor does not belong to this query; search again without a cursor.'

let config: Config
let plan: ServerPlan

beforeAll(async () => {
  config = await loadTaskbox()
  plan = taskboxPlan(config)
})

const pageOf = (result: Awaited<ReturnType<typeof callBuiltin>>) => dataOf(result) as unknown as Page
const idsOf = (page: Page) => page.hits.map((hit) => hit.id)

describe('find_commands', () => {
  it('takes a query of 1 to 500 characters, a limit of 1 to 50 and a cursor, nothing else, and only reads', () => {
    const tool = findCommandsTool(scopeOf(plan))
    for (const input of [{query: 'add'}, {limit: 1, query: 'a'.repeat(500)}, {cursor: 'abc', limit: 50, query: 'add'}]) expect(accepts(tool, input)).toBe(true)
    for (const input of [{}, {query: ''}, {query: 'a'.repeat(501)}, {limit: 0, query: 'add'}, {limit: 51, query: 'add'}, {limit: 1.5, query: 'add'}, {cursor: 'c'.repeat(201), query: 'add'}, {query: 'add', topic: 'tasks'}]) {
      expect(accepts(tool, input)).toBe(false)
    }

    expect(tool.annotations).toEqual({...BUILTIN_HINTS, title: 'Find commands'})
  })

  it('ranks the command that does the task first, and gives each hit its annotations, summary and tool name', async () => {
    const tool = findCommandsTool(scopeOf(plan))
    const add = pageOf(await callBuiltin(tool, {query: 'add a new task'}))
    expect(add.hits[0]).toEqual({annotations: commandOf(plan, 'tasks:add').hints, id: 'tasks add', listed: true, summary: 'Add a task.', tool: 'tasks_add'})
    expect(idsOf(pageOf(await callBuiltin(tool, {query: 'delete a task'}))).slice(0, 2)).toEqual(['tasks remove', 'tasks clear'])
    expect(idsOf(pageOf(await callBuiltin(tool, {query: 'weekly report'})))).toEqual(['report weekly'])
    expect(idsOf(pageOf(await callBuiltin(tool, {query: 'upload'})))).toEqual(['sync'])

    const result = await callBuiltin(tool, {query: 'upload'})
    const {data, summary} = fencedOf(result)
    expect(summary).toBe('1 matching command(s); showing 1 from 1')
    expect(data).toEqual({hits: pageOf(result).hits, nextCursor: null, total: 1})
  })

  it('pages with nextCursor: the pages join to the whole list, once each, and the last has no cursor', async () => {
    const tool = findCommandsTool(scopeOf(plan))
    const whole = pageOf(await callBuiltin(tool, {limit: 50, query: 'tasks'}))
    expect(whole.total).toBe(9)
    expect(whole.nextCursor).toBeNull()
    // The default page (10) holds all nine.
    expect(pageOf(await callBuiltin(tool, {query: 'tasks'}))).toEqual(whole)

    const first = await callBuiltin(tool, {limit: 4, query: 'tasks'})
    expect(fencedOf(first).summary).toBe('9 matching command(s); showing 4 from 1')
    const second = await callBuiltin(tool, {cursor: pageOf(first).nextCursor, limit: 4, query: 'tasks'})
    expect(fencedOf(second).summary).toBe('9 matching command(s); showing 4 from 5')
    const third = await callBuiltin(tool, {cursor: pageOf(second).nextCursor, limit: 4, query: 'tasks'})
    expect(fencedOf(third).summary).toBe('9 matching command(s); showing 1 from 9')
    for (const page of [first, second]) expect(pageOf(page).nextCursor).toEqual(expect.any(String))
    expect(pageOf(third).nextCursor).toBeNull()
    expect([first, second, third].flatMap((page) => idsOf(pageOf(page)))).toEqual(idsOf(whole))
    // The cursor is the query's (its case and surrounding spaces aside): the limit may change from page to page.
    const rest = pageOf(await callBuiltin(tool, {cursor: pageOf(first).nextCursor, limit: 50, query: '  TASKS '}))
    expect(idsOf(rest)).toEqual(idsOf(whole).slice(4))
    expect(rest.nextCursor).toBeNull()
  })

  it('refuses a cursor of another query, or one it never gave, and answers nothing else', async () => {
    const tool = findCommandsTool(scopeOf(plan))
    const {nextCursor} = pageOf(await callBuiltin(tool, {limit: 2, query: 'tasks'}))
    // The same query's cursor, its offset made one it never gives.
    const own = JSON.parse(Buffer.from(nextCursor!, 'base64url').toString('utf8')) as {o: number; q: string}
    expect(own.o).toBe(2)
    const forged = (o: unknown) => Buffer.from(JSON.stringify({...own, o})).toString('base64url')
    expect(idsOf(pageOf(await callBuiltin(tool, {cursor: forged(3), query: 'tasks'})))[0]).toBe(idsOf(pageOf(await callBuiltin(tool, {query: 'tasks'})))[3])
    for (const [cursor, query] of [
      [nextCursor, 'delete a task'],
      ['not a cursor', 'tasks'],
      [forged(-2), 'tasks'],
      [forged(1.5), 'tasks'],
      [forged('2'), 'tasks'],
    ]) {
      expect(await callBuiltin(tool, {cursor, query})).toEqual({content: [{text: WRONG_CURSOR, type: 'text'}], isError: true})
    }
  })

  it('finds nothing for words no command has', async () => {
    const result = await callBuiltin(findCommandsTool(scopeOf(plan)), {query: 'zzzz'})
    expect(result.isError).toBeUndefined()
    expect(dataOf(result)).toEqual({hits: [], nextCursor: null, total: 0})
  })

  it("marks listed and tool from the caller's host listing: the others are described and run with run_command", async () => {
    const tool = findCommandsTool({...scopeOf(plan), listingOf: () => listingOfCommands([commandOf(plan, 'tasks:remove')])})
    const hits = pageOf(await callBuiltin(tool, {query: 'delete a task'})).hits
    expect(hits.map((hit) => [hit.id, hit.listed, hit.tool])).toEqual([
      ['tasks remove', true, 'tasks_remove'],
      ...hits.slice(1).map((hit) => [hit.id, false, null]),
    ])
    expect(hits.length).toBeGreaterThan(1)
  })

  it('on a read-only server finds no writing command, whatever the words', async () => {
    const tool = findCommandsTool(scopeOf(taskboxPlan(config, {'read-only': true})))
    expect(pageOf(await callBuiltin(tool, {query: 'add'}))).toEqual({hits: [], nextCursor: null, total: 0})
    expect(idsOf(pageOf(await callBuiltin(tool, {query: 'tasks'}))).sort()).toEqual(['status', 'tasks list', 'tasks show'])
    expect(textsOf(await callBuiltin(tool, {query: 'upload the task list'}))).not.toContain('sync')
  })
})
