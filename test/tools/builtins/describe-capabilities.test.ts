// describe_capabilities (src/tools/builtins/describe-capabilities.ts), called directly on plans of the example CLI:
// what the caller's host is listed, why every other command is not, and what the author kept out of sight counted,
// never named.
import type {Config} from '@oclif/core'

import {beforeAll, describe, expect, it} from '@jest/globals'

import {AGENT_HOSTS} from '../../../src/settings/agent-hosts.js'
import {BUILTIN_HINTS} from '../../../src/tools/builtins/builtin-tool.js'
import {describeCapabilitiesTool} from '../../../src/tools/builtins/describe-capabilities.js'
import {BUILTIN_FACTORIES} from '../../../src/tools/builtins/all.js'
import {GATEWAY_REASON} from '../../../src/tools/exposure/projection.js'
import {accepts, callBuiltin, dataOf, fencedOf, loadTaskbox, scopeOf, taskboxPlan, textsOf} from '../../helpers/builtins.js'

const BUILTINS = ['describe_capabilities', 'cli_info', 'list_commands', 'describe_command', 'find_commands', 'run_command', 'job_status', 'cancel_job', 'read_output', 'search_docs', 'read_doc']
const COMMANDS = ['init', 'report:weekly', 'status', 'sync', 'tasks:add', 'tasks:clear', 'tasks:done', 'tasks:list', 'tasks:remove', 'tasks:show']
const WRITING = ['init', 'sync', 'tasks:add', 'tasks:clear', 'tasks:done', 'tasks:remove']
const OWN = ['mcp', 'mcp:call', 'mcp:config', 'mcp:pack', 'mcp:serve', 'mcp:skill', 'mcp:stdio', 'mcp:tools'].map((command) => ({command, reason: 'the MCP server itself'}))
const toolName = (id: string) => id.replaceAll(':', '_')

let config: Config

beforeAll(async () => {
  config = await loadTaskbox()
})

describe('describe_capabilities', () => {
  it('takes no arguments, only reads, and is the first built-in', () => {
    const tool = describeCapabilitiesTool(scopeOf(taskboxPlan(config)))
    expect(accepts(tool, {})).toBe(true)
    expect(accepts(tool, {verbose: true})).toBe(false)
    expect(tool.name).toBe('describe_capabilities')
    expect(tool.hints).toEqual(BUILTIN_HINTS)
    expect(tool.annotations).toEqual({...BUILTIN_HINTS, title: 'Describe capabilities'})
    expect(BUILTIN_FACTORIES.map((make) => make(scopeOf(taskboxPlan(config))).name)).toEqual(BUILTINS)
  })

  it('with every command fitting: all of them listed, nothing through run_command, the own commands named, the hidden one counted', async () => {
    const plan = taskboxPlan(config)
    const result = await callBuiltin(describeCapabilitiesTool(scopeOf(plan)))
    expect(result.isError).toBeUndefined()
    expect(dataOf(result)).toEqual({
      gateway: {count: 0, runWith: 'run_command'},
      limits: {maxBytes: 32_768, maxTools: 40, reservedBytes: plan.projection.limits.reservedBytes},
      notListed: OWN,
      notNamed: {hidden: 1},
      profile: {name: null, source: 'all commands fit'},
      readOnly: false,
      tools: [...BUILTINS, ...COMMANDS.map((id) => toolName(id))],
      typedBand: {bytes: plan.projection.bandBytes, count: 10},
    })
    // The built-ins' own entries are what the band's budget was reserved for.
    expect(plan.projection.limits.reservedBytes).toBeGreaterThan(0)
    const {data, summary} = fencedOf(result)
    expect(summary).toBe('21 tools listed (10 of them commands); 0 more commands through run_command; read-write')
    expect(data).toEqual(dataOf(result))
    expect(textsOf(result)).not.toContain('debug')
  })

  it('counts what the author hid or excluded without naming it, and names what the person excluded', async () => {
    const plan = taskboxPlan(config, {exclude: ['tasks:clear']}, {commands: {sync: {exclude: true}}})
    const result = await callBuiltin(describeCapabilitiesTool(scopeOf(plan)))
    const data = dataOf(result)
    expect(data.notNamed).toEqual({'excluded by author config': 1, hidden: 1})
    expect(data.notListed).toEqual([...OWN, {command: 'tasks:clear', reason: 'excluded by flag'}])
    expect(data.tools).toEqual([...BUILTINS, ...COMMANDS.filter((id) => id !== 'sync' && id !== 'tasks:clear').map((id) => toolName(id))])
    // Neither the hidden command nor the author's excluded one appears anywhere in the answer.
    for (const secret of ['sync', 'debug']) expect(JSON.stringify(result)).not.toContain(secret)
    expect(fencedOf(result).summary).toBe('19 tools listed (8 of them commands); 0 more commands through run_command; read-write')
  })

  it('answers each host with what that host is listed: a band of three for one, every command for a host that searches', async () => {
    const plan = taskboxPlan(config, {'max-tools': 3})
    const tool = describeCapabilitiesTool(scopeOf(plan))
    const band = plan.projection.band.map((command) => command.id)
    expect(band).toHaveLength(3)
    const gateway = COMMANDS.filter((id) => !band.includes(id))

    const unknownHost = dataOf(await callBuiltin(tool))
    expect(unknownHost.tools).toEqual([...BUILTINS, ...band.map((id) => toolName(id))])
    expect(unknownHost.gateway).toEqual({count: 7, runWith: 'run_command'})
    expect(unknownHost.typedBand).toEqual({bytes: plan.projection.bandBytes, count: 3})
    expect(unknownHost.profile).toEqual({name: null, source: 'default selection'})
    expect(unknownHost.limits).toEqual({maxBytes: 32_768, maxTools: 3, reservedBytes: plan.projection.limits.reservedBytes})
    const reachable = (unknownHost.notListed as {command: string; reason: string}[]).filter((entry) => entry.reason === GATEWAY_REASON)
    expect(reachable.map((entry) => entry.command)).toEqual(gateway)

    // Claude Code searches its tools itself: it is listed every command in reach, none through run_command.
    const searching = await callBuiltin(tool, {}, {host: AGENT_HOSTS['claude-code']})
    expect(dataOf(searching).tools).toEqual([...BUILTINS, ...COMMANDS.map((id) => toolName(id))])
    expect(dataOf(searching).gateway).toEqual({count: 0, runWith: 'run_command'})
    expect(dataOf(searching).notListed).toEqual(OWN)
    expect(fencedOf(searching).summary).toBe('21 tools listed (10 of them commands); 0 more commands through run_command; read-write')

    // Each host's answer is its own, asked again in any order.
    expect(fencedOf(await callBuiltin(tool)).summary).toBe('14 tools listed (3 of them commands); 7 more commands through run_command; read-write')
    expect(dataOf(await callBuiltin(tool, {}, {host: AGENT_HOSTS['claude-code']}))).toEqual(dataOf(searching))
  })

  it('on a read-only server names every writing command as left out by read-only mode', async () => {
    const plan = taskboxPlan(config, {'read-only': true})
    const result = await callBuiltin(describeCapabilitiesTool(scopeOf(plan)))
    const data = dataOf(result)
    expect(data.readOnly).toBe(true)
    expect(data.notListed).toEqual([...OWN, ...WRITING.map((command) => ({command, reason: 'read-only mode'}))].sort((a, b) => (a.command < b.command ? -1 : 1)))
    expect(data.tools).toEqual([...BUILTINS, 'report_weekly', 'status', 'tasks_list', 'tasks_show'])
    expect(data.notNamed).toEqual({hidden: 1})
    expect(fencedOf(result).summary).toBe('15 tools listed (4 of them commands); 0 more commands through run_command; read-only')
  })
})
