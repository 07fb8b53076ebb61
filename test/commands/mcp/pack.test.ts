// `mcp pack` on the example CLI: every host's folder, the bundle and server.json written from the CLI's own metadata,
// each launch line starting a server that names its host and keeps tool names within the host's 64 characters, the
// bundle a zip whose manifest carries the listed tools and the credentials, and a second run that updates in place and
// says what changed. The hosts' own tools check the same folders in test/corpus/pack.corpus.ts.
import {afterAll, afterEach, describe, expect, it} from '@jest/globals'
import {execFileSync} from 'node:child_process'
import {existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'

import {plain, runTaskbox, stopAll} from '../../helpers/run-cli.js'
import {connectTaskbox, ROOT, scratch, taskboxEnv} from '../../helpers/taskbox.js'

const space = scratch('mcp-pack-')
const home = join(space.dir, 'home')
const project = join(space.dir, 'project')
mkdirSync(project)
const env = taskboxEnv(home)
afterEach(() => stopAll())
afterAll(() => space.cleanup())

const pack = (args: string[]) => runTaskbox(['mcp', 'pack', ...args], {cwd: project, env})
const readJson = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Record<string, any>

interface Report {
  bundle: {bytes: number; file: string; kind: string; tools: number}
  files: {path: string; status: string}[]
  hosts: {host: string; longestTool: number; maxToolName: number; prefix: string}[]
  registry: {check: {missing: string[]; notes: string[]}; file: string}
  tools: {added: string[]; changed: string[]; removed: string[]; total: number}
  version: {before?: string; now: string}
}

/** The entries of a zip, listed by the system's unzip. */
const zipEntries = (file: string) => execFileSync('unzip', ['-Z1', file], {encoding: 'utf8'}).trim().split('\n')

describe('mcp pack', () => {
  const out = join(space.dir, 'packed')
  let first: Report

  it('writes a folder per host, the bundle, server.json and the record', async () => {
    const ran = await pack(['--out', out, '--json'])
    expect(ran.code).toBe(0)
    first = JSON.parse(ran.stdout) as Report
    expect(first.hosts.map((host) => host.host)).toEqual(['claude-code', 'codex', 'gemini', 'cursor'])
    for (const file of [
      'claude-code/.claude-plugin/plugin.json',
      'claude-code/.claude-plugin/marketplace.json',
      'claude-code/.mcp.json',
      'claude-code/skills/taskbox/SKILL.md',
      'codex/.codex-plugin/plugin.json',
      'codex/.agents/plugins/marketplace.json',
      'codex/.mcp.json',
      'codex/skills/taskbox/SKILL.md',
      'gemini/gemini-extension.json',
      'gemini/skills/taskbox/SKILL.md',
      'cursor/.cursor-plugin/plugin.json',
      'cursor/mcp.json',
      'cursor/skills/taskbox/SKILL.md',
      'taskbox.mcpb',
      'server.json',
      'README.md',
      'pack.json',
    ])
      expect([file, existsSync(join(out, file))]).toEqual([file, true])
    expect(first.files.every((file) => file.status === 'added')).toBe(true)
    // The same skill `mcp skill` prints.
    const printed = await runTaskbox(['mcp', 'skill'], {cwd: project, env})
    expect(readFileSync(join(out, 'claude-code/skills/taskbox/SKILL.md'), 'utf8').trimEnd()).toBe(printed.stdout.trimEnd())
  })

  it('takes name, version, description and title from package.json', () => {
    const taskbox = readJson(join(ROOT, 'examples/taskbox/package.json'))
    const claude = readJson(join(out, 'claude-code/.claude-plugin/plugin.json'))
    expect(claude).toMatchObject({description: expect.stringContaining('A small task tracker'), displayName: 'Taskbox', name: 'taskbox', version: taskbox.version})
    expect(readJson(join(out, 'claude-code/.claude-plugin/marketplace.json'))).toMatchObject({name: 'taskbox-mcp', plugins: [{name: 'taskbox', source: './', version: taskbox.version}]})
    expect(readJson(join(out, 'gemini/gemini-extension.json'))).toMatchObject({name: 'taskbox', version: taskbox.version})
    expect(readJson(join(out, 'codex/.codex-plugin/plugin.json'))).toMatchObject({mcpServers: './.mcp.json', name: 'taskbox', skills: './skills/', version: taskbox.version})
  })

  it('launches mcp stdio for each host by name, capping tool names where the prefix is long', () => {
    const claude = readJson(join(out, 'claude-code/.mcp.json')).mcpServers.taskbox
    // mcp__plugin_taskbox_taskbox__ is 29 characters: 35 are left.
    expect(claude).toEqual({args: ['mcp', 'stdio', '--client', 'claude-code', '--max-tool-name', '35'], command: 'taskbox'})
    expect(readJson(join(out, 'codex/.mcp.json')).mcpServers.taskbox).toMatchObject({args: ['mcp', 'stdio', '--client', 'codex'], command: 'taskbox'})
    expect(readJson(join(out, 'gemini/gemini-extension.json')).mcpServers.taskbox).toEqual({args: ['mcp', 'stdio', '--client', 'gemini'], command: 'taskbox'})
    expect(readJson(join(out, 'cursor/mcp.json')).mcpServers.taskbox).toEqual({args: ['mcp', 'stdio', '--client', 'cursor'], command: 'taskbox'})
    expect(first.hosts.find((host) => host.host === 'claude-code')).toMatchObject({maxToolName: 35, prefix: 'mcp__plugin_taskbox_taskbox__'})
  })

  it("starts a server from the Claude Code plugin's launch line whose every tool fits behind the plugin prefix", async () => {
    const {args} = readJson(join(out, 'claude-code/.mcp.json')).mcpServers.taskbox as {args: string[]}
    const server = await connectTaskbox({args: args.slice(2), cwd: project, env, era: 'legacy'})
    try {
      const {tools} = await server.client.listTools()
      expect(tools.length).toBeGreaterThan(11)
      for (const tool of tools) expect(`mcp__plugin_taskbox_taskbox__${tool.name}`.length).toBeLessThanOrEqual(64)
    } finally {
      await server.close()
    }
  })

  it('passes credential variables on where a host filters the environment, and never a value', () => {
    const variable = 'TASKBOX_SYNC_TOKEN'
    expect(readJson(join(out, 'codex/.mcp.json')).mcpServers.taskbox.env_vars).toContain(variable)
    expect(readJson(join(out, 'gemini/gemini-extension.json')).settings).toEqual([expect.objectContaining({envVar: variable, sensitive: true})])
    expect(readJson(join(out, 'server.json')).packages[0].environmentVariables).toEqual([expect.objectContaining({isSecret: true, name: variable})])
    // Claude Code and Cursor start servers with the person's whole environment.
    expect(readJson(join(out, 'claude-code/.mcp.json')).mcpServers.taskbox.env).toBeUndefined()
  })

  it('makes a bundle that launches the installed CLI, listing the tools Claude Desktop is served', () => {
    expect(first.bundle.kind).toBe('launch')
    expect(zipEntries(first.bundle.file)).toEqual(['manifest.json'])
    const manifest = JSON.parse(execFileSync('unzip', ['-p', first.bundle.file, 'manifest.json'], {encoding: 'utf8'})) as Record<string, any>
    expect(manifest).toMatchObject({
      manifest_version: '0.3',
      name: 'taskbox',
      server: {mcp_config: {args: ['mcp', 'stdio', '--client', 'claude-desktop'], command: 'taskbox', env: {TASKBOX_SYNC_TOKEN: '${user_config.TASKBOX_SYNC_TOKEN}'}}, type: 'binary'},
      user_config: {TASKBOX_SYNC_TOKEN: {required: false, sensitive: true, type: 'string'}},
    })
    expect(manifest.tools.map((tool: {name: string}) => tool.name)).toEqual(expect.arrayContaining(['run_command', 'tasks_list']))
  })

  it('writes server.json for the npm package and says what publishing needs', () => {
    const server = readJson(join(out, 'server.json'))
    expect(server.packages).toEqual([
      expect.objectContaining({identifier: 'taskbox', packageArguments: [{type: 'positional', value: 'mcp'}, {type: 'positional', value: 'stdio'}], registryType: 'npm', transport: {type: 'stdio'}}),
    ])
    expect(server.description.length).toBeLessThanOrEqual(100)
    // taskbox is private and claims no registry name.
    expect(first.registry.check.missing.join('\n')).toMatch(/mcpName/)
    expect(first.registry.check.missing.join('\n')).toMatch(/"private": true/)
  })

  it('changes nothing when run again on the same CLI, and says so', async () => {
    const again = await pack(['--out', out])
    expect(again.code).toBe(0)
    expect(again.stdout).toMatch(/Tools since the last pack: none changed/)
    const report = JSON.parse((await pack(['--out', out, '--json'])).stdout) as Report
    expect(report.files.filter((file) => file.status !== 'unchanged')).toEqual([])
  })

  it('updates in place and reports the tools that left, with the flags that changed them', async () => {
    const ran = await pack(['--out', out, '--read-only', '--json'])
    expect(ran.code).toBe(0)
    const report = JSON.parse(ran.stdout) as Report
    expect(report.tools.removed).toEqual(expect.arrayContaining(['tasks:add', 'tasks:clear']))
    expect(report.tools.added).toEqual([])
    expect(readJson(join(out, 'claude-code/.mcp.json')).mcpServers.taskbox.args).toContain('--read-only')
    expect(report.files).toContainEqual({path: 'claude-code/.mcp.json', status: 'updated'})
  })

  it('removes the files it made before and no longer makes', async () => {
    const ran = await pack(['--out', out, '--host', 'claude-code', '--no-registry', '--json'])
    const report = JSON.parse(ran.stdout) as Report
    expect(report.files).toContainEqual({path: 'server.json', status: 'removed'})
    expect(existsSync(join(out, 'server.json'))).toBe(false)
    expect(existsSync(join(out, 'gemini/gemini-extension.json'))).toBe(false)
    expect(existsSync(join(out, 'claude-code/.mcp.json'))).toBe(true)
  })

  it('never writes into a folder it did not make', async () => {
    const foreign = join(space.dir, 'foreign')
    mkdirSync(foreign)
    writeFileSync(join(foreign, 'notes.txt'), 'mine')
    const ran = await pack(['--out', foreign])
    expect(ran.code).toBe(1)
    expect(plain(ran.stderr)).toContain('was not written by mcp pack')
    expect(readdirSync(foreign)).toEqual(['notes.txt'])
  })

  it('refuses a name a host cannot take, and one that leaves too little of a tool name', async () => {
    const bad = await pack(['--out', join(space.dir, 'bad'), '--name', 'Task_Box'])
    expect(bad.code).toBe(2)
    expect(plain(bad.stderr)).toContain('cannot name a plugin in every host')
    const long = await pack(['--out', join(space.dir, 'long'), '--name', 'a-very-long-plugin-name'])
    expect(long.code).toBe(1)
    expect(plain(long.stderr)).toMatch(/too long a name for Claude Code.*Give a shorter --name/)
    expect(existsSync(join(space.dir, 'long'))).toBe(false)
  })

  it('refuses to carry a CLI that does not depend on the plugin in its bundle', async () => {
    const ran = await pack(['--out', join(space.dir, 'carry'), '--bundle', 'carry'])
    expect(ran.code).toBe(1)
    expect(plain(ran.stderr)).toMatch(/Cannot carry taskbox in the bundle|does not depend on oclif-plugin-mcp/)
  })
})
