// cli_info (src/tools/builtins/cli-info.ts), called directly on plans of the example CLI: the CLI's name and
// versions, its plugins, the protocol revisions served, and the count of commands in reach and listed for the host.
import type {Config} from '@oclif/core'

import {beforeAll, describe, expect, it} from '@jest/globals'
import {readFileSync} from 'node:fs'
import {join} from 'node:path'

import {PROTOCOL_REVISIONS} from '../../../src/mcp/plan.js'
import {AGENT_HOSTS} from '../../../src/settings/agent-hosts.js'
import {BUILTIN_HINTS} from '../../../src/tools/builtins/builtin-tool.js'
import {cliInfoTool} from '../../../src/tools/builtins/cli-info.js'
import {accepts, callBuiltin, commandOf, dataOf, fencedOf, listingOfCommands, loadTaskbox, scopeOf, taskboxPlan} from '../../helpers/builtins.js'
import {ROOT} from '../../helpers/taskbox.js'

const versionOf = (packageJson: string) => (JSON.parse(readFileSync(packageJson, 'utf8')) as {version: string}).version

let config: Config

beforeAll(async () => {
  config = await loadTaskbox()
})

describe('cli_info', () => {
  it('takes no arguments and only reads', () => {
    const tool = cliInfoTool(scopeOf(taskboxPlan(config)))
    expect(accepts(tool, {})).toBe(true)
    expect(accepts(tool, {bin: 'taskbox'})).toBe(false)
    expect(tool.annotations).toEqual({...BUILTIN_HINTS, title: 'About taskbox'})
    expect(tool.description).toMatch(/^The taskbox CLI this server runs/)
  })

  it('says which CLI runs, on what, with which plugins, and how many commands are in reach and listed', async () => {
    const result = await callBuiltin(cliInfoTool(scopeOf(taskboxPlan(config))))
    expect(result.isError).toBeUndefined()
    expect(dataOf(result)).toEqual({
      bin: 'taskbox',
      commands: 10,
      name: 'taskbox',
      node: process.version,
      // The @oclif/core the example CLI resolves: the repository's own (the example has no node_modules of its own).
      oclifCore: versionOf(join(ROOT, 'node_modules/@oclif/core/package.json')),
      platform: `${process.platform}-${process.arch}`,
      plugins: [
        {name: 'taskbox', type: 'core', version: '1.4.0'},
        {name: 'oclif-plugin-mcp', type: 'core', version: versionOf(join(ROOT, 'package.json'))},
      ],
      protocolRevisions: PROTOCOL_REVISIONS,
      version: '1.4.0',
    })
    expect(PROTOCOL_REVISIONS[0]).toBe('2026-07-28')
    const {data, summary} = fencedOf(result)
    expect(summary).toBe('taskbox 1.4.0 (10 commands available, 10 listed as tools)')
    expect(data).toEqual(dataOf(result))
  })

  it('counts what each host is listed: the band of three, or every command for a host that searches its tools', async () => {
    const tool = cliInfoTool(scopeOf(taskboxPlan(config, {'max-tools': 3})))
    expect(fencedOf(await callBuiltin(tool)).summary).toBe('taskbox 1.4.0 (10 commands available, 3 listed as tools)')
    expect(fencedOf(await callBuiltin(tool, {}, {host: AGENT_HOSTS['claude-code']})).summary).toBe('taskbox 1.4.0 (10 commands available, 10 listed as tools)')
    // Asked again, each host still gets its own count.
    expect(fencedOf(await callBuiltin(tool)).summary).toBe('taskbox 1.4.0 (10 commands available, 3 listed as tools)')
  })

  it('on a read-only server counts only the read-only commands as in reach', async () => {
    const result = await callBuiltin(cliInfoTool(scopeOf(taskboxPlan(config, {'read-only': true}))))
    expect(dataOf(result).commands).toBe(4)
    expect(fencedOf(result).summary).toBe('taskbox 1.4.0 (4 commands available, 4 listed as tools)')
  })

  it('reads the listing and the revisions from its scope, and hands out a fresh content list each time', async () => {
    const plan = taskboxPlan(config)
    const listed = listingOfCommands([commandOf(plan, 'status'), commandOf(plan, 'tasks:list')])
    const tool = cliInfoTool({...scopeOf(plan), listingOf: () => listed, revisions: ['2025-06-18']})
    const first = await callBuiltin(tool)
    expect(fencedOf(first).summary).toBe('taskbox 1.4.0 (10 commands available, 2 listed as tools)')
    expect(dataOf(first).protocolRevisions).toEqual(['2025-06-18'])
    // A caller that adds to its answer (a note, a link) does not change the next caller's.
    first.content.push({text: 'added by the first caller', type: 'text'})
    const second = await callBuiltin(tool)
    expect(second.content).toHaveLength(1)
    expect(fencedOf(second).data).toEqual(dataOf(first))
  })
})
