import {afterAll, afterEach, beforeAll, describe, expect, it} from '@jest/globals'
import {mkdirSync, readdirSync, readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'

import type {ClientSetup} from '../../../src/clients/client-setup.js'

import {plain, runTaskbox, stopAll} from '../../helpers/run-cli.js'
import {scratch, TASKBOX_BIN, taskboxEnv} from '../../helpers/taskbox.js'

interface Report {
  clients: ClientSetup[]
  launch: {args: string[]; command: string}
  name: string
  written?: {backup: null | string; path: string; status: string}
}

const space = scratch('mcp-config-')
const home = join(space.dir, 'home')
const project = join(space.dir, 'project')
const env = taskboxEnv(home)
const config = (args: string[], cwd = project) => runTaskbox(['mcp', 'config', ...args], {cwd, env})
const report = async (args: string[]) => {
  const ran = await config([...args, '--json'])
  expect(ran.code).toBe(0)
  return JSON.parse(ran.stdout) as Report
}

const LAUNCH = [TASKBOX_BIN, 'mcp', 'stdio']
/** The folders taskbox runs with here (its plugins are found under the data one): hosts that filter the environment get them. */
const LOCATIONS = {XDG_DATA_HOME: env.XDG_DATA_HOME, XDG_CONFIG_HOME: env.XDG_CONFIG_HOME, XDG_CACHE_HOME: env.XDG_CACHE_HOME}
/** The launch line of one host's entry: it names the host, so the server knows whom it serves. */
const launchFor = (client: string) => [...LAUNCH, '--client', client]

beforeAll(() => mkdirSync(project))
afterEach(() => stopAll())
afterAll(() => space.cleanup())

describe('mcp config: what each client gets', () => {
  it('launches the bin script with this Node, by absolute paths, under the bin name', async () => {
    const found = await report(['--client', 'cursor'])
    expect(found.name).toBe('taskbox')
    expect(found.launch).toEqual({args: LAUNCH, command: process.execPath})
  })

  it.each([
    ['cursor', join(home, '.cursor/mcp.json'), {mcpServers: {taskbox: {command: process.execPath, args: launchFor('cursor')}}}],
    // Claude Desktop starts a server with an environment of its own: the data, config and cache folders set here go in.
    ['claude-desktop', join(home, 'config/Claude/claude_desktop_config.json'), {mcpServers: {taskbox: {command: process.execPath, args: launchFor('claude-desktop'), env: LOCATIONS}}}],
    ['vscode', join(project, '.vscode/mcp.json'), {servers: {taskbox: {type: 'stdio', command: process.execPath, args: launchFor('vscode')}}}],
    ['claude-code', join(home, '.claude.json'), {projects: {[project]: {mcpServers: {taskbox: {type: 'stdio', command: process.execPath, args: launchFor('claude-code')}}}}}],
  ])('%s: stdout is exactly the JSON for %s', async (client, path, expected) => {
    const ran = await config(['--client', client])
    expect(ran.code).toBe(0)
    const printed = client === 'claude-code' ? ran.stdout.slice(ran.stdout.indexOf('\n') + 1) : ran.stdout
    expect(JSON.parse(printed)).toEqual(expected)
    expect(ran.stderr).toContain(path)
    if (client === 'claude-code') expect(ran.stdout.split('\n')[0]).toBe(`claude mcp add taskbox -- ${process.execPath} ${TASKBOX_BIN} mcp stdio --client claude-code`)
  })

  it('codex: stdout is the TOML table', async () => {
    const ran = await config(['--client', 'codex'])
    expect(ran.code).toBe(0)
    const copied = Object.keys(LOCATIONS).map((n) => JSON.stringify(n)).join(', ')
    expect(ran.stdout).toBe(`[mcp_servers.taskbox]\ncommand = ${JSON.stringify(process.execPath)}\nargs = [${launchFor('codex').map((a) => JSON.stringify(a)).join(', ')}]\nenv_vars = [${copied}]\n`)
    expect(ran.stderr).toContain(join(home, '.codex/config.toml'))
  })

  it('without --client: every client', async () => {
    const found = await report([])
    expect(found.clients.map((c) => c.client)).toEqual(['claude-code', 'claude-desktop', 'cursor', 'vscode', 'codex', 'gemini', 'windsurf', 'zed', 'goose'])
  })

  it('--env: each client passes the variable its own way; printed for all, one that cannot says so', async () => {
    const found = await report(['--env', 'TASKBOX_API_KEY'])
    const by = Object.fromEntries(found.clients.map((c) => [c.client, c]))
    expect(by.codex.entry.env_vars).toEqual(['TASKBOX_API_KEY', ...Object.keys(LOCATIONS)])
    expect(by.gemini.entry.env).toEqual({TASKBOX_API_KEY: '${TASKBOX_API_KEY}'})
    expect(by.goose.entry.env_keys).toEqual(['TASKBOX_API_KEY', ...Object.keys(LOCATIONS)])
    expect(by.zed.unpassable).toContain('Zed cannot pass TASKBOX_API_KEY on')
    const printed = await config(['--env', 'TASKBOX_API_KEY'])
    expect(plain(printed.stderr)).toContain('# Claude Desktop cannot pass TASKBOX_API_KEY on')
    expect(printed.stdout).not.toContain('k-secret')
  })

  it('--env for a client that cannot pass it, or a bad name, is refused and writes nothing', async () => {
    for (const client of ['claude-desktop', 'zed']) {
      const ran = await config(['--client', client, '--env', 'TASKBOX_API_KEY', '--write'])
      expect(ran.code).toBe(2)
      expect(plain(ran.stderr)).toContain('cannot pass TASKBOX_API_KEY on')
    }

    const bad = await config(['--client', 'cursor', '--env', 'NOT-A-NAME'])
    expect(bad.code).toBe(2)
    expect(plain(bad.stderr)).toContain('is not an environment variable name')
  })

  it('passes --cwd (absolute), --read-only, --tools, --exclude and --name on', async () => {
    const found = await report(['--client', 'vscode', '--cwd', '.', '--read-only', '--tools', 'tasks', '--exclude', 'sync', '--name', 'tb-ro'])
    const passed = ['--cwd', project, '--exclude', 'sync', '--read-only', '--tools', 'tasks']
    expect(found.launch.args).toEqual([...LAUNCH, ...passed])
    const args = [...LAUNCH, ...passed, '--client', 'vscode']
    expect(JSON.parse(found.clients[0].snippet)).toEqual({servers: {'tb-ro': {type: 'stdio', command: process.execPath, args}}})
  })

  it('passes every server flag given on, and only those: confirmation, host approval, limits, workers, audit, allowed directories', async () => {
    const found = await report(['--client', 'codex', '--confirm-destructive', '--trust-host-approval', '--foreground', '5', '--max-result-tokens', '8000', '--workers', '0', '--no-audit', '--allow-cwd', '.'])
    expect(found.clients[0].entry.args).toEqual([...LAUNCH, '--allow-cwd', project, '--no-audit', '--confirm-destructive', '--foreground', '5', '--max-result-tokens', '8000', '--trust-host-approval', '--workers', '0', '--client', 'codex'])
    // The server the host starts takes the line as it is written.
    const args = found.clients[0].entry.args as string[]
    const tools = await runTaskbox(['mcp', 'tools', ...args.slice(3).filter((arg, i, all) => arg !== '--client' && all[i - 1] !== '--client'), '--json'], {cwd: project, env})
    expect(tools.code).toBe(0)
  })

  it("caps tool names for a long server name, so the host's prefix and every name stay within 64 characters", async () => {
    const found = await report(['--name', 'taskbox-production-1'])
    const by = Object.fromEntries(found.clients.map((c) => [c.client, c]))
    // mcp__taskbox-production-1__ is 27 characters (Codex, Claude Code): 37 are left; Gemini's mcp_…_ leaves 39.
    expect(by.codex.entry.args).toEqual([...LAUNCH, '--client', 'codex', '--max-tool-name', '37'])
    expect(by.gemini.entry.args).toEqual([...LAUNCH, '--client', 'gemini', '--max-tool-name', '39'])
    // A short name leaves the server's own 45.
    expect((await report(['--client', 'codex'])).clients[0].entry.args).toEqual([...LAUNCH, '--client', 'codex'])
  })

  it.each([
    {args: ['--name', 'taskbox-production-server-number-1'], message: "leaves too little of 64 characters for the tools' names"},
    {args: ['--profile', 'nope'], message: 'No MCP profile named "nope"'},
    {args: ['--name', 'bad name'], message: 'may only contain letters, digits'},
    {args: ['--name', '__proto__'], message: 'a name JavaScript objects reserve'},
    {args: ['--write'], message: '--client'},
  ])('refuses $args', async ({args, message}) => {
    const ran = await config(args)
    expect(ran.code).not.toBe(0)
    expect(plain(ran.stderr)).toContain(message)
  })
})

describe('mcp config for Gemini CLI: folder trust', () => {
  it('says, where the person reads it, that Gemini starts the server only in a folder it trusts, and records the trust when asked', async () => {
    const dir = join(space.dir, 'gemini-trust')
    mkdirSync(dir)
    const trustFile = join(home, '.gemini/trustedFolders.json')
    const untrusted = await config(['--client', 'gemini', '--write'], dir)
    expect(untrusted.code).toBe(0)
    expect(plain(untrusted.stdout)).toContain(`in ${dir} "gemini mcp list" shows this one Disabled until you trust the folder`)
    expect(plain(untrusted.stdout)).toContain('--approval-mode yolo')
    const printed = await config(['--client', 'gemini'], dir)
    expect(plain(printed.stderr)).toContain('shows this one Disabled')

    const trusted = await config(['--client', 'gemini', '--write', '--trust'], dir)
    expect(trusted.code).toBe(0)
    expect(plain(trusted.stdout)).toContain(`Recorded ${dir} as a folder Gemini CLI trusts, in ${trustFile}`)
    expect(plain(trusted.stdout)).toContain(`Gemini CLI trusts ${dir}`)
    expect(JSON.parse(readFileSync(trustFile, 'utf8'))).toMatchObject({[dir]: 'TRUST_FOLDER'})
    expect((await config(['--client', 'cursor', '--write', '--trust'], dir)).code).toBe(2)
  })
})

describe('mcp config --url: a running mcp serve, reached over HTTP', () => {
  const URL_GIVEN = 'http://127.0.0.1:5757/mcp'
  const at = (client: string) => `${URL_GIVEN}?client=${client}`

  it('gives each host its own entry, naming the host in the URL and the token by a variable of its environment', async () => {
    const found = await report(['--url', URL_GIVEN, '--token-env', 'TB_TOKEN'])
    const by = Object.fromEntries(found.clients.map((c) => [c.client, c]))
    expect(by['claude-code'].entry).toEqual({type: 'http', url: at('claude-code'), headers: {Authorization: 'Bearer ${TB_TOKEN}'}})
    expect(by['claude-code'].addCommand).toBe(`claude mcp add --transport http taskbox '${at('claude-code')}' --header 'Authorization: Bearer \${TB_TOKEN}'`)
    expect(by.codex.entry).toEqual({url: at('codex'), bearer_token_env_var: 'TB_TOKEN'})
    expect(by.gemini.entry).toEqual({url: at('gemini'), type: 'http', headers: {Authorization: 'Bearer ${TB_TOKEN}'}})
    expect(by.cursor.entry).toEqual({url: at('cursor'), headers: {Authorization: 'Bearer ${env:TB_TOKEN}'}})
    expect(by.vscode.entry).toEqual({type: 'http', url: at('vscode'), headers: {Authorization: 'Bearer ${env:TB_TOKEN}'}})
    expect(by.windsurf.entry).toEqual({serverUrl: at('windsurf'), headers: {Authorization: 'Bearer ${env:TB_TOKEN}'}})
    // Hosts that cannot do it say why, and get no entry.
    expect(by['claude-desktop'].unreachable).toMatch(/^Claude Desktop cannot reach a server over HTTP from its config file: it adds remote servers as connectors/)
    expect(by.zed.unreachable).toMatch(/^Zed cannot send a token from a variable/)
    expect(by.goose.unreachable).toMatch(/^Goose cannot send a token from a variable/)
    expect((await report(['--url', URL_GIVEN, '--client', 'zed'])).clients[0].entry).toEqual({url: at('zed')})
  })

  it('refuses a host that cannot, a URL that is not one, server flags and --env, saying why', async () => {
    for (const [args, message] of [
      [['--client', 'claude-desktop'], 'adds remote servers as connectors'],
      [['--client', 'zed', '--token-env', 'TB_TOKEN'], 'cannot send a token from a variable'],
      [['--read-only'], '--read-only belong to the server'],
      [['--env', 'X_KEY'], 'a server at --url runs with its own environment'],
      [['--token-env', 'not-a-name'], 'is not an environment variable name'],
    ] as const) {
      const ran = await config(['--url', URL_GIVEN, ...args])
      expect([args, ran.code]).toEqual([args, 2])
      expect(plain(ran.stderr)).toContain(message)
    }

    for (const url of ['not a url', 'ftp://x/mcp', 'http://me:pw@127.0.0.1/mcp']) expect((await config(['--url', url])).code).toBe(2)
  })

  it('replaces a server the host started with one it reaches, and back, dropping the other way\'s keys and keeping the rest', async () => {
    const path = join(space.dir, 'switch', 'mcp.json')
    mkdirSync(join(path, '..'))
    writeFileSync(path, JSON.stringify({mcpServers: {taskbox: {command: 'old', args: [], env: {X: '1'}, disabled: false}}}, null, 2))
    expect((await config(['--client', 'cursor', '--write', '--config-path', path, '--url', URL_GIVEN, '--token-env', 'TB_TOKEN'])).code).toBe(0)
    expect(JSON.parse(readFileSync(path, 'utf8')).mcpServers.taskbox).toEqual({disabled: false, headers: {Authorization: 'Bearer ${env:TB_TOKEN}'}, url: at('cursor')})
    expect((await config(['--client', 'cursor', '--write', '--config-path', path])).code).toBe(0)
    expect(JSON.parse(readFileSync(path, 'utf8')).mcpServers.taskbox).toEqual({args: launchFor('cursor'), command: process.execPath, disabled: false})
  })
})

describe('mcp config --write', () => {
  const other = {command: 'other-cli', args: ['serve'], env: {TOKEN: 'x'}}

  it('merges into an existing JSON file: other servers stay, a backup is kept, a second run changes nothing', async () => {
    const dir = join(space.dir, 'cursor')
    mkdirSync(dir)
    const path = join(dir, 'mcp.json')
    const before = JSON.stringify({mcpServers: {other}}, null, 2)
    writeFileSync(path, before)

    const first = await config(['--client', 'cursor', '--write', '--config-path', path])
    expect(first.code).toBe(0)
    expect(first.stdout).toMatch(/^Added "taskbox" in Cursor's .+mcp\.json \(previous version kept as .+\.bak\)\n$/)
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({mcpServers: {other, taskbox: {command: process.execPath, args: launchFor('cursor')}}})
    const backups = readdirSync(dir).filter((f) => f.endsWith('.bak'))
    expect(backups).toHaveLength(1)
    expect(readFileSync(join(dir, backups[0]), 'utf8')).toBe(before)

    const second = await config(['--client', 'cursor', '--write', '--config-path', path])
    expect(second.stdout).toMatch(/^Already up to date: "taskbox"/)
    expect(readdirSync(dir).filter((f) => f.endsWith('.bak'))).toHaveLength(1)
  })

  it('writes the project files of Claude Code (--scope project) and VS Code in the current directory', async () => {
    const dir = join(space.dir, 'workspace')
    mkdirSync(join(dir, '.vscode'), {recursive: true})
    writeFileSync(join(dir, '.vscode/mcp.json'), JSON.stringify({inputs: [], servers: {other: {type: 'stdio', ...other}}}))
    expect((await config(['--client', 'vscode', '--write'], dir)).code).toBe(0)
    const claude = await config(['--client', 'claude-code', '--scope', 'project', '--write'], dir)
    expect(claude.code).toBe(0)
    // Said plainly: Claude Code holds a project server until someone approves it.
    expect(claude.stdout).toContain('asks each person once before it connects')
    expect(JSON.parse(readFileSync(join(dir, '.vscode/mcp.json'), 'utf8'))).toEqual({
      inputs: [],
      servers: {other: {type: 'stdio', ...other}, taskbox: {type: 'stdio', command: process.execPath, args: launchFor('vscode')}},
    })
    expect(JSON.parse(readFileSync(join(dir, '.mcp.json'), 'utf8'))).toEqual({mcpServers: {taskbox: {type: 'stdio', command: process.execPath, args: launchFor('claude-code')}}})
  })

  it('writes a Claude Code server where claude mcp add does: local scope, under the directory in ~/.claude.json', async () => {
    const dir = join(space.dir, 'local-scope')
    mkdirSync(dir)
    const file = join(home, '.claude.json')
    mkdirSync(home, {recursive: true})
    writeFileSync(file, JSON.stringify({numStartups: 12, projects: {'/elsewhere': {allowedTools: [], mcpServers: {}}}}, null, 2))
    const ran = await config(['--client', 'claude-code', '--write'], dir)
    expect(ran.code).toBe(0)
    expect(ran.stdout).toContain(`connects to it when started in ${dir}, without asking`)
    const written = JSON.parse(readFileSync(file, 'utf8'))
    expect(written.numStartups).toBe(12)
    expect(written.projects['/elsewhere']).toEqual({allowedTools: [], mcpServers: {}})
    expect(written.projects[dir].mcpServers.taskbox).toEqual({type: 'stdio', command: process.execPath, args: launchFor('claude-code')})
  })

  it("edits VS Code's JSONC in place: its comments and every other byte stay", async () => {
    const dir = join(space.dir, 'jsonc')
    mkdirSync(join(dir, '.vscode'), {recursive: true})
    const before = '{\n  // shared with the team\n  "inputs": [],\n  "servers": {\n    "other": {"type": "stdio", "command": "other", "timeout": 12345678901234567890}, // keep\n  },\n}\n'
    writeFileSync(join(dir, '.vscode/mcp.json'), before)
    expect((await config(['--client', 'vscode', '--write'], dir)).code).toBe(0)
    const after = readFileSync(join(dir, '.vscode/mcp.json'), 'utf8')
    expect(after.startsWith(before.slice(0, before.indexOf('// keep') + '// keep'.length))).toBe(true)
    expect(after).toContain(`"command": ${JSON.stringify(process.execPath)}`)
    expect(after.endsWith('  },\n}\n')).toBe(true)
  })

  it("writes Claude Desktop's file under the config home when there is none yet", async () => {
    const report = JSON.parse((await config(['--client', 'claude-desktop', '--write', '--json'])).stdout) as Report
    expect(report.written).toEqual({backup: null, path: join(home, 'config/Claude/claude_desktop_config.json'), status: 'added'})
    expect(JSON.parse(readFileSync(report.written!.path, 'utf8')).mcpServers.taskbox.command).toBe(process.execPath)
  })

  it("adds Codex's TOML table after the rest, then replaces only its own command and args", async () => {
    const path = join(home, '.codex/config.toml')
    mkdirSync(join(home, '.codex'), {recursive: true})
    const before = 'model = "o3"\n\n[mcp_servers.other]\ncommand = "other-cli"\nargs = ["serve"]\n'
    writeFileSync(path, before)
    expect((await config(['--client', 'codex', '--write'])).code).toBe(0)
    const added = readFileSync(path, 'utf8')
    expect(added.startsWith(before)).toBe(true)
    expect(added).toContain(`[mcp_servers.taskbox]\ncommand = ${JSON.stringify(process.execPath)}\n`)

    writeFileSync(path, added.replace('[mcp_servers.taskbox]\n', '[mcp_servers.taskbox]\nstartup_timeout_sec = 30\n'))
    expect((await config(['--client', 'codex', '--write', '--read-only'])).code).toBe(0)
    const updated = readFileSync(path, 'utf8')
    expect(updated.startsWith(before)).toBe(true)
    expect(updated).toContain('startup_timeout_sec = 30')
    expect(updated).toContain('"stdio", "--read-only", "--client", "codex"]')
    expect(updated.match(/^command = /gm)).toHaveLength(2)
  })

  it("writes Gemini CLI's, Windsurf's and Zed's JSONC, keeping the person's own settings and comments", async () => {
    const files = {gemini: join(home, '.gemini/settings.json'), windsurf: join(home, '.codeium/windsurf/mcp_config.json'), zed: join(home, 'config/zed/settings.json')}
    for (const file of Object.values(files)) mkdirSync(join(file, '..'), {recursive: true})
    writeFileSync(files.zed, '// Zed settings\n{\n  "theme": "One Dark", // mine\n  "context_servers": {}\n}\n')
    // Zed has no way to pass a variable on (refused with --env: see above).
    for (const client of Object.keys(files)) expect((await config(['--client', client, '--write', ...(client === 'zed' ? [] : ['--env', 'TASKBOX_API_KEY'])])).code).toBe(0)
    const gemini = JSON.parse(readFileSync(files.gemini, 'utf8'))
    expect(gemini.mcpServers.taskbox).toEqual({args: launchFor('gemini'), command: process.execPath, env: {TASKBOX_API_KEY: '${TASKBOX_API_KEY}'}})
    expect(JSON.parse(readFileSync(files.windsurf, 'utf8')).mcpServers.taskbox.env).toEqual({TASKBOX_API_KEY: '${env:TASKBOX_API_KEY}'})
    const zed = readFileSync(files.zed, 'utf8')
    expect(zed.startsWith('// Zed settings\n{\n  "theme": "One Dark", // mine\n')).toBe(true)
    expect(zed).toContain('"source": "custom"')
  })

  it("writes Goose's YAML: its other extensions and comments stay, a backup is kept", async () => {
    const path = join(home, 'config/goose/config.yaml')
    mkdirSync(join(path, '..'), {recursive: true})
    const before = '# goose\nGOOSE_MODEL: gpt-4o # mine\nextensions:\n  developer:\n    enabled: true\n    name: developer\n    type: builtin\n'
    writeFileSync(path, before)
    const written = JSON.parse((await config(['--client', 'goose', '--write', '--env', 'TASKBOX_API_KEY', '--json'])).stdout) as Report
    expect(written.written?.status).toBe('added')
    expect(written.written?.backup).toMatch(/config\.yaml\.\d{8}T\d{6}Z\.bak$/)
    const text = readFileSync(path, 'utf8')
    expect(text.startsWith(before)).toBe(true)
    expect(text).toContain(`    cmd: ${process.execPath}`)
    expect(text).toContain('    env_keys:\n      - TASKBOX_API_KEY')
    expect((await config(['--client', 'goose', '--write', '--env', 'TASKBOX_API_KEY'])).stdout).toContain('Already up to date')
  })

  it.each([
    {client: 'goose', file: 'config.yaml', text: 'extensions: [a, b]\n'},
    {client: 'cursor', file: 'mcp.json', text: '{\n  // my servers\n  "mcpServers": {}, "mcpServers": {}\n}\n'},
    {client: 'codex', file: 'config.toml', text: '[mcp_servers]\ntaskbox = {command = "x"}\n'},
  ])('refuses a $client file it cannot safely edit, leaving it untouched', async ({client, file, text}) => {
    const dir = join(space.dir, `refuse-${client}`)
    mkdirSync(dir)
    const path = join(dir, file)
    writeFileSync(path, text)
    const ran = await config(['--client', client, '--write', '--config-path', path])
    expect(ran.code).toBe(1)
    expect(plain(ran.stderr)).toContain(`Cannot update ${path}`)
    expect(plain(ran.stderr)).toContain('The file was not changed')
    expect(readFileSync(path, 'utf8')).toBe(text)
    expect(readdirSync(dir)).toEqual([file])
  })
})
