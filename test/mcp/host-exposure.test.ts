// One exposure per kind of host (src/tools/exposure/host-exposure.ts): a host that searches its tools itself (Claude
// Code, Codex) is listed every command in reach; one that puts every tool before its model gets the typed band and
// the gateway; one that caps its tools gets the band within its cap. Served in process to the official client, which
// says it is the host (clientInfo), as each host does.
import {Client} from '@modelcontextprotocol/client'
import {InMemoryTransport} from '@modelcontextprotocol/server'
import {afterAll, beforeAll, describe, expect, it} from '@jest/globals'
import {Config} from '@oclif/core'
import {join} from 'node:path'

import {createServerFactory} from '../../src/mcp/factory.js'
import {callEnvironmentFor} from '../../src/mcp/lifecycle.js'
import {buildServerPlan, type ServerPlan} from '../../src/mcp/plan.js'
import type {CallEnvironment} from '../../src/tools/execution/call-environment.js'
import {AGENT_HOSTS, type AgentHost, UNKNOWN_HOST} from '../../src/settings/agent-hosts.js'
import {parseAuthorConfig} from '../../src/settings/author-config.js'
import {type ExposureChoice, resolveSettings, type ServerFlags} from '../../src/settings/settings.js'
import {exposureFor, hostCommands} from '../../src/tools/exposure/host-exposure.js'
import {ROOT} from '../helpers/taskbox.js'

let config: Config
/** One call environment per plan a server was made of. */
const envs = new Map<ServerPlan, CallEnvironment>()

beforeAll(async () => {
  config = await Config.load(join(ROOT, 'examples/taskbox'))
})

afterAll(async () => {
  for (const env of envs.values()) await env.dispose()
})

function planOf(flags: ServerFlags): ServerPlan {
  const plan = buildServerPlan(config, resolveSettings(parseAuthorConfig((config.pjson.oclif as {mcp?: unknown}).mcp), {workers: 0, ...flags}))
  return plan
}

/** The official client as `clientName` (the name a host sends), connected to a server of `plan`. */
async function as<T>(clientName: string, plan: ServerPlan, use: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({name: clientName, version: '1'})
  const server = createServerFactory(plan, envs.get(plan) ?? envs.set(plan, callEnvironmentFor(plan)).get(plan)!)()
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
  await Promise.all([server.connect(serverSide), client.connect(clientSide)])
  try {
    return await use(client)
  } finally {
    await Promise.all([client.close(), server.close()])
  }
}

const structured = (answer: unknown) => (answer as {structuredContent: Record<string, unknown>}).structuredContent

describe('exposureFor', () => {
  it.each<[AgentHost, ExposureChoice, string]>([
    [AGENT_HOSTS['claude-code'], 'auto', 'search'],
    [AGENT_HOSTS.codex, 'auto', 'search'],
    [AGENT_HOSTS.gemini, 'auto', 'band'],
    [AGENT_HOSTS.cursor, 'auto', 'band'],
    [UNKNOWN_HOST, 'auto', 'band'],
    [AGENT_HOSTS['claude-code'], 'band', 'band'],
    [AGENT_HOSTS.gemini, 'search', 'search'],
  ])('%o with %s → %s', (host, choice, exposure) => {
    expect(exposureFor(host, choice)).toBe(exposure)
  })
})

describe('one exposure per kind of host', () => {
  // Three commands in the band; the other six only through the gateway, where the band is what a host gets.
  const flags = {'max-tools': 3}

  it('lists every command in reach to a host that searches its tools, the band to the others', async () => {
    const plan = planOf(flags)
    const all = [...plan.projection.executable.values()].map((tool) => tool.name).sort()
    const band = plan.projection.band.map((tool) => tool.name)
    const commandsListed = async (name: string) => {
      const {tools} = await as(name, plan, (client) => client.listTools())
      return tools.map((tool) => tool.name).filter((tool) => all.includes(tool))
    }

    expect(band).toHaveLength(3)
    expect(await commandsListed('claude-code')).toEqual(all)
    expect(await commandsListed('codex-mcp-client')).toEqual(all)
    expect(await commandsListed('gemini-cli-mcp-client')).toEqual(band)
    expect(await commandsListed('some-script')).toEqual(band)
  })

  it('says to each host whether a command is a tool of its own, and how to call it', async () => {
    const plan = planOf(flags)
    const outside = [...plan.projection.executable.values()].find((tool) => !plan.projection.inBand.has(tool))!
    for (const [name, listed] of [['claude-code', true], ['gemini-cli-mcp-client', false]] as const) {
      await as(name, plan, async (client) => {
        const found = structured(await client.callTool({arguments: {query: outside.displayId}, name: 'find_commands'}))
        expect((found.hits as {id: string; listed: boolean; tool: null | string}[])[0]).toMatchObject({id: outside.displayId, listed, tool: listed ? outside.name : null})
        const described = structured(await client.callTool({arguments: {command: outside.displayId}, name: 'describe_command'}))
        expect(described).toMatchObject({listed, tool: listed ? outside.name : null})
        const reference = await client.readResource({uri: `taskbox://commands/${outside.id}`})
        expect((reference.contents[0] as {text: string}).text).toContain(listed ? `Call the tool \`${outside.name}\`` : 'Not listed as a tool: run it with `run_command`')
        const capabilities = structured(await client.callTool({arguments: {}, name: 'describe_capabilities'}))
        expect((capabilities.tools as string[]).includes(outside.name)).toBe(listed)
      })
    }
  })

  it('answers a call of any command in reach by its tool name, whichever host lists it', async () => {
    const plan = planOf(flags)
    const outside = [...plan.projection.executable.values()].find((tool) => !plan.projection.inBand.has(tool) && tool.hints.readOnlyHint)!
    await as('gemini-cli-mcp-client', plan, async (client) => {
      const answer = (await client.callTool({arguments: {}, name: outside.name})) as {content: {text: string}[]}
      expect(answer.content[0].text).toMatch(new RegExp(`^\\$ taskbox ${outside.displayId}`))
    })
  })

  it('keeps a capped host within its cap, the band\'s first kept', () => {
    const plan = planOf({'max-tools': 40})
    const capped: AgentHost = {...AGENT_HOSTS.cursor, toolCap: 14}
    const builtins = plan.listed.filter((entry) => entry.kind === 'builtin').length
    const commands = hostCommands(plan.projection, capped, 'auto', builtins)
    expect(commands).toHaveLength(14 - builtins)
    expect(commands.every((tool) => plan.projection.inBand.has(tool))).toBe(true)
    // Read-only ones first, as the band's default order puts them.
    expect(commands.filter((tool) => tool.hints.readOnlyHint).length).toBe(Math.min(commands.length, plan.projection.band.filter((tool) => tool.hints.readOnlyHint).length))
  })

  it('is the person\'s or author\'s to choose: --exposure band keeps a searching host to the band', async () => {
    const plan = planOf({...flags, exposure: 'band'})
    const {tools} = await as('claude-code', plan, (client) => client.listTools())
    expect(tools.filter((tool) => !plan.listed.some((entry) => entry.kind === 'builtin' && entry.tool.name === tool.name))).toHaveLength(3)
  })

  it('keeps a searching host to the band the person or the author chose (--tools, a profile)', async () => {
    const plan = planOf({tools: ['status', 'tasks:list']})
    const {tools} = await as('claude-code', plan, (client) => client.listTools())
    const commands = tools.map((tool) => tool.name).filter((name) => plan.projection.executable.has(name.replaceAll('_', ':')) || name === 'status')
    expect(commands.sort()).toEqual(['status', 'tasks_list'])
  })

  it('tells each host why every command it is not listed is missing, in describe_capabilities and mcp tools', async () => {
    const plan = planOf(flags)
    for (const [name, gateway] of [['claude-code', 0], ['gemini-cli-mcp-client', plan.projection.executable.size - 3]] as const) {
      const data = await as(name, plan, async (client) => structured(await client.callTool({arguments: {}, name: 'describe_capabilities'})))
      const outside = (data.notListed as {reason: string}[]).filter((entry) => entry.reason === 'outside the typed band (reachable through run_command)')
      expect([name, outside.length, (data.gateway as {count: number}).count]).toEqual([name, gateway, gateway])
    }
  })
})
