// read_output (src/tools/builtins/read-output.ts), called directly with a real call environment whose results are
// small (max-result-tokens 1000: 3,000 characters): real taskbox commands print more than that, their results are cut
// and their whole output kept, and read_output gives it back page after page. A request that may only read, and
// another person, are told a writing command's output does not exist.
import type {Config} from '@oclif/core'

import {afterAll, beforeAll, describe, expect, it} from '@jest/globals'
import {mkdirSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'

import type {CallEnvironment} from '../../../src/tools/execution/call-environment.js'
import type {CallContext} from '../../../src/tools/execution/pipeline.js'

import {callEnvironmentFor} from '../../../src/mcp/lifecycle.js'
import {readOnlyPlan, type ServerPlan} from '../../../src/mcp/plan.js'
import {resultBudget, UNKNOWN_HOST} from '../../../src/settings/agent-hosts.js'
import {BUILTIN_HINTS} from '../../../src/tools/builtins/builtin-tool.js'
import {processesIn} from '../../helpers/processes.js'
import {accepts, builtinOf, callBuiltin, dataOf, loadTaskbox, taskboxPlan, textsOf} from '../../helpers/builtins.js'
import {scratch} from '../../helpers/taskbox.js'

interface Page {
  live: boolean
  message: string
  next: null | {arguments: Record<string, unknown>; tool: string}
  nextOffset: null | number
  offset: number
  output: string
  stream: string
  text: string
  total: number
}

interface Task {
  assignee: null
  done: boolean
  due: null
  id: number
  priority: number
  tags: string[]
  title: string
}

/** What every page may hold: the result budget less the room for its header and fields (read-output.ts). */
const PAGE = 3000 - 1000

const unknownOutput = (id: string) => ({
  content: [{text: `No output "${id}" is kept in this server: it was never kept here, has been evicted to make room for newer ones, or belonged to a server process that has since stopped.`, type: 'text'}],
  isError: true,
  structuredContent: {code: 'UNKNOWN_OUTPUT', output: id},
})

const space = scratch('read-output-')
let config: Config
let plan: ServerPlan
let reading: ServerPlan
let env: CallEnvironment
/** Eighty tasks, as tasks list --status all gives them (most urgent first). */
const tasks: Task[] = Array.from({length: 80}, (_, i) => ({
  assignee: null,
  done: i % 3 === 0,
  due: null,
  id: i + 1,
  priority: (i % 5) + 1,
  tags: i % 2 === 0 ? ['docs', 'release'] : [],
  title: `Task number ${i + 1}: "quoted" words, a tab\tand an accent é to escape`,
}))
const listed = [...tasks].sort((a, b) => a.priority - b.priority || a.id - b.id)

/** The kept output of a real run whose result was cut: the run's principal owns it. */
let bigList: {commandLine: string; id: string; size: number}
let bigInit: {id: string; name: string}

beforeAll(async () => {
  config = await loadTaskbox()
  plan = taskboxPlan(config, {'max-result-tokens': 1000})
  reading = readOnlyPlan(plan)
  env = callEnvironmentFor(plan)
  expect(resultBudget(plan.settings.maxResultTokens, UNKNOWN_HOST)).toBe(3000)

  const run = async (command: string, args: Record<string, unknown>, context: CallContext) => {
    const {definitionHash} = dataOf(await callBuiltin(builtinOf(plan, 'describe_command'), {command}))
    const result = await callBuiltin(builtinOf(plan, 'run_command'), {arguments: args, command, expectedDefinitionHash: definitionHash}, context, env)
    expect(result.isError).toBeUndefined()
    return result
  }

  // A read-only command, run by nobody in particular.
  const listing = join(space.dir, 'listing')
  mkdirSync(listing)
  writeFileSync(join(listing, '.taskbox.json'), JSON.stringify({name: 'big', nextId: 81, tasks}))
  const list = await run('tasks list', {cwd: listing, limit: 100, status: 'all'}, {})
  const output = dataOf(list).output as {id: string; stderr: number; stdout: number}
  expect(output).toEqual({id: expect.any(String), stderr: 0, stdout: expect.any(Number)})
  expect(textsOf(list)).toContain(`read_output {"output": "${output.id}", "stream": "stdout"}`)
  bigList = {commandLine: textsOf(list).split('\n')[0].slice(2), id: output.id, size: output.stdout}

  // A writing command, run by one person: a list whose name alone is too long for one result.
  const fresh = join(space.dir, 'fresh')
  mkdirSync(fresh)
  const name = 'n'.repeat(4000)
  const init = await run('init', {cwd: fresh, name}, {principal: 'pat'})
  bigInit = {id: (dataOf(init).output as {id: string}).id, name}
})

afterAll(async () => {
  await env?.dispose()
  expect(processesIn(space.dir)).toEqual([])
  space.cleanup()
})

const read = (input: Record<string, unknown>, context: CallContext = {}, from = plan) => callBuiltin(builtinOf(from, 'read_output'), input, context, env)
const pageOf = (result: Awaited<ReturnType<typeof read>>) => dataOf(result) as unknown as Page

/** Every page of a kept stream, following nextOffset from the start. */
async function allPages(id: string, context: CallContext = {}, from = plan): Promise<Page[]> {
  const pages: Page[] = []
  let offset: null | number = 0
  while (offset !== null) {
    const result = await read({offset, output: id}, context, from)
    expect(result.isError).toBeUndefined()
    const page = pageOf(result)
    expect(textsOf(result)).toBe(`[${page.message}]\n${page.text}`)
    pages.push(page)
    offset = page.nextOffset
  }

  return pages
}

describe('read_output', () => {
  it('takes an output id, an offset, a length and a stream, nothing else, and only reads', () => {
    const tool = builtinOf(plan, 'read_output')
    for (const input of [{output: 'abc'}, {length: 1, offset: 0, output: 'abc', stream: 'stderr'}, {output: 'o'.repeat(64), stream: 'stdout'}]) expect(accepts(tool, input)).toBe(true)
    for (const input of [{}, {output: ''}, {output: 'o'.repeat(65)}, {offset: -1, output: 'abc'}, {length: 0, output: 'abc'}, {output: 'abc', stream: 'both'}, {job: 'abc', output: 'abc'}]) {
      expect(accepts(tool, input)).toBe(false)
    }

    expect(tool.annotations).toEqual({...BUILTIN_HINTS, title: 'Read a command output'})
  })

  it('answers an id it does not keep with UNKNOWN_OUTPUT', async () => {
    expect(await read({output: 'nope'})).toEqual(unknownOutput('nope'))
    expect(await read({offset: 10, output: 'nope', stream: 'stderr'})).toEqual(unknownOutput('nope'))
  })

  it('reads a cut output whole, in pages as full as the budget allows, joined by nextOffset', async () => {
    const pages = await allPages(bigList.id)
    const whole = pages.map((page) => page.text).join('')
    // Exactly what the command printed: its JSON answer, every task in it.
    expect(whole).toHaveLength(bigList.size)
    expect(JSON.parse(whole)).toEqual({name: 'big', tasks: listed})
    expect(pages.length).toBeGreaterThan(Math.ceil(bigList.size / PAGE) - 1)
    for (const [i, page] of pages.entries()) {
      const end = page.offset + page.text.length
      expect(page).toMatchObject({live: false, output: bigList.id, stream: 'stdout', total: bigList.size})
      // Each page's JSON fits the page; all but the last are as long as that allows (a character more would not fit).
      expect(Buffer.byteLength(JSON.stringify(page.text))).toBeLessThanOrEqual(PAGE)
      if (i < pages.length - 1) {
        expect(Buffer.byteLength(JSON.stringify(whole.slice(page.offset, end + 1)))).toBeGreaterThan(PAGE)
        expect(page.nextOffset).toBe(end)
        expect(page.next).toEqual({arguments: {offset: end, output: bigList.id, stream: 'stdout'}, tool: 'read_output'})
        expect(page.message).toBe(`stdout of ${bigList.commandLine}: characters ${page.offset}–${end} of ${bigList.size}. Next page: read_output {"output": "${bigList.id}", "stream": "stdout", "offset": ${end}}.`)
      } else {
        expect(page).toMatchObject({next: null, nextOffset: null})
        expect(page.message).toBe(`stdout of ${bigList.commandLine}: characters ${page.offset}–${bigList.size} of ${bigList.size}. That is the end.`)
      }
    }
  })

  it('reads a chosen length from a chosen offset, an empty stream, and nothing past the end', async () => {
    const whole = (await allPages(bigList.id)).map((page) => page.text).join('')
    const part = pageOf(await read({length: 100, offset: 500, output: bigList.id}))
    expect(part).toMatchObject({nextOffset: 600, offset: 500, text: whole.slice(500, 600)})
    // A length past what one page holds is held to the page.
    expect(Buffer.byteLength(JSON.stringify(pageOf(await read({length: 1_000_000, output: bigList.id})).text))).toBeLessThanOrEqual(PAGE)
    expect(pageOf(await read({output: bigList.id, stream: 'stderr'}))).toMatchObject({next: null, nextOffset: null, offset: 0, stream: 'stderr', text: '', total: 0})
    expect(pageOf(await read({offset: 10 * bigList.size, output: bigList.id}))).toMatchObject({nextOffset: null, offset: bigList.size, text: ''})
  })

  it("keeps a person's output theirs: anyone else is told it does not exist", async () => {
    const mine = (await allPages(bigInit.id, {principal: 'pat'})).map((page) => page.text).join('')
    expect(JSON.parse(mine)).toMatchObject({name: bigInit.name})
    expect(await read({output: bigInit.id}, {principal: 'sam'})).toEqual(unknownOutput(bigInit.id))
    expect(await read({output: bigInit.id})).toEqual(unknownOutput(bigInit.id))
  })

  it("to a request that may only read, answers a writing command's output as one never kept, and reads a read-only one's", async () => {
    expect(await read({output: bigInit.id}, {principal: 'pat', readOnly: true}, reading)).toEqual(unknownOutput(bigInit.id))
    const pages = await allPages(bigList.id, {readOnly: true}, reading)
    expect(JSON.parse(pages.map((page) => page.text).join(''))).toEqual({name: 'big', tasks: listed})
  })
})
