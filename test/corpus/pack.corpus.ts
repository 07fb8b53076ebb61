// `mcp pack` over the example CLI and every corpus CLI, each package checked by its host's own tool from the npm
// registry: Claude Code validates the plugin, adds its folder as a marketplace, installs it and connects to its
// server; Codex adds the marketplace, installs the plugin and lists its server; Gemini CLI validates and installs the
// extension and connects to its server (and lists the example CLI's skill); mcpb validates the bundle's manifest and
// packs it again. Cursor publishes no tool that installs or checks a plugin: its manifest is held to the rules of its
// published schema here. Every tool a plugin's server lists fits behind that host's prefix in 64 characters. Then, on
// the example CLI, a tool call through Claude Code, Gemini CLI and Codex with the package installed, against the
// loopback stand-in for their model APIs.
import {afterAll, beforeAll, describe, expect, it} from '@jest/globals'
import {Client} from '@modelcontextprotocol/client'
import {StdioClientTransport} from '@modelcontextprotocol/client/stdio'
import {chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

import {CORPUS, type CorpusCli, installDir, mcpArgv, nodeOf, prepare, ROOT, runCli} from './clis.js'
import {codexBin, codexTurn} from './codex-turn.js'
import {sentText, startModelEndpoint} from './model-endpoint.js'

const space = realpathSync(mkdtempSync(join(tmpdir(), 'mcp-pack-corpus-')))
// A host killed at the end of a turn may still be writing in its HOME as the folder goes: rm tries again then.
afterAll(() => rmSync(space, {force: true, maxRetries: 5, recursive: true}))

const claude = () => join(installDir('claude-code'), 'node_modules/.bin/claude')
const gemini = () => join(installDir('gemini-cli'), 'node_modules/.bin/gemini')
const mcpb = () => join(installDir('mcpb'), 'node_modules/.bin/mcpb')
const readJson = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Record<string, any>

/** The corpus CLIs whose package carries the CLI in its bundle (the default for a CLI whose author added the plugin). */
const BUNDLE_CARRIED = new Set(['prism', 'zapier'])

/** The example CLI, as a corpus entry: the plugin is its author's dependency. */
const TASKBOX = {bin: 'taskbox', name: 'taskbox', node: 20, separator: ' '} as const

interface Packed {
  env: Record<string, string>
  out: string
  project: string
  report: {hosts: {host: string; longestTool: number; prefix: string; server: string}[]}
}

/**
 * A scratch HOME with the CLI's bin on PATH (what each package launches, as a person's install puts it there), then
 * `mcp pack` into a folder of its own.
 */
async function packed(cli: CorpusCli | typeof TASKBOX, folder: string = cli.name): Promise<Packed> {
  const dir = join(space, folder)
  const home = join(dir, 'home')
  const project = join(dir, 'project')
  const bin = join(dir, 'bin')
  mkdirSync(project, {recursive: true})
  mkdirSync(bin, {recursive: true})
  const base =
    cli.name === 'taskbox'
      ? {HOME: home, PATH: process.env.PATH ?? '', XDG_CACHE_HOME: join(home, 'cache'), XDG_CONFIG_HOME: join(home, 'config'), XDG_DATA_HOME: join(home, 'data')}
      : prepare(cli as CorpusCli, home)
  const node = cli.name === 'taskbox' ? process.execPath : nodeOf(cli as CorpusCli)
  const argv = cli.name === 'taskbox' ? [join(ROOT, 'examples/taskbox/bin/run.js'), 'mcp', 'pack'] : mcpArgv(cli as CorpusCli, 'pack')
  writeFileSync(join(bin, cli.bin), `#!/bin/sh\nexec "${node}" "${argv[0]}" "$@"\n`)
  chmodSync(join(bin, cli.bin), 0o755)
  const env = {...base, DISABLE_AUTOUPDATER: '1', GEMINI_CLI_TRUST_WORKSPACE: 'true', PATH: `${bin}:${base.PATH}`}
  const out = join(dir, 'packed')
  // A bundle carrying the CLI is checked on the two CLIs the bundle benchmark measures (zapier-platform: 30 MB); the
  // others' carry hundreds of MB (asyncapi: 317), so they get a bundle that launches the installed CLI.
  const bundle = BUNDLE_CARRIED.has(cli.name) ? [] : ['--bundle', 'launch']
  // Only a hung pack is stopped: writing a carried bundle takes a minute or more on a loaded machine.
  const ran = await runCli(node, [...argv, '--out', out, '--json', ...bundle], env, project, 600_000)
  if (ran.code !== 0) throw new Error(`${cli.name} mcp pack exited ${ran.code}: ${ran.stderr}`)
  return {env, out, project, report: JSON.parse(ran.stdout) as Packed['report']}
}

/** Codex's environment: its home (which must exist) inside the scratch HOME. */
function codexEnvOf(env: Record<string, string>): Record<string, string> {
  mkdirSync(join(env.HOME, '.codex'), {recursive: true})
  return {...env, CODEX_HOME: join(env.HOME, '.codex')}
}

/** Every tool the server of a package's launch line lists (all pages), started the way the host starts it. */
async function listedNames(launch: {args: string[]; command: string}, env: Record<string, string>, cwd: string): Promise<string[]> {
  const client = new Client({name: 'pack-check', version: '1.0.0'})
  await client.connect(new StdioClientTransport({args: launch.args, command: launch.command, cwd, env, stderr: 'ignore'}))
  try {
    const names: string[] = []
    let cursor: string | undefined
    do {
      const page = await client.listTools(cursor ? {cursor} : {})
      names.push(...page.tools.map((tool) => tool.name))
      cursor = page.nextCursor
    } while (cursor)
    return names
  } finally {
    await client.close()
  }
}

/** The rules of Cursor's published plugin schema (cursor/plugins schemas/plugin.schema.json): no other keys. */
const CURSOR_KEYS = new Set(['agents', 'author', 'category', 'commands', 'description', 'displayName', 'homepage', 'hooks', 'keywords', 'license', 'logo', 'mcpServers', 'minClientVersions', 'name', 'publisher', 'repository', 'rules', 'skills', 'tags', 'variables', 'version'])

for (const cli of [TASKBOX, ...CORPUS]) {
  describe(`mcp pack: ${cli.name}`, () => {
    let pack: Packed
    beforeAll(async () => {
      pack = await packed(cli)
    })

    it('is a plugin Claude Code validates, installs and connects to', async () => {
      const {env, out, project} = pack
      const validated = await runCli(claude(), ['plugin', 'validate', join(out, 'claude-code')], env, project)
      expect([validated.code, validated.stdout]).toEqual([0, expect.stringContaining('Validation passed')])
      expect((await runCli(claude(), ['plugin', 'marketplace', 'add', join(out, 'claude-code')], env, project)).code).toBe(0)
      const name = readJson(join(out, 'claude-code/.claude-plugin/plugin.json')).name as string
      const installed = await runCli(claude(), ['plugin', 'install', `${name}@${name}-mcp`, '--scope', 'user'], env, project)
      expect([installed.code, installed.stdout]).toEqual([0, expect.stringContaining('Successfully installed')])
      const listed = JSON.parse((await runCli(claude(), ['plugin', 'list', '--json'], env, project)).stdout) as {id: string; mcpServers?: Record<string, {args: string[]}>}[]
      const {server} = pack.report.hosts.find((entry) => entry.host === 'claude-code')!
      expect(listed.find((plugin) => plugin.id === `${name}@${name}-mcp`)?.mcpServers?.[server].args).toEqual(expect.arrayContaining(['--client', 'claude-code']))
      const got = await runCli(claude(), ['mcp', 'get', `plugin:${name}:${server}`], env, project)
      expect(got.stdout).toMatch(/Status: ✔ Connected/)
    })

    it('is a plugin Codex installs from its marketplace and lists the server of', async () => {
      const {env, out, project} = pack
      const codexEnv = codexEnvOf(env)
      const name = readJson(join(out, 'codex/.codex-plugin/plugin.json')).name as string
      expect((await runCli(codexBin(), ['plugin', 'marketplace', 'add', join(out, 'codex')], codexEnv, project)).code).toBe(0)
      expect((await runCli(codexBin(), ['plugin', 'add', `${name}@${name}-mcp`], codexEnv, project)).code).toBe(0)
      const plugins = JSON.parse((await runCli(codexBin(), ['plugin', 'list', '--json'], codexEnv, project)).stdout) as {installed: {enabled: boolean; pluginId: string}[]}
      expect(plugins.installed).toContainEqual(expect.objectContaining({enabled: true, pluginId: `${name}@${name}-mcp`}))
      const servers = JSON.parse((await runCli(codexBin(), ['mcp', 'list', '--json'], codexEnv, project)).stdout) as {name: string; transport: {args: string[]}}[]
      expect(servers.find((server) => server.name === name)?.transport.args).toEqual(expect.arrayContaining(['--client', 'codex']))
    })

    it('is an extension Gemini CLI validates, installs and lists (and connects to, for the example CLI)', async () => {
      const {env, out, project} = pack
      const validated = await runCli(gemini(), ['extensions', 'validate', join(out, 'gemini')], env, project)
      expect([validated.code, validated.stdout + validated.stderr]).toEqual([0, expect.stringContaining('has been successfully validated')])
      const installed = await runCli(gemini(), ['extensions', 'install', join(out, 'gemini'), '--consent', '--skip-settings'], env, project)
      expect([installed.code, installed.stdout + installed.stderr]).toEqual([0, expect.stringContaining('installed successfully and enabled')])
      const name = readJson(join(out, 'gemini/gemini-extension.json')).name as string
      // Gemini CLI prints the list on stderr.
      const listed = await runCli(gemini(), ['extensions', 'list', '-o', 'json'], env, project)
      const extensions = JSON.parse(listed.stdout || listed.stderr) as {mcpServers: Record<string, {args: string[]}>; name: string; skills?: {name: string}[]}[]
      const extension = extensions.find((entry) => entry.name === name)
      expect(extension?.mcpServers[name].args).toEqual(expect.arrayContaining(['--client', 'gemini']))
      // The skill it loaded from the extension, named as the folder's SKILL.md names it.
      expect(extension?.skills?.map((skill) => skill.name)).toEqual([readdirSync(join(out, 'gemini/skills'))[0]])
      if (cli.name === 'taskbox') {
        // Gemini CLI gives a server 5 seconds to connect here: the example CLI starts well within them, a large CLI on
        // a loaded machine may not (its server is started from this launch line below, without a clock).
        const servers = await runCli(gemini(), ['mcp', 'list'], env, project)
        // Gemini CLI prints the list on stderr.
        expect(servers.stdout + servers.stderr).toMatch(new RegExp(`✓ ${name} \\(from ${name}\\).*Connected`))
        const skills = await runCli(gemini(), ['skills', 'list'], env, project)
        expect(skills.stdout + skills.stderr).toContain(`${name} [Enabled]`)
      }
    })

    it('is a bundle mcpb validates and packs', async () => {
      const {env, out, project} = pack
      const unpacked = join(out, '..', 'unpacked')
      mkdirSync(unpacked, {recursive: true})
      const name = readJson(join(out, 'claude-code/.claude-plugin/plugin.json')).name as string
      expect((await runCli('unzip', ['-q', '-o', join(out, `${name}.mcpb`), 'manifest.json', '-d', unpacked], env, project)).code).toBe(0)
      const validated = await runCli(mcpb(), ['validate', join(unpacked, 'manifest.json')], env, project)
      expect([validated.code, validated.stdout]).toEqual([0, expect.stringContaining('Manifest schema validation passes')])
      expect((await runCli(mcpb(), ['pack', unpacked, join(out, '..', 'repacked.mcpb')], env, project)).code).toBe(0)
      // A bundle that carries the CLI (its author added the plugin) runs from its own files, as Claude Desktop runs it
      // with its Node: unpacked, the server it starts lists the tools the manifest names.
      const manifest = readJson(join(unpacked, 'manifest.json'))
      expect(manifest.server.type).toBe(BUNDLE_CARRIED.has(cli.name) ? 'node' : 'binary')
      if (manifest.server.type === 'node') {
        const whole = join(out, '..', 'carried')
        expect((await runCli('unzip', ['-q', '-o', join(out, `${name}.mcpb`), '-d', whole], env, project)).code).toBe(0)
        const {args} = manifest.server.mcp_config as {args: string[]}
        const node = nodeOf(cli as CorpusCli)
        // Nothing of the install is on PATH: the carried copy resolves every module from its own folder.
        const names = await listedNames({args: args.map((arg) => arg.replace('${__dirname}', whole)), command: node}, {...env, PATH: '/usr/bin:/bin'}, project)
        expect(names).toEqual(expect.arrayContaining((manifest.tools as {name: string}[]).map((tool) => tool.name)))
      }
    })

    it("is a plugin within Cursor's schema", () => {
      const manifest = readJson(join(pack.out, 'cursor/.cursor-plugin/plugin.json'))
      expect(Object.keys(manifest).filter((key) => !CURSOR_KEYS.has(key))).toEqual([])
      expect(manifest.name).toMatch(/^[a-z0-9]([a-z0-9.-]*[a-z0-9])?$/)
      expect(Object.keys(manifest.author ?? {}).filter((key) => key !== 'name' && key !== 'email')).toEqual([])
      expect(Object.keys(readJson(join(pack.out, 'cursor', manifest.mcpServers)).mcpServers)).toEqual([manifest.name])
    })

    it("names every tool of each plugin's server within 64 characters, the host's prefix included", async () => {
      for (const host of ['claude-code', 'gemini'] as const) {
        const file = host === 'claude-code' ? 'claude-code/.mcp.json' : 'gemini/gemini-extension.json'
        const [launch] = Object.values(readJson(join(pack.out, file)).mcpServers) as {args: string[]; command: string}[]
        const {prefix} = pack.report.hosts.find((entry) => entry.host === host)!
        const names = await listedNames(launch, pack.env, pack.project)
        expect(names.length).toBeGreaterThan(0)
        expect(names.filter((name) => `${prefix}${name}`.length > 64)).toEqual([])
      }
    })
  })
}

describe('a tool call through an installed plugin', () => {
  let pack: Packed
  beforeAll(async () => {
    pack = await packed(TASKBOX, 'taskbox-turn')
    // A task list for the calls to read.
    expect((await runCli(process.execPath, [join(ROOT, 'examples/taskbox/bin/run.js'), 'init'], pack.env, pack.project)).code).toBe(0)
  })

  it('Claude Code calls the plugin tool, named with its plugin prefix', async () => {
    const {env, out, project} = pack
    expect((await runCli(claude(), ['plugin', 'marketplace', 'add', join(out, 'claude-code')], env, project)).code).toBe(0)
    expect((await runCli(claude(), ['plugin', 'install', 'taskbox@taskbox-mcp', '--scope', 'user'], env, project)).code).toBe(0)
    const tool = 'mcp__plugin_taskbox_taskbox__tasks_list'
    const model = await startModelEndpoint([
      {input: {max_results: 1, query: `select:${tool}`}, tool: 'ToolSearch'},
      {input: {cwd: project}, tool},
    ])
    try {
      const headless = {ANTHROPIC_API_KEY: 'sk-ant-offline', ANTHROPIC_BASE_URL: model.url, CLAUDE_CODE_MCP_STARTUP_WAIT_MS: '120000'}
      const ran = await runCli(claude(), ['-p', 'List my tasks.', '--output-format', 'stream-json', '--verbose', '--allowedTools', tool], {...env, ...headless}, project)
      const init = ran.stdout.split('\n').filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as {skills?: string[]; subtype?: string; tools?: string[]}).find((event) => event.subtype === 'init')
      expect(init?.skills).toContain('taskbox:taskbox')
      // The model got the tool's result: the JSON of structuredContent, a list of no tasks yet.
      expect(sentText(model)).toMatch(/\\"tasks\\":\s*\[\]/)
    } finally {
      await model.close()
    }
  })

  it('Gemini CLI calls the extension tool, named mcp_<server>_<tool>', async () => {
    const {env, out, project} = pack
    const installed = await runCli(gemini(), ['extensions', 'install', join(out, 'gemini'), '--consent', '--skip-settings'], env, project)
    expect(installed.code).toBe(0)
    // A base URL alone would select Gemini's "gateway" sign-in, which headless mode refuses: the key sign-in is named.
    writeFileSync(join(env.HOME, '.gemini', 'settings.json'), JSON.stringify({security: {auth: {selectedType: 'gemini-api-key'}}}))
    const model = await startModelEndpoint([{input: {cwd: project}, tool: 'mcp_taskbox_tasks_list'}])
    try {
      // Headless, Gemini CLI offers only tools that need no confirmation: a script that calls one runs in yolo mode.
      const ran = await runCli(gemini(), ['-p', 'List my tasks.', '-o', 'json', '--approval-mode', 'yolo'], {...env, GEMINI_API_KEY: 'offline', GOOGLE_GEMINI_BASE_URL: model.url}, project)
      expect(ran.stdout).toContain('"response": "done"')
      // The command's JSON came back to the model as the result's text.
      expect(sentText(model)).toMatch(/\\"tasks\\": \[\]/)
    } finally {
      await model.close()
    }
  })

  it('Codex calls the plugin tool in its server namespace', async () => {
    const {env, out, project} = pack
    const codexEnv = codexEnvOf(env)
    expect((await runCli(codexBin(), ['plugin', 'marketplace', 'add', join(out, 'codex')], codexEnv, project)).code).toBe(0)
    expect((await runCli(codexBin(), ['plugin', 'add', 'taskbox@taskbox-mcp'], codexEnv, project)).code).toBe(0)
    const turn = await codexTurn('List my tasks.', [{input: {cwd: project}, namespace: 'mcp__taskbox', tool: 'tasks_list'}], {env: codexEnv, project, requireServers: false})
    if (turn.code !== 0) throw new Error(`codex exec exited ${turn.code}: ${turn.stderr.slice(-3000)}`)
    const events = turn.stdout.split('\n').filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as Record<string, unknown>)
    const call = events.find((event) => event.type === 'item.completed' && (event.item as {type: string}).type === 'mcp_tool_call')?.item as {result: {structured_content: unknown}; server: string; status: string; tool: string}
    expect(call).toMatchObject({server: 'taskbox', status: 'completed', tool: 'tasks_list'})
    // Codex sets PWD to the project for the server: a directory, shown as it is, not taken for a secret.
    expect(call.result.structured_content).toMatchObject({cwd: project, data: {tasks: []}})
  })
})
