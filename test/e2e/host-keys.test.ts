// Gemini CLI adds `wait_for_previous` to every tool's schema, tells its model to set it, and forwards it with every
// call. Such host-injected keys are taken out before validation (src/tools/catalog/input-schema.ts, HOST_INJECTED_KEYS), on typed
// tools, built-ins and inside run_command's arguments, while any other unknown key is still refused.
import {afterAll, beforeAll, describe, expect, it} from '@jest/globals'
import {mkdirSync} from 'node:fs'
import {join} from 'node:path'

import {connectTaskbox, type Connected, scratch, taskboxEnv, textOf} from '../helpers/taskbox.js'

const space = scratch()
const project = join(space.dir, 'project')
let server: Connected

beforeAll(async () => {
  mkdirSync(project)
  server = await connectTaskbox({cwd: space.dir, env: taskboxEnv(join(space.dir, 'home')), era: 'legacy'})
})

afterAll(async () => {
  await server?.close()
  space.cleanup()
})

describe('arguments hosts add to every call', () => {
  it('are dropped before a typed tool validates its arguments', async () => {
    const result = await server.client.callTool({arguments: {cwd: project, wait_for_previous: true}, name: 'status'})
    expect(result.isError).toBeFalsy()
  })

  it('are dropped by built-ins and inside run_command', async () => {
    expect((await server.client.callTool({arguments: {wait_for_previous: false}, name: 'cli_info'})).isError).toBeFalsy()
    const described = await server.client.callTool({arguments: {command: 'status', wait_for_previous: true}, name: 'describe_command'})
    const hash = (described.structuredContent as {definitionHash: string}).definitionHash
    const ran = await server.client.callTool({
      arguments: {arguments: {cwd: project, wait_for_previous: true}, command: 'status', expectedDefinitionHash: hash, wait_for_previous: true},
      name: 'run_command',
    })
    expect(ran.isError).toBeFalsy()
  })

  it('leave every other unknown key refused', async () => {
    const result = await server.client.callTool({arguments: {cwd: project, wait_for_previous: true, wait_for_next: true}, name: 'status'})
    expect(result.isError).toBe(true)
    expect(textOf(result)).toContain('wait_for_next')
  })
})
