// An argument larger than a process's command line can carry fails the same way whether a warm worker (which gets
// its arguments over IPC and has no such limit) or a cold spawn (E2BIG) would run it: one clear error, before
// anything runs. Arrays are bounded too (maxItems).
import {afterAll, beforeAll, describe, expect, it} from '@jest/globals'
import {mkdirSync, readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'

import {idleWorker} from '../helpers/processes.js'
import {connectTaskbox, type Connected, scratch, taskboxEnv, textOf} from '../helpers/taskbox.js'

const space = scratch()
const project = join(space.dir, 'project')
const store = join(project, '.taskbox.json')
const servers: Connected[] = []

beforeAll(async () => {
  mkdirSync(project)
  writeFileSync(store, JSON.stringify({name: 'p', nextId: 1, tasks: []}))
  for (const workers of [0, 1]) {
    servers.push(await connectTaskbox({args: ['--workers', String(workers), '--cwd', project], cwd: space.dir, env: taskboxEnv(join(space.dir, `home${workers}`)), era: 'legacy'}))
  }

  // The second server's first worker warms once it has run a call: one is run, and the worker waited for, so that
  // its calls below would go through it.
  expect((await servers[1].client.callTool({arguments: {cwd: project}, name: 'status'})).isError).toBeFalsy()
  expect(await idleWorker(servers[1].pid)).toBeDefined()
})

afterAll(async () => {
  for (const server of servers) await server.close()
  space.cleanup()
})

describe.each([['cold', 0], ['through a warm worker', 1]] as const)('an over-long argument (%s)', (_, index) => {
  it('is refused before anything runs, with the limit it passes', async () => {
    const before = readFileSync(store, 'utf8')
    const result = await servers[index].client.callTool({arguments: {title: 't'.repeat(300_000)}, name: 'tasks_add'})
    expect(result.isError).toBe(true)
    expect(textOf(result)).toMatch(process.platform === 'linux' ? /a positional argument is 300,000 bytes long, and one command-line argument can hold at most 131,071/ : /at most .* fit/)
    expect(textOf(result)).toContain('Nothing was run')
    expect(readFileSync(store, 'utf8')).toBe(before)
  })

  it('an ordinary call still runs', async () => {
    const result = await servers[index].client.callTool({arguments: {title: `short ${index}`}, name: 'tasks_add'})
    expect(result.isError).toBeFalsy()
    // The refused call took nothing from the pool: this one ran in the worker that was waiting.
    expect((result._meta?.['oclif-plugin-mcp/run'] as {warm?: boolean}).warm).toBe(index === 1)
  })
})

it('an array argument holds at most 1000 values', async () => {
  const result = await servers[0].client.callTool({arguments: {tag: Array.from({length: 1001}, (_, i) => `t${i}`), title: 'x'}, name: 'tasks_add'})
  expect(result.isError).toBe(true)
  expect(textOf(result)).toMatch(/1000/)
})
