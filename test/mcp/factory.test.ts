// The one server factory (src/mcp/factory.ts), in process, with the official client over the SDK's in-memory
// transport: what it registers (all tools, or only what one request needs), that tools/list never depends on that,
// and that a faulty tool becomes an error result while the server goes on.
import {Client} from '@modelcontextprotocol/client'
import {InMemoryTransport, type McpServer} from '@modelcontextprotocol/server'
import {afterAll, beforeAll, describe, expect, it} from '@jest/globals'
import {Config} from '@oclif/core'
import {join} from 'node:path'
import * as z from 'zod'

import type {ToolSelection} from '../../src/mcp/factory.js'

import {createServerFactory} from '../../src/mcp/factory.js'
import {callEnvironmentFor} from '../../src/mcp/lifecycle.js'
import {buildServerPlan, type ServerPlan} from '../../src/mcp/plan.js'
import type {CallEnvironment} from '../../src/tools/execution/call-environment.js'
import {parseAuthorConfig} from '../../src/settings/author-config.js'
import {resolveSettings} from '../../src/settings/settings.js'
import {builtinTool} from '../../src/tools/builtins/builtin-tool.js'
import {ROOT, textOf} from '../helpers/taskbox.js'

let plan: ServerPlan
let env: CallEnvironment

beforeAll(async () => {
  const config = await Config.load(join(ROOT, 'examples/taskbox'))
  // With the example CLI's own settings: its prompt (plan-week) among them.
  plan = buildServerPlan(config, resolveSettings(parseAuthorConfig((config.pjson.oclif as {mcp?: unknown}).mcp), {workers: 0}))
  env = callEnvironmentFor(plan)
})

afterAll(() => env.dispose())

async function connected(server: McpServer): Promise<{client: Client; close: () => Promise<void>}> {
  const client = new Client({name: 'factory-test', version: '1'})
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
  await Promise.all([server.connect(serverSide), client.connect(clientSide)])
  return {client, close: async () => Promise.all([client.close(), server.close()]).then(() => {})}
}

async function withServer<T>(selection: ToolSelection | undefined, use: (client: Client) => Promise<T>, from = plan): Promise<T> {
  const {client, close} = await connected(createServerFactory(from, env)(undefined, selection))
  try {
    return await use(client)
  } finally {
    await close()
  }
}

describe('createServerFactory', () => {
  it('registers every tool of the plan by default, and lists them in the plan order', async () => {
    const names = plan.listed.map((entry) => entry.tool.name)
    await withServer(undefined, async (client) => {
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(names)
      expect((await client.callTool({arguments: {}, name: 'cli_info'})).isError).toBeFalsy()
    })
  })

  it.each<[string, ToolSelection]>([
    ['only the named tool', {name: 'list_commands'}],
    ['no tool at all', 'none'],
    ['nothing but the listing', 'listing'],
  ])('with %s registered, still lists them all, and calls of the others are unknown tools', async (_, selection) => {
    const names = plan.listed.map((entry) => entry.tool.name)
    await withServer(selection, async (client) => {
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(names)
      const other = await client.callTool({arguments: {}, name: 'cli_info'}).then(
        (result) => ({isError: result.isError, text: textOf(result)}),
        (error: Error) => ({isError: true, text: error.message}),
      )
      expect(other.isError).toBe(true)
      expect(other.text).toMatch(/cli_info/)
      if (typeof selection === 'object') expect((await client.callTool({arguments: {}, name: 'list_commands'})).isError).toBeFalsy()
    })
  })

  it('registers resources and prompts for every request but a tools one', async () => {
    for (const selection of ['all', 'none'] as const) {
      await withServer(selection, async (client) => {
        expect((await client.listResources()).resources.length).toBeGreaterThan(0)
        expect((await client.listPrompts()).prompts.length).toBeGreaterThan(0)
      })
    }

    for (const selection of ['listing', {name: 'cli_info'}] as const) {
      await withServer(selection, async (client) => {
        expect((await client.listResources()).resources).toEqual([])
        expect((await client.listPrompts()).prompts).toEqual([])
      })
    }
  })

  it('answers a fault in a tool with an error result, and goes on serving', async () => {
    const faulty = builtinTool({
      description: 'Throws.',
      handler() {
        throw new Error('a bug in the tool')
      },
      name: 'cli_info',
      schema: z.strictObject({}),
      title: 'Faulty',
    })
    const swap = (entries: ServerPlan['listed']) => entries.map((entry) => (entry.tool.name === 'cli_info' ? {kind: 'builtin' as const, tool: faulty} : entry))
    const broken: ServerPlan = {...plan, callable: swap(plan.callable), listed: swap(plan.listed)}
    await withServer(
      undefined,
      async (client) => {
        const answer = await client.callTool({arguments: {}, name: 'cli_info'})
        expect(answer.isError).toBe(true)
        expect(textOf(answer)).toBe('Internal error in tool cli_info: a bug in the tool')
        expect((await client.callTool({arguments: {}, name: 'list_commands'})).isError).toBeFalsy()
      },
      broken,
    )
  })
})
