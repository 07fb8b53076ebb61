// One dispose ends everything a server's calls leave running (src/mcp/lifecycle.ts): idle workers, commands in flight
// (and what they started), and the private working directory. The built modules are used: commands run in child
// processes that preload the built orphan guard (npm test builds first).
import {afterAll, describe, expect, it} from '@jest/globals'
import {Config} from '@oclif/core'
import {randomUUID} from 'node:crypto'
import {existsSync} from 'node:fs'
import {join} from 'node:path'

import {eventually, killPids, processesWithEnv} from '../helpers/processes.js'
import {ROOT, scratch, taskboxEnv} from '../helpers/taskbox.js'

const {prepareServer} = (await import(join(ROOT, 'dist/mcp/lifecycle.js'))) as typeof import('../../src/mcp/lifecycle.js')
const {callCommandTool} = (await import(join(ROOT, 'dist/tools/execution/pipeline.js'))) as typeof import('../../src/tools/execution/pipeline.js')

const space = scratch('lifecycle-')
const marker = randomUUID()
const saved = {...process.env}

afterAll(() => {
  killPids(processesWithEnv('LIFECYCLE_TEST', marker))
  process.env = saved
  space.cleanup()
})

describe('prepareServer(…).dispose()', () => {
  it('ends idle workers, a command in flight with its children, and removes the private working directory', async () => {
    // Children inherit the server's environment: the marker finds every process this server starts.
    Object.assign(process.env, taskboxEnv(space.dir), {LIFECYCLE_TEST: marker})
    const config = await Config.load(join(ROOT, 'examples/taskbox'))
    const prepared = prepareServer(config, {workers: 1})
    prepared.startWorkers()
    // A worker warms once the server has run a call (or is filled, as a call does).
    prepared.env.workers.fill()
    expect(await eventually(() => processesWithEnv('LIFECYCLE_TEST', marker).length >= 1, 60_000)).toBe(true)

    const slow = prepared.plan.projection.executable.get('report:weekly')!
    const call = callCommandTool(slow, {delay: 60}, prepared.env)
    const workdir = await prepared.env.workdir.get()
    expect(existsSync(workdir)).toBe(true)
    expect(await eventually(() => prepared.env.groups.size === 1, 60_000)).toBe(true)

    await prepared.dispose()
    const answer = await call
    expect(answer.isError).toBe(true)
    expect((answer as {structuredContent: {signal?: string}}).structuredContent.signal).toBe('SIGKILL')
    expect(await eventually(() => processesWithEnv('LIFECYCLE_TEST', marker).length === 0)).toBe(true)
    expect(existsSync(workdir)).toBe(false)
    expect(prepared.env.workers.enabled).toBe(false)
  })
})
