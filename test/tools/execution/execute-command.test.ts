// Running one command (src/tools/execution/execute-command.ts): what is refused before anything starts (a bad cwd, a
// command line too long for the system, no free slot, a call cancelled while it waited), and which process ran it.
// The built modules are used: commands run in child processes that preload the built orphan guard.
import {afterEach, beforeAll, describe, expect, it} from '@jest/globals'
import {Config} from '@oclif/core'
import {join} from 'node:path'

import type {ServerFlags} from '../../../src/settings/settings.js'
import type {CallEnvironment} from '../../../src/tools/execution/call-environment.js'
import type {Execute} from '../../../src/tools/execution/execute-command.js'

import {eventually} from '../../helpers/processes.js'
import {ROOT, textOf} from '../../helpers/taskbox.js'

const DIST = join(ROOT, 'dist')
const {parseAuthorConfig} = (await import(join(DIST, 'settings/author-config.js'))) as typeof import('../../../src/settings/author-config.js')
const {resolveSettings} = (await import(join(DIST, 'settings/settings.js'))) as typeof import('../../../src/settings/settings.js')
const {buildRegistry} = (await import(join(DIST, 'tools/catalog/registry.js'))) as typeof import('../../../src/tools/catalog/registry.js')
const {createCallEnvironment} = (await import(join(DIST, 'tools/execution/call-environment.js'))) as typeof import('../../../src/tools/execution/call-environment.js')
const {executeCommand} = (await import(join(DIST, 'tools/execution/execute-command.js'))) as typeof import('../../../src/tools/execution/execute-command.js')
const {project} = (await import(join(DIST, 'tools/exposure/projection.js'))) as typeof import('../../../src/tools/exposure/projection.js')

let config: Config
const environments: CallEnvironment[] = []

beforeAll(async () => {
  config = await Config.load(join(ROOT, 'examples/taskbox'))
})

afterEach(async () => {
  await Promise.all(environments.splice(0).map((env) => env.dispose()))
})

function environment(flags: ServerFlags): CallEnvironment {
  const settings = resolveSettings(parseAuthorConfig({}), {workers: 0, ...flags})
  const env = createCallEnvironment(config, settings, project(buildRegistry(config, settings), settings))
  // As a server does: its workers warm once a call has run.
  env.workers.allow()
  environments.push(env)
  return env
}

const how = (more: Partial<Execute> = {}): Execute => ({budget: 60_000, childVars: {...process.env}, redact: (value) => value, ...more})
const tool = (env: CallEnvironment, id: string) => env.boundary.executable.get(id)!

describe('executeCommand', () => {
  it('refuses a cwd that is not an absolute path of a directory, and starts nothing', async () => {
    const env = environment({})
    for (const cwd of ['relative/dir', '/no/such/dir', join(ROOT, 'package.json')]) {
      const ran = await executeCommand(tool(env, 'status'), {cwd}, env, how())
      expect(ran.ran).toBe(false)
      expect(textOf(ran.result)).toMatch(/^cwd .* Nothing was run\.$/)
    }
  })

  it('refuses a command line the system could not start, before it starts', async () => {
    const env = environment({})
    const ran = await executeCommand(tool(env, 'tasks:add'), {title: 'x'.repeat(200_000)}, env, how())
    expect(ran.ran).toBe(false)
    expect(textOf(ran.result)).toMatch(/bytes long, and one command-line argument can hold at most .* Pass less in one call/)
  })

  it('answers "busy" when every slot is taken and the queue is full, and runs the command once a slot is free', async () => {
    const env = environment({'max-concurrency': 1, 'max-queue': 0})
    const slow = executeCommand(tool(env, 'report:weekly'), {delay: 2}, env, how())
    expect(await eventually(() => env.groups.size === 1, 60_000)).toBe(true)
    const busy = await executeCommand(tool(env, 'status'), {}, env, how())
    expect(busy.ran).toBe(false)
    expect(textOf(busy.result)).toBe('Busy: 1 commands are running and 0 are waiting; try again shortly. Nothing was run.')
    expect((await slow).ran).toBe(true)
    expect((await executeCommand(tool(env, 'status'), {}, env, how())).exitCode).toBe(0)
  })

  it('gives up a call cancelled while it waited for a slot, without running it', async () => {
    const env = environment({'max-concurrency': 1, 'max-queue': 1})
    const slow = executeCommand(tool(env, 'report:weekly'), {delay: 2}, env, how())
    expect(await eventually(() => env.groups.size === 1, 60_000)).toBe(true)
    const controller = new AbortController()
    const waiting = executeCommand(tool(env, 'status'), {}, env, how({signal: controller.signal}))
    controller.abort()
    const given = await waiting
    expect(given.ran).toBe(false)
    expect(textOf(given.result)).toBe('Cancelled while waiting for a free slot. Nothing was run.')
    expect((await slow).ran).toBe(true)
  })

  it('says whether a prewarmed worker ran the command, answers the same either way, and refills the pool after', async () => {
    const env = environment({workers: 1})
    const cold = await executeCommand(tool(env, 'status'), {}, env, how())
    expect(cold.result._meta).toEqual({'oclif-plugin-mcp/run': {warm: false}})
    env.workers.fill()
    let warm = cold
    for (const deadline = Date.now() + 60_000; Date.now() < deadline; ) {
      warm = await executeCommand(tool(env, 'status'), {}, env, how())
      if ((warm.result._meta?.['oclif-plugin-mcp/run'] as {warm: boolean}).warm) break
      await new Promise((resolve) => setTimeout(resolve, 200))
    }

    expect(warm.result._meta).toEqual({'oclif-plugin-mcp/run': {warm: true}})
    // The same but for the time taken and the pid in Node's own warnings.
    const comparable = (ran: typeof cold) => {
      const {durationMs: _ms, ...data} = ran.result.structuredContent as Record<string, unknown>
      return JSON.parse(JSON.stringify(data).replaceAll(/\(node:\d+\)/g, '(node)')) as unknown
    }

    expect(comparable(warm)).toEqual(comparable(cold))
    expect(await eventually(() => env.workers.size === 1, 60_000)).toBe(true)
  })
})
