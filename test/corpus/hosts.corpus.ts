// Real MCP hosts from the npm registry, in the cache the corpus uses: each gets the example CLI's server the way
// `mcp config --write` registers it for that host, and must connect to it through its own client.
// Claude Code: `claude mcp get NAME` starts the server and reports whether it connected (no model login needed).
// Gemini CLI: `gemini mcp list` connects to each configured server and reports it (no login); `mcp config` has no
// Gemini set-up yet, so the server is added with Gemini's own `gemini mcp add`, in a folder Gemini trusts.
// Codex: `codex app-server` (JSON-RPC on stdio) lists each MCP server's tools (`mcpServerStatus/list`) and calls
// them (`mcpServer/tool/call` in a thread), also without a login.
import {afterAll, describe, expect, it} from '@jest/globals'
import {spawn} from 'node:child_process'
import {mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

import {installDir, ROOT, runCli} from './clis.js'

const TASKBOX = join(ROOT, 'examples/taskbox/bin/run.js')
const space = realpathSync(mkdtempSync(join(tmpdir(), 'mcp-hosts-')))
afterAll(() => rmSync(space, {force: true, recursive: true}))

let scratchCount = 0
/** A project directory and a HOME of its own, with Claude Code kept offline and quiet. */
function scratch(): {env: Record<string, string>; project: string} {
  const base = join(space, `s${++scratchCount}`)
  const project = join(base, 'project')
  mkdirSync(project, {recursive: true})
  const home = join(base, 'home')
  mkdirSync(home)
  const env = {
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_AUTOUPDATER: '1',
    HOME: home,
    PATH: process.env.PATH ?? '',
    XDG_CACHE_HOME: join(home, 'cache'),
    XDG_CONFIG_HOME: join(home, 'config'),
    XDG_DATA_HOME: join(home, 'data'),
  }
  return {env, project}
}

describe('Claude Code', () => {
  const claude = () => join(installDir('claude-code'), 'node_modules/.bin/claude')

  it('connects, without asking, to the server mcp config --client claude-code --write registers', async () => {
    const {env, project} = scratch()
    const written = await runCli(process.execPath, [TASKBOX, 'mcp', 'config', '--client', 'claude-code', '--write'], env, project)
    expect(written.code).toBe(0)
    const got = await runCli(claude(), ['mcp', 'get', 'taskbox'], env, project)
    expect(got.stdout).toContain('Local config')
    expect(got.stdout).toMatch(/Status: ✔ Connected/)
  })

  it('holds a --scope project server for approval, as the command says it will', async () => {
    const {env, project} = scratch()
    const written = await runCli(process.execPath, [TASKBOX, 'mcp', 'config', '--client', 'claude-code', '--scope', 'project', '--write'], env, project)
    expect(written.stdout).toContain('pending approval')
    const got = await runCli(claude(), ['mcp', 'get', 'taskbox'], env, project)
    expect(got.stdout).toContain('Project config')
    expect(got.stdout).toMatch(/Pending approval/)
  })
})

/** `codex app-server` over stdio: requests answered by id; notifications kept. */
function appServer(env: Record<string, string>, cwd: string) {
  const child = spawn(join(installDir('codex'), 'node_modules/.bin/codex'), ['app-server'], {cwd, env, stdio: ['pipe', 'pipe', 'pipe']})
  const waiting = new Map<number, (message: Record<string, unknown>) => void>()
  let buffered = ''
  child.stdout.on('data', (chunk: Buffer) => {
    buffered += chunk
    for (let at = buffered.indexOf('\n'); at >= 0; at = buffered.indexOf('\n')) {
      const line = buffered.slice(0, at)
      buffered = buffered.slice(at + 1)
      try {
        const message = JSON.parse(line) as Record<string, unknown>
        if (typeof message.id === 'number') waiting.get(message.id)?.(message)
      } catch {
        // Not a message of ours.
      }
    }
  })
  child.stdin.on('error', () => {})
  let ids = 0
  return {
    close: () => child.kill('SIGKILL'),
    request(method: string, params: unknown): Promise<Record<string, unknown>> {
      const id = ++ids
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`codex app-server did not answer ${method}`)), 90_000)
        waiting.set(id, (message) => {
          clearTimeout(timer)
          resolve(message)
        })
        child.stdin.write(`${JSON.stringify({id, jsonrpc: '2.0', method, params})}\n`)
      })
    },
  }
}

describe('Codex', () => {
  it('lists every tool of the server mcp config --client codex --write registers, and calls a read-only and a failing one', async () => {
    const {env, project} = scratch()
    const codexEnv = {...env, CODEX_HOME: join(env.HOME, '.codex')}
    const written = await runCli(process.execPath, [TASKBOX, 'mcp', 'config', '--client', 'codex', '--write', '--cwd', project], codexEnv, project)
    expect(written.code).toBe(0)
    const codex = appServer(codexEnv, project)
    try {
      await codex.request('initialize', {clientInfo: {name: 'oclif-plugin-mcp-tests', version: '1'}})
      const status = (await codex.request('mcpServerStatus/list', {})).result as {
        data: {name: string; resources?: {uri: string}[]; resourceTemplates?: {uriTemplate: string}[]; tools: Record<string, unknown>}[]
      }
      const taskbox = status.data.find((server) => server.name === 'taskbox')
      expect(Object.keys(taskbox?.tools ?? {})).toEqual(expect.arrayContaining(['cli_info', 'run_command', 'status', 'sync', 'tasks_add', 'job_status', 'read_output']))
      // Codex reads the resources and templates too: the docs, a reference per command, the kept outputs.
      expect(taskbox?.resources?.map((r) => r.uri)).toEqual(expect.arrayContaining(['taskbox://setup/agent-instructions', 'taskbox://docs/taskbox/README.md', 'taskbox://commands/tasks:add']))
      expect(taskbox?.resourceTemplates?.map((t) => t.uriTemplate)).toEqual(['taskbox://docs/{+path}', 'taskbox://commands/{id}', 'taskbox://output/{id}/{stream}'])
      const thread = ((await codex.request('thread/start', {})).result as {thread: {id: string}}).thread.id
      const call = (tool: string) => codex.request('mcpServer/tool/call', {arguments: {}, server: 'taskbox', threadId: thread, tool})
      const status2 = (await call('status')).result as {isError?: boolean; structuredContent: {data: {directory: string}}}
      expect(status2.isError).toBeFalsy()
      expect(status2.structuredContent.data.directory).toBe(project)
      const failed = (await call('sync')).result as {content: {text: string}[]; isError?: boolean}
      expect(failed.isError).toBe(true)
      expect(failed.content[0].text).toContain('No sync server configured')
    } finally {
      codex.close()
    }
  })
})

describe('Gemini CLI', () => {
  it('connects to the server', async () => {
    const {env, project} = scratch()
    const gemini = join(installDir('gemini-cli'), 'node_modules/.bin/gemini')
    // Gemini starts no server of an untrusted folder.
    mkdirSync(join(env.HOME, '.gemini'), {recursive: true})
    writeFileSync(join(env.HOME, '.gemini', 'trustedFolders.json'), JSON.stringify({[project]: 'TRUST_FOLDER'}))
    const added = await runCli(gemini, ['mcp', 'add', 'taskbox', process.execPath, TASKBOX, 'mcp', 'stdio'], env, project)
    expect(added.code).toBe(0)
    const listed = await runCli(gemini, ['mcp', 'list'], env, project)
    expect(listed.stdout + listed.stderr).toMatch(/taskbox: .* - Connected/)
  })
})
