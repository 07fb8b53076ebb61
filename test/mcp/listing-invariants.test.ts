import {Client} from '@modelcontextprotocol/client'
import {InMemoryTransport} from '@modelcontextprotocol/server'
import {afterAll, beforeAll, describe, expect, it} from '@jest/globals'
import {Config} from '@oclif/core'
import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

import {parseAuthorConfig} from '../../src/settings/author-config.js'
import {resolveSettings, type ServerFlags} from '../../src/settings/settings.js'
import {callEnvironmentFor} from '../../src/mcp/lifecycle.js'
import {buildServerPlan} from '../../src/mcp/plan.js'
import {createServerFactory} from '../../src/mcp/factory.js'
import {generateCli} from '../fixtures/generate-cli.js'
import {badPropertyNames, rejectedKeywords} from '../helpers/schema-keywords.js'
import {ROOT} from '../helpers/taskbox.js'

type Listed = Awaited<ReturnType<Client['listTools']>>['tools']

/** tools/list exactly as a client receives it, from the real server factory over an in-memory transport. */
async function listTools(
  config: Config,
  flags: ServerFlags = {},
  {sdkHandler = false} = {},
): Promise<{commandTools: number; maxBytes: number; maxTools: number; tools: Listed}> {
  const settings = resolveSettings(parseAuthorConfig((config.pjson.oclif as {mcp?: unknown}).mcp), flags)
  const plan = buildServerPlan(config, settings)
  const env = callEnvironmentFor(plan)
  const server = createServerFactory(plan, env)()
  if (sdkHandler) {
    // Put the SDK's own tools/list and tools/call handlers back in place of the server's precomputed listing.
    server.server.removeRequestHandler('tools/list')
    server.server.removeRequestHandler('tools/call')
    const internals = server as unknown as {_toolHandlersInitialized: boolean; setToolRequestHandlers(): void}
    internals._toolHandlersInitialized = false
    internals.setToolRequestHandlers()
  }

  const client = new Client({name: 'guardrails', version: '1'})
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
  await Promise.all([server.connect(serverSide), client.connect(clientSide)])
  try {
    const {tools} = await client.listTools()
    return {commandTools: plan.projection.band.length, maxBytes: settings.projection.maxBytes, maxTools: settings.projection.maxTools, tools}
  } finally {
    await client.close()
    await server.close()
    await env.dispose()
  }
}

const clis: {config?: Config; flags?: ServerFlags; name: string}[] = [
  {name: 'the example CLI'},
  {name: 'a generated CLI of 1,000 commands'},
  // Tight: a few kilobytes left for commands once the built-in tools have theirs.
  {flags: {'max-bytes': 10_000, 'max-tools': 100}, name: 'a generated CLI of 1,000 commands, under a tight byte budget'},
  {name: 'the published oclif CLI (npm package "oclif")'},
]
let generatedRoot: string

beforeAll(async () => {
  generatedRoot = mkdtempSync(join(tmpdir(), 'guardrails-'))
  const generated = await Config.load(generateCli(generatedRoot, {minCommands: 1000}).root)
  expect(generated.commands.length).toBeGreaterThanOrEqual(1000)
  clis[0].config = await Config.load(join(ROOT, 'examples/taskbox'))
  clis[1].config = generated
  clis[2].config = generated
  clis[3].config = await Config.load(join(ROOT, 'node_modules/oclif'))
})

afterAll(() => rmSync(generatedRoot, {force: true, recursive: true}))

describe.each(clis)('guardrails over every listed tool of $name', (cli) => {
  let listing: Awaited<ReturnType<typeof listTools>>

  beforeAll(async () => {
    listing = await listTools(cli.config!, cli.flags)
    // Every check below runs over the listed tools: an empty band would pass them all.
    expect(listing.commandTools).toBeGreaterThan(0)
  })

  it('has valid, unique names of at most 64 characters', () => {
    const names = listing.tools.map((t) => t.name)
    for (const name of names) expect(name).toMatch(/^[A-Za-z0-9_-]{1,64}$/)
    expect(new Set(names).size).toBe(names.length)
  })

  it('has object input schemas with no top-level combinators and no extra properties', () => {
    for (const tool of listing.tools) {
      const schema = tool.inputSchema as Record<string, unknown>
      expect(schema.type).toBe('object')
      expect(schema.additionalProperties).toBe(false)
      for (const combinator of ['oneOf', 'anyOf', 'allOf', 'not']) expect(schema).not.toHaveProperty(combinator)
    }
  })

  it('uses no schema keyword that major clients refuse (Gemini: propertyNames, const, …), built-ins included', () => {
    for (const tool of listing.tools) expect([tool.name, rejectedKeywords(tool.inputSchema)]).toEqual([tool.name, []])
  })

  it('names every property as every host accepts (Claude Code drops a tool with any other name)', () => {
    for (const tool of listing.tools) expect([tool.name, badPropertyNames(tool.inputSchema)]).toEqual([tool.name, []])
  })

  it('sets every annotation on every tool', () => {
    for (const tool of listing.tools) {
      for (const hint of ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const) {
        expect(typeof tool.annotations?.[hint]).toBe('boolean')
      }
    }
  })

  it('keeps the command tools within the tool count, and the whole listing within the byte budget', () => {
    expect(listing.commandTools).toBeLessThanOrEqual(listing.maxTools)
    // The budget is for tools/list's whole result as a client receives it, the built-in tools included.
    expect(Buffer.byteLength(JSON.stringify({tools: listing.tools}))).toBeLessThanOrEqual(listing.maxBytes)
  })

  it('lists the same tools in the same order every time', async () => {
    const again = await listTools(cli.config!, cli.flags)
    expect(again.tools.map((t) => t.name)).toEqual(listing.tools.map((t) => t.name))
    expect(JSON.stringify(again.tools)).toBe(JSON.stringify(listing.tools))
  })

  it("lists exactly what the SDK's own tools/list handler would", async () => {
    const sdk = await listTools(cli.config!, cli.flags, {sdkHandler: true})
    // Less the SDK's `$schema` (2020-12, MCP's default dialect): the one thing the server leaves out on purpose.
    const withoutDialect = sdk.tools.map((tool) => {
      const {$schema: _dialect, ...inputSchema} = tool.inputSchema
      return Object.fromEntries(Object.entries(tool).map(([key, value]) => [key, key === 'inputSchema' ? inputSchema : value]))
    })
    expect(sdk.tools.every((tool) => tool.inputSchema.$schema === 'https://json-schema.org/draft/2020-12/schema')).toBe(true)
    // Every command in reach is registered (a host that searches its tools lists them all); the SDK lists what is
    // registered, the server what this host gets: the same entries, in the same order.
    const listed = new Set(listing.tools.map((tool) => tool.name))
    expect(JSON.stringify(listing.tools)).toBe(JSON.stringify(withoutDialect.filter((tool) => listed.has(tool.name as string))))
  })
})
