import {afterAll, beforeAll, describe, expect, it} from '@jest/globals'
import {mkdirSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'

import {descendantsOf, eventually, idleWorker, processesMatching} from '../helpers/processes.js'
import {connectTaskbox, type Connected, scratch, taskboxEnv} from '../helpers/taskbox.js'

type Result = Awaited<ReturnType<Connected['client']['callTool']>>
const ranWarm = (result: Result) => (result._meta?.['oclif-plugin-mcp/run'] as {warm?: boolean} | undefined)?.warm

/** Every example-CLI command, in an order that exercises success, JSON output, text output and each kind of failure. */
const SCRIPT: [string, Record<string, unknown>][] = [
  ['init', {}],
  ['init', {}],
  ['tasks_add', {priority: 1, tag: ['docs', 'x'], title: 'first'}],
  ['tasks_add', {assignee: 'sam', notify: true, title: 'second'}],
  ['tasks_list', {status: 'all'}],
  ['tasks_list', {header: false, tag: ['docs']}],
  ['tasks_show', {id: '1'}],
  ['tasks_show', {id: '99'}],
  ['tasks_done', {id: '1'}],
  ['tasks_clear', {}],
  ['tasks_clear', {yes: true}],
  ['tasks_remove', {id: '2'}],
  ['status', {}],
  ['report_weekly', {delay: 0}],
  ['sync', {}],
]

/** A result with what differs between two runs by nature (directory, timing, which process ran it) taken out. */
function comparable(result: Result, dir: string): unknown {
  const {cwd: _cwd, durationMs: _ms, ...structured} = result.structuredContent as Record<string, unknown>
  const text = (result.content as {text: string}[])[0].text.replace(/\(exit (\S+), \d+ ms, in [^)]*\)/, '(exit $1)')
  return JSON.parse(JSON.stringify({isError: result.isError ?? false, structured, text}).replaceAll(dir, '<dir>'))
}

describe('prewarmed workers', () => {
  const space = scratch()
  let cold: Connected
  let warm: Connected

  beforeAll(async () => {
    cold = await connectTaskbox({args: ['--workers', '0'], cwd: space.dir, env: taskboxEnv(join(space.dir, 'home-cold')), era: 'legacy'})
    warm = await connectTaskbox({args: ['--workers', '1'], cwd: space.dir, env: taskboxEnv(join(space.dir, 'home-warm')), era: 'legacy'})
    // The first worker warms once the server has run a call (in a directory of its own, so it changes nothing).
    const primed = join(space.dir, 'primed')
    mkdirSync(primed)
    expect(ranWarm(await warm.client.callTool({arguments: {cwd: primed}, name: 'status'}))).toBe(false)
  })

  afterAll(async () => {
    await cold?.close()
    await warm?.close()
    space.cleanup()
  })

  it('give every example-CLI command exactly the result of a cold run', async () => {
    const coldDir = join(space.dir, 'cold', 'project')
    const warmDir = join(space.dir, 'warm', 'project')
    mkdirSync(coldDir, {recursive: true})
    mkdirSync(warmDir, {recursive: true})
    for (const [name, args] of SCRIPT) {
      const expected = await cold.client.callTool({arguments: {...args, cwd: coldDir}, name})
      // The pool refills after each call: the next one waits for the new worker to be warm, however long that takes.
      expect(await idleWorker(warm.pid)).toBeDefined()
      const actual = await warm.client.callTool({arguments: {...args, cwd: warmDir}, name})
      expect({name, result: comparable(actual, warmDir), warm: ranWarm(actual)}).toEqual({name, result: comparable(expected, coldDir), warm: true})
      expect(ranWarm(expected)).toBe(false)
    }
  })

  it('streams stderr lines as progress notifications when asked', async () => {
    const dir = join(space.dir, 'progress')
    mkdirSync(dir)
    writeFileSync(join(dir, '.taskbox.json'), JSON.stringify({name: 'p', nextId: 1, tasks: []}))
    const messages: string[] = []
    const result = await warm.client.callTool(
      {arguments: {cwd: dir, delay: 2}, name: 'report_weekly'},
      {onprogress: (progress) => messages.push(String(progress.message))},
    )
    expect(result.isError).toBeFalsy()
    expect(messages).toEqual(expect.arrayContaining(['crunching 1/2', 'crunching 2/2']))
  })

  it('kills the whole process tree of a cancelled call within a second or so', async () => {
    const dir = join(space.dir, 'cancel')
    mkdirSync(dir)
    writeFileSync(join(dir, '.taskbox.json'), JSON.stringify({name: 'c', nextId: 1, tasks: []}))
    const running = () => processesMatching('--delay=311')
    const controller = new AbortController()
    const call = warm.client.callTool({arguments: {cwd: dir, delay: 311}, name: 'report_weekly'}, {signal: controller.signal}).catch((error: Error) => error)
    await eventually(() => running().length > 0)
    expect(running().length).toBeGreaterThan(0)
    controller.abort()
    expect(await call).toBeInstanceOf(Error)
    await eventually(() => running().length === 0)
    expect(running()).toEqual([])
    // The server is still there.
    expect((await warm.client.callTool({arguments: {}, name: 'cli_info'})).isError).toBeFalsy()
  })
})

describe('cancellation over HTTP (2026-07-28: the client closes the response stream)', () => {
  it('kills the command tree and keeps serving', async () => {
    const {serveTaskbox} = await import('../helpers/serve.js')
    const {Client, StreamableHTTPClientTransport} = await import('@modelcontextprotocol/client')
    const space = scratch()
    const dir = join(space.dir, 'project')
    mkdirSync(dir)
    writeFileSync(join(dir, '.taskbox.json'), JSON.stringify({name: 'h', nextId: 1, tasks: []}))
    const server = await serveTaskbox({cwd: space.dir, env: taskboxEnv(join(space.dir, 'home'))})
    const client = new Client({name: 'cancel', version: '1'}, {versionNegotiation: {mode: {pin: '2026-07-28'}}})
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(server.url)))
      const running = () => processesMatching('--delay=313')
      const controller = new AbortController()
      const call = client.callTool({arguments: {cwd: dir, delay: 313}, name: 'report_weekly'}, {signal: controller.signal}).catch((error: Error) => error)
      await eventually(() => running().length > 0)
      expect(running().length).toBeGreaterThan(0)
      controller.abort()
      await call
      await eventually(() => running().length === 0)
      expect(running()).toEqual([])
      expect((await client.callTool({arguments: {}, name: 'cli_info'})).isError).toBeFalsy()
    } finally {
      await client.close()
      await server.stop()
      space.cleanup()
    }
  })
})

describe('when the first worker warms', () => {
  it('not before the server has run a call: warming would compete with the first answers of the servers a host starts together', async () => {
    const space = scratch()
    const server = await connectTaskbox({args: ['--workers', '1'], cwd: space.dir, env: taskboxEnv(join(space.dir, 'home')), era: 'legacy'})
    try {
      await server.client.listTools()
      await server.client.callTool({arguments: {}, name: 'cli_info'})
      // Answered and listed, a built-in called: still no worker (a worker is a child of the server running worker-entry).
      const workers = () => descendantsOf(server.pid).filter((row) => row.args.includes('worker-entry'))
      expect(workers()).toEqual([])
      await server.client.callTool({arguments: {cwd: space.dir}, name: 'status'})
      expect(await eventually(() => workers().length === 1, 60_000)).toBe(true)
    } finally {
      await server.close()
      space.cleanup()
    }
  })
})
