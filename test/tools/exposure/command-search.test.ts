import {afterAll, beforeAll, describe, expect, it} from '@jest/globals'
import {Config} from '@oclif/core'
import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join, resolve} from 'node:path'

import {parseAuthorConfig} from '../../../src/settings/author-config.js'
import {resolveSettings} from '../../../src/settings/settings.js'
import {buildRegistry, type Registry} from '../../../src/tools/catalog/registry.js'
import {buildCommandIndex, type CommandIndex} from '../../../src/tools/exposure/command-search.js'
import {generateCli} from '../../fixtures/generate-cli.js'

const TASKBOX = resolve(import.meta.dirname, '../../../examples/taskbox')
const settings = resolveSettings(parseAuthorConfig({}), {})

let taskbox: Registry
let index: CommandIndex
let scaleRoot: string
let scale: Registry

beforeAll(async () => {
  taskbox = buildRegistry(await Config.load(TASKBOX), settings)
  index = buildCommandIndex(taskbox.tools)
  scaleRoot = mkdtempSync(join(tmpdir(), 'search-scale-'))
  generateCli(scaleRoot)
  scale = buildRegistry(await Config.load(scaleRoot), settings)
})

afterAll(() => {
  if (scaleRoot) rmSync(scaleRoot, {force: true, recursive: true})
})

const ids = (query: string, on: CommandIndex = index) => on.search(query).map((m) => m.tool.id)

describe('what the query asks for', () => {
  // tasks:clear and tasks:remove are named for destroying (`clear`, `remove`).
  const destroying = new Set(['tasks:clear', 'tasks:remove'])

  it.each(['every done task', 'a task for good', 'tasks', 'done tasks'])(
    '%j asks to destroy nothing: no command named to destroy comes before any other match',
    (query) => {
      const ranked = ids(query)
      const firstDestroying = ranked.findIndex((id) => destroying.has(id))
      const lastOther = ranked.findLastIndex((id) => !destroying.has(id))
      // Each of these queries matches a command named to destroy: it must come after every other match.
      expect(firstDestroying).not.toBe(-1)
      expect(firstDestroying).toBeGreaterThan(lastOther)
    },
  )

  it('finds the command named to destroy first when the query asks to destroy', () => {
    expect(ids('wipe every done task')[0]).toBe('tasks:clear')
    expect(ids('delete a task for good')[0]).toBe('tasks:remove')
  })

  it('scores read-only commands higher when the query\'s first verb reads', () => {
    const ratio = (query: string) => {
      const score = (id: string) => index.search(query).find((m) => m.tool.id === id)!.score
      return score('tasks:list') / score('tasks:add')
    }

    // Asked as a read, the read-only command gains half its score again (and whatever "see" itself reaches).
    expect(ratio('see tasks') / ratio('tasks')).toBeGreaterThanOrEqual(1.5)
    // Asked as a change, it gains nothing.
    expect(ratio('add tasks')).toBeLessThan(ratio('tasks'))
  })
})

describe('ranking the example CLI', () => {
  it.each([
    ['add a task', 'tasks:add'],
    ['create a new task due friday', 'tasks:add'],
    ['list tasks tagged docs', 'tasks:list'],
    ['ls tasks', 'tasks:list'],
    ['mark task 3 as done', 'tasks:done'],
    ['complete a task', 'tasks:done'],
    ['finished a task', 'tasks:done'],
    ['delete a task', 'tasks:remove'],
    ['destroy a task', 'tasks:remove'],
    ['display task 4', 'tasks:show'],
    ['clean up done tasks', 'tasks:clear'],
    ['start a task list in this folder', 'init'],
    ['weekly report', 'report:weekly'],
    ['upload to the team server', 'sync'],
    ['push my tasks to the server', 'sync'],
  ])('%j finds %s first', (query, id) => {
    expect(ids(query)[0]).toBe(id)
  })

  it('ranks a word of the id above the same word in a summary', () => {
    // tasks:remove is named `remove`; tasks:clear only says "Delete every done task" in its summary.
    const ranked = ids('remove a task')
    expect(ranked[0]).toBe('tasks:remove')
    expect(ranked.indexOf('tasks:remove')).toBeLessThan(ranked.indexOf('tasks:clear'))
  })

  it('puts the command a query spells out first, however it is spelled', () => {
    for (const tool of taskbox.tools) {
      for (const spelling of [tool.id, tool.displayId, tool.name, ` ${tool.id.toUpperCase()} `]) {
        const [first, second] = index.search(spelling)
        expect({spelling, id: first.tool.id}).toEqual({spelling, id: tool.id})
        if (second) expect(first.score).toBeGreaterThan(second.score)
      }
    }
  })

  it('matches nothing for an empty query or one made only of stop words', () => {
    expect(index.search('')).toEqual([])
    expect(index.search('  how do I  ')).toEqual([])
    expect(index.search('zzyzx')).toEqual([])
  })
})

describe('results over a generated CLI with hundreds of commands', () => {
  let big: CommandIndex
  beforeAll(() => {
    big = buildCommandIndex(scale.tools)
  })

  it('returns every match, best first, equal scores in id order (commands named to destroy after the others)', () => {
    const results = big.search('create a record')
    expect(results.length).toBeGreaterThan(100)
    expect(new Set(results.map((r) => r.tool.id)).size).toBe(results.length)
    const destroys = (r: (typeof results)[number]) => r.tool.hints.destructiveHint && r.tool.hintSource === 'verb'
    const others = results.filter((r) => !destroys(r))
    const destroying = results.filter((r) => destroys(r))
    expect(destroying.length).toBeGreaterThan(0)
    expect(results).toEqual([...others, ...destroying])
    for (const group of [others, destroying]) {
      for (const [i, r] of group.entries()) {
        if (i === 0) continue
        const previous = group[i - 1]
        expect(previous.score > r.score || (previous.score === r.score && previous.tool.id < r.tool.id)).toBe(true)
      }
    }

    expect(others.some((r, i) => i > 0 && others[i - 1].score === r.score)).toBe(true)
  })

  it('ranks the same way whatever order the tools come in', () => {
    const reversed = buildCommandIndex([...scale.tools].reverse())
    for (const query of ['create a record', 'org user list', 'delete permission set', 'frobnicate']) {
      expect(reversed.search(query)).toEqual(big.search(query))
    }
  })

  it.each([
    ['org ls', 'org:list'],
    ['force:org:list', 'org:list'],
    ['data fetch', 'data:get'],
    ['apps_create', 'apps_create'], // an id beats another command's tool name (apps:create's is apps_create_<hash>)
  ])('puts the command whose id or alias %j spells out first', (query, id) => {
    expect(ids(query, big)[0]).toBe(id)
  })

  it('finds a command by its tool name, hash suffix and all', () => {
    const {name} = scale.byId.get('apps:create')!
    expect(name).toMatch(/^apps_create_[0-9a-f]{6}$/)
    expect(ids(name, big)[0]).toBe('apps:create')
  })

  it('finds a command by the words of its id', () => {
    expect(ids('data metadata field deploy', big)[0]).toBe('data:metadata:field:deploy')
    expect(ids('package user report', big)[0]).toBe('package:user:report')
  })

  it('answers a query in a few milliseconds', () => {
    const queries = ['create a new org user', 'list apps', 'delete the permission set of a record', 'data:get', 'report limits']
    // CPU time, not the clock: other work on the machine delays a query without making it cost more.
    const started = process.cpuUsage()
    for (let round = 0; round < 20; round++) for (const query of queries) big.search(query)
    const used = process.cpuUsage(started)
    const perQuery = (used.user + used.system) / 1000 / (20 * queries.length)
    expect(perQuery).toBeLessThan(20)
  })
})
