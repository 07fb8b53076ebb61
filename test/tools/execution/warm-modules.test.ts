import {afterAll, beforeAll, describe, expect, it} from '@jest/globals'
import {Config} from '@oclif/core'
import {existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

import {commandModules, hookModules} from '../../../src/tools/execution/warm-modules.js'
import {ROOT} from '../../helpers/taskbox.js'

const TASKBOX = join(ROOT, 'examples/taskbox')
let explicitRoot: string

beforeAll(() => {
  // A CLI the way @shopify/cli is laid out: every command in one module ("explicit" strategy), an init hook.
  explicitRoot = mkdtempSync(join(tmpdir(), 'warm-explicit-'))
  mkdirSync(join(explicitRoot, 'node_modules/@oclif'), {recursive: true})
  symlinkSync(join(ROOT, 'node_modules/@oclif/core'), join(explicitRoot, 'node_modules/@oclif/core'))
  writeFileSync(
    join(explicitRoot, 'package.json'),
    JSON.stringify({
      name: 'explicit-cli',
      oclif: {bin: 'explicit', commands: {identifier: 'COMMANDS', strategy: 'explicit', target: './lib/commands.js'}, hooks: {init: './lib/hooks/init'}},
      version: '1.0.0',
    }),
  )
  mkdirSync(join(explicitRoot, 'lib/hooks'), {recursive: true})
  const command = (name: string) => `class ${name} extends Command { static summary = '${name}'; async run() {} }`
  writeFileSync(
    join(explicitRoot, 'lib/commands.js'),
    `const {Command} = require('@oclif/core')\n${command('Hello')}\n${command('Bye')}\nexports.COMMANDS = {hello: Hello, 'bye:now': Bye}\n`,
  )
  writeFileSync(join(explicitRoot, 'lib/hooks/init.js'), 'module.exports = async function () {}\n')
})

afterAll(() => rmSync(explicitRoot, {force: true, recursive: true}))

describe('the modules a warm worker imports ahead', () => {
  it('are a command file per command where each command has its own (taskbox), in the order asked, unknown ids left out', async () => {
    const config = await Config.load(TASKBOX)
    expect(commandModules(config, ['tasks:add', 'no:such', 'status', 'tasks:add'])).toEqual([
      join(TASKBOX, 'src/commands/tasks/add.js'),
      join(TASKBOX, 'src/commands/status.js'),
    ])
  })

  it('are the one commands module of an explicit-strategy CLI, once for all its commands, and its hook files', async () => {
    const config = await Config.load(explicitRoot)
    expect(commandModules(config, ['hello', 'bye:now'])).toEqual([join(explicitRoot, 'lib/commands.js')])
    expect(hookModules(config)).toContain(join(explicitRoot, 'lib/hooks/init.js'))
  })

  it('name only files that exist', async () => {
    const config = await Config.load(TASKBOX)
    const files = [...hookModules(config), ...commandModules(config, config.commands.map((c) => c.id))]
    expect(files.length).toBeGreaterThan(5)
    for (const file of files) expect([file, existsSync(file)]).toEqual([expect.stringMatching(/\.(c|m)?js$/), true])
  })
})
