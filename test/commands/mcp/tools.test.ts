import {afterAll, afterEach, describe, expect, it} from '@jest/globals'
import {join} from 'node:path'

import type {Inventory} from '../../../src/cli/inventory.js'

import {plain, type Ran, runCli, runTaskbox, stopAll} from '../../helpers/run-cli.js'
import {connectTaskbox, ROOT, scratch, taskboxEnv} from '../../helpers/taskbox.js'

const space = scratch('mcp-tools-')
const env = taskboxEnv(join(space.dir, 'home'))
const run = (args: string[]) => runTaskbox(['mcp', 'tools', ...args], {cwd: space.dir, env})
const inventory = (ran: Ran) => {
  expect(ran.code).toBe(0)
  return JSON.parse(ran.stdout) as Inventory
}

afterEach(() => stopAll())
afterAll(() => space.cleanup())

describe('mcp tools', () => {
  it('--json: the exact tools/list of a server started with the same flags, and totals that add up', async () => {
    const found = inventory(await run(['--json']))
    const server = await connectTaskbox({cwd: space.dir, env, era: 'legacy'})
    let names: string[]
    let hints: Record<string, unknown>[]
    let capabilities: Record<string, unknown>
    try {
      const {tools} = await server.client.listTools()
      names = tools.map((t) => t.name)
      hints = tools.map(({annotations}) => {
        const {title: _title, ...rest} = annotations ?? {}
        return rest
      })
      capabilities = (await server.client.callTool({arguments: {}, name: 'describe_capabilities'})).structuredContent as Record<string, unknown>
    } finally {
      await server.close()
    }

    expect(found.listed).toEqual(names)
    expect(found.tools.map((t) => t.name)).toEqual(names)
    // Built-ins too: run_command is not read-only (it was once shown with the read-only built-in defaults).
    expect(found.tools.map((t) => t.annotations)).toEqual(hints)
    expect(found.listed).toEqual(capabilities.tools)
    expect(capabilities.typedBand).toEqual({bytes: found.totals.typedBandBytes, count: found.totals.commandTools})
    // The person at the terminal sees every name; the model sees the author's hidden and excluded ones only counted.
    const authorKept = new Set(['excluded by author config', 'hidden', 'just-in-time plugin stub'])
    expect(capabilities.notListed).toEqual(found.notListed.filter((n) => !authorKept.has(n.reason)))
    expect(capabilities.notNamed).toEqual({hidden: 1})
    const {totals} = found
    expect(totals.toolsListed).toBe(found.listed.length)
    expect(totals.toolsListed).toBe(totals.builtinTools + totals.commandTools)
    expect(totals.reachableCommands).toBe(totals.commandTools + totals.gatewayCommands)
    expect(totals.reachableCommands).toBe(found.commands.length)
    expect(totals).toMatchObject({commandTools: 10, gatewayCommands: 0, notListed: {hidden: 1, 'the MCP server itself': 8}, reachableCommands: 10})
    expect(found.tools.find((t) => t.name === 'tasks_remove')).toEqual({
      annotations: {destructiveHint: true, idempotentHint: false, openWorldHint: true, readOnlyHint: false},
      command: 'tasks remove',
      kind: 'command',
      name: 'tasks_remove',
    })
  })

  it('--max-tools moves commands out of tools/list into the gateway', async () => {
    const found = inventory(await run(['--json', '--max-tools', '3']))
    expect(found.totals).toMatchObject({commandTools: 3, gatewayCommands: 7, reachableCommands: 10})
    expect(found.totals.notListed['outside the typed band (reachable through run_command)']).toBe(7)
    expect(found.listed).toHaveLength(found.totals.builtinTools + 3)
    expect(found.commands.filter((c) => !c.listed).every((c) => c.tool === null)).toBe(true)
    expect(found.profile.source).toBe('default selection')
  })

  it('--read-only leaves only read-only commands, and says why the rest are gone', async () => {
    const found = inventory(await run(['--json', '--read-only']))
    expect(found.readOnly).toBe(true)
    expect(found.commands.length).toBeGreaterThan(0)
    expect(found.commands.every((c) => c.annotations.readOnlyHint)).toBe(true)
    expect(found.notListed).toContainEqual({command: 'tasks:add', reason: 'read-only mode'})
    expect(found.totals.reachableCommands).toBe(10 - (found.totals.notListed['read-only mode'] ?? 0))
  })

  it('prints a table people can read: tool, command, hints, how it is exposed, then the totals', async () => {
    const ran = await run(['--max-tools', '2'])
    expect(ran.code).toBe(0)
    const lines = ran.stdout.split('\n')
    expect(lines[0]).toMatch(/^TOOL +COMMAND +HINTS +EXPOSED$/)
    expect(ran.stdout).toMatch(/^cli_info +— +ro idempotent +built-in$/m)
    expect(ran.stdout).toMatch(/^tasks_list +tasks list +ro idempotent open-world +listed$/m)
    expect(ran.stdout).toMatch(/^— +status +ro idempotent open-world +run_command$/m)
    expect(ran.stdout).toMatch(/^— +tasks remove +rw destructive open-world +run_command$/m)
    expect(ran.stdout).toMatch(/^Tools listed: +13 \(11 built-in, 2 command tools\)$/m)
    expect(ran.stdout).toMatch(/^Typed band: +\d+ bytes \(limits: 2 tools, 32768 bytes; default selection\)$/m)
    expect(ran.stdout).toMatch(/^Reachable commands: +10 \(2 listed, 8 through run_command\)$/m)
    expect(ran.stdout).toMatch(/^Not reachable: +hidden: 1, the MCP server itself: 8$/m)
  })

  it('fails with the message of a bad flag value or an unknown profile', async () => {
    const ran = await run(['--profile', 'nope'])
    expect(ran.code).toBe(2)
    expect(plain(ran.stderr)).toContain('No MCP profile named "nope"')
  })

  it.each([['tools'], ['call', 'cli_info'], ['config', '--client', 'cursor'], ['stdio']])(
    'mcp %s refuses an invalid oclif.mcp section with the settings error',
    async (...args) => {
      const ran = await runCli(join(ROOT, 'test/fixtures/misconfigured-cli/bin/run.js'), ['mcp', ...args], {cwd: space.dir, env, input: ''})
      expect(ran.code).toBe(2)
      expect(ran.stdout).toBe('')
      expect(plain(ran.stderr)).toContain('Invalid MCP settings in package.json oclif.mcp.timeout')
    },
  )
})
