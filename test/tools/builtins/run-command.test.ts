// run_command (src/tools/builtins/run-command.ts), called directly on plans of the example CLI with a real call
// environment: its hints follow the boundary, a command unknown or outside it is answered like describe_command
// answers it, a stale definitionHash runs nothing, and with the right one the real command runs in a child process.
import type {Config} from '@oclif/core'

import {afterAll, beforeAll, describe, expect, it} from '@jest/globals'
import {existsSync, mkdirSync, readFileSync} from 'node:fs'
import {join} from 'node:path'

import type {ServerPlan} from '../../../src/mcp/plan.js'
import type {CallEnvironment} from '../../../src/tools/execution/call-environment.js'

import {callEnvironmentFor} from '../../../src/mcp/lifecycle.js'
import {describeCommandTool} from '../../../src/tools/builtins/describe-command.js'
import {runCommandTool} from '../../../src/tools/builtins/run-command.js'
import {MAX_IDEMPOTENCY_KEY_LENGTH} from '../../../src/tools/catalog/call-inputs.js'
import {processesIn} from '../../helpers/processes.js'
import {accepts, callBuiltin, dataOf, listingOfCommands, loadTaskbox, scopeOf, taskboxPlan, textsOf} from '../../helpers/builtins.js'
import {scratch} from '../../helpers/taskbox.js'

interface Store {
  name: string
  tasks: {priority: number; title: string}[]
}

const space = scratch('run-command-')
let config: Config
let plan: ServerPlan
let env: CallEnvironment
let made = 0

beforeAll(async () => {
  config = await loadTaskbox()
  plan = taskboxPlan(config)
  env = callEnvironmentFor(plan)
})

afterAll(async () => {
  await env?.dispose()
  // Every command the tests ran has ended: none is left in their directories.
  expect(processesIn(space.dir)).toEqual([])
  space.cleanup()
})

/** A directory of its own for a test's commands. */
function project(): string {
  const dir = join(space.dir, `project-${++made}`)
  mkdirSync(dir)
  return dir
}

const storeIn = (dir: string) => JSON.parse(readFileSync(join(dir, '.taskbox.json'), 'utf8')) as Store
const hashOf = async (command: string, from = plan) => dataOf(await callBuiltin(describeCommandTool(scopeOf(from)), {command})).definitionHash as string

describe('run_command', () => {
  it('takes a command, its definitionHash, its arguments as an object and a key, nothing else', () => {
    const tool = runCommandTool(scopeOf(plan))
    for (const input of [
      {command: 'init', expectedDefinitionHash: 'sha256:x'},
      {arguments: {cwd: '/tmp', name: 'x', other: [1]}, command: 'tasks add', expectedDefinitionHash: 'sha256:x', idempotencyKey: 'k'.repeat(MAX_IDEMPOTENCY_KEY_LENGTH)},
    ]) {
      expect(accepts(tool, input)).toBe(true)
    }

    for (const input of [
      {command: 'init'},
      {expectedDefinitionHash: 'sha256:x'},
      {command: '', expectedDefinitionHash: 'sha256:x'},
      {command: 'init', expectedDefinitionHash: ''},
      {arguments: 'cwd=/tmp', command: 'init', expectedDefinitionHash: 'sha256:x'},
      {arguments: ['/tmp'], command: 'init', expectedDefinitionHash: 'sha256:x'},
      {command: 'init', expectedDefinitionHash: 'sha256:x', idempotencyKey: ''},
      {command: 'init', expectedDefinitionHash: 'sha256:x', idempotencyKey: 'k'.repeat(MAX_IDEMPOTENCY_KEY_LENGTH + 1)},
      {command: 'init', cwd: '/tmp', expectedDefinitionHash: 'sha256:x'},
    ]) {
      expect(accepts(tool, input)).toBe(false)
    }
  })

  it('is as careful as the most dangerous command in reach: destructive while one is, read-only on a read-only server', () => {
    expect(runCommandTool(scopeOf(plan)).annotations).toEqual({destructiveHint: true, idempotentHint: false, openWorldHint: true, readOnlyHint: false, title: 'Run a command'})
    // Without the two destructive commands (tasks clear, tasks remove) it still writes, but destroys nothing.
    const safer = taskboxPlan(config, {exclude: ['tasks:clear', 'tasks:remove']})
    expect(runCommandTool(scopeOf(safer)).annotations).toEqual({destructiveHint: false, idempotentHint: false, openWorldHint: true, readOnlyHint: false, title: 'Run a command'})
    const readOnly = taskboxPlan(config, {'read-only': true})
    expect(runCommandTool(scopeOf(readOnly)).hints).toEqual({destructiveHint: false, idempotentHint: false, openWorldHint: true, readOnlyHint: true})
  })

  it('answers an unknown command as describe_command does, without touching the call environment', async () => {
    for (const command of ['tasks adx', 'debug dump', 'mcp stdio']) {
      const ran = await callBuiltin(runCommandTool(scopeOf(plan)), {command, expectedDefinitionHash: 'sha256:x'})
      expect(ran).toEqual(await callBuiltin(describeCommandTool(scopeOf(plan)), {command}))
      expect(ran.isError).toBe(true)
    }
  })

  it('on a read-only server answers a writing command exactly like an unknown one, even with its true hash, and runs nothing', async () => {
    const readOnly = taskboxPlan(config, {'read-only': true})
    const tool = runCommandTool(scopeOf(readOnly))
    const dir = project()
    const answer = async (command: string, hash: string) => {
      const result = await callBuiltin(tool, {arguments: {cwd: dir}, command, expectedDefinitionHash: hash})
      return textsOf(result).replace(`"${command}"`, '"…"')
    }

    expect(await answer('init', await hashOf('init'))).toBe(await answer('inix', 'sha256:x'))
    expect(await answer('init', 'sha256:x')).toBe('No command "…". Use find_commands or list_commands to see what there is.')
    expect(await answer('tasks add', await hashOf('tasks add'))).toBe(await answer('tasks adx', 'sha256:x'))
    expect(await answer('tasks add', 'sha256:x')).toBe('No command "…". Did you mean: tasks list, tasks show?')
    expect(existsSync(join(dir, '.taskbox.json'))).toBe(false)
  })

  it('refuses a stale definitionHash with the current one, and runs nothing', async () => {
    const dir = project()
    const current = await hashOf('init')
    expect(current).toMatch(/^sha256:[0-9a-f]{32}$/)
    for (const stale of ['sha256:0000', await hashOf('status')]) {
      const result = await callBuiltin(runCommandTool(scopeOf(plan)), {arguments: {cwd: dir}, command: 'init', expectedDefinitionHash: stale})
      expect(result).toEqual({
        content: [{text: `The definition of "init" is ${current}, not ${stale}: it changed since it was described (or the hash is wrong). Nothing was run. Describe it again and retry with the new hash.`, type: 'text'}],
        isError: true,
        structuredContent: {code: 'STALE_DEFINITION', command: 'init', definitionHash: current},
      })
    }

    expect(existsSync(join(dir, '.taskbox.json'))).toBe(false)
  })

  it('runs a command the host does not list, given the hash describe_command gave, in the directory asked for', async () => {
    const dir = project()
    // A host listed nothing but status: init and tasks add are reached through run_command alone.
    const tool = runCommandTool({...scopeOf(plan), listingOf: () => listingOfCommands([plan.projection.executable.get('status')!])})
    const init = await callBuiltin(tool, {arguments: {cwd: dir, name: 'groceries'}, command: 'init', expectedDefinitionHash: await hashOf('init')}, {}, env)
    expect(init.isError).toBeUndefined()
    expect(dataOf(init)).toMatchObject({command: 'init', cwd: dir, data: {name: 'groceries', path: join(dir, '.taskbox.json')}, exitCode: 0})
    expect(textsOf(init)).toMatch(/^\$ taskbox init --name=groceries --json\n\(exit 0, \d+ ms, in .+\)\n/)
    expect(storeIn(dir)).toMatchObject({name: 'groceries', tasks: []})

    const add = await callBuiltin(tool, {arguments: {cwd: dir, priority: 1, title: 'Buy milk'}, command: 'tasks:add', expectedDefinitionHash: await hashOf('tasks add')}, {}, env)
    expect(add.isError).toBeUndefined()
    expect(dataOf(add)).toMatchObject({command: 'tasks:add', data: {id: 1, priority: 1, title: 'Buy milk'}, exitCode: 0})
    expect(storeIn(dir).tasks).toMatchObject([{priority: 1, title: 'Buy milk'}])
  })

  it('refuses arguments the command does not take, and runs nothing', async () => {
    const dir = project()
    const result = await callBuiltin(runCommandTool(scopeOf(plan)), {arguments: {cwd: dir, priority: 'high', title: 'x'}, command: 'tasks add', expectedDefinitionHash: await hashOf('tasks add')}, {}, env)
    expect(result.isError).toBe(true)
    expect(textsOf(result)).toMatch(/^Invalid arguments for "tasks add": priority: .+\. Nothing was run\.$/)
    expect(existsSync(join(dir, '.taskbox.json'))).toBe(false)
  })

  it('drops an idempotency key for a read-only command, which takes none: it just runs', async () => {
    const dir = project()
    const tool = runCommandTool(scopeOf(plan))
    await callBuiltin(tool, {arguments: {cwd: dir, name: 'keys'}, command: 'init', expectedDefinitionHash: await hashOf('init')}, {}, env)
    const listed = await callBuiltin(tool, {arguments: {cwd: dir}, command: 'tasks list', expectedDefinitionHash: await hashOf('tasks list'), idempotencyKey: 'read-1'}, {}, env)
    expect(listed.isError).toBeUndefined()
    expect(dataOf(listed)).toMatchObject({command: 'tasks:list', data: {name: 'keys', tasks: []}, exitCode: 0})
    expect(textsOf(listed)).not.toContain('Replayed')
  })
})
