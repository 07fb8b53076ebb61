import {Client, type ClientCapabilities} from '@modelcontextprotocol/client'
import {StdioClientTransport} from '@modelcontextprotocol/client/stdio'
import {mkdirSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join, resolve} from 'node:path'

import {isAlive, killPids, processesWithEnv} from './processes.js'

export const ROOT = resolve(import.meta.dirname, '../..')
export const TASKBOX_BIN = join(ROOT, 'examples/taskbox/bin/run.js')
export const NOISY_PLUGIN = join(ROOT, 'test/fixtures/noisy-plugin')
export const FAULTY_BIN = join(ROOT, 'test/fixtures/faulty-cli/bin/run.js')

export type Era = 'legacy' | 'modern'

/** A scratch directory removed by cleanup(); `home` isolates the CLI's data, config and cache dirs. */
export function scratch(prefix = 'mcp-test-'): {cleanup: () => void; dir: string} {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  return {cleanup: () => rmSync(dir, {force: true, recursive: true}), dir}
}

/**
 * A clean environment for the CLI `bin` with HOME and the XDG dirs under `home` (no user config or plugins leak in),
 * and the given plugins registered as linked in its data dir.
 */
export function isolatedEnv(home: string, bin: string, linked: {name: string; root: string}[] = [], extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {
    HOME: home,
    PATH: process.env.PATH ?? '',
    XDG_CACHE_HOME: join(home, 'cache'),
    XDG_CONFIG_HOME: join(home, 'config'),
    XDG_DATA_HOME: join(home, 'data'),
    ...extra,
  }
  if (linked.length > 0) {
    const dataDir = join(home, 'data', bin)
    mkdirSync(dataDir, {recursive: true})
    const plugins = linked.map(({name, root}) => ({name, root, type: 'link'}))
    writeFileSync(join(dataDir, 'package.json'), JSON.stringify({oclif: {plugins, schema: 1}, private: true}))
  }

  return env
}

/** Environment for a taskbox server whose data/config/cache live under `home`, optionally with plugins linked. */
export function taskboxEnv(home: string, linked: string[] = []): Record<string, string> {
  return isolatedEnv(
    home,
    'taskbox',
    linked.map((root) => ({name: root.split('/').at(-1)!, root})),
  )
}

export interface Connected {
  client: Client
  close: () => Promise<void>
  pid: number
  stderr: () => string
}

/** Starts `taskbox mcp stdio ARGS` (or another CLI's, given its `bin` script) under the official client, in the given era. */
export async function connectTaskbox(options: {
  args?: string[]
  bin?: string
  /** What the client declares (e.g. elicitation), next to the era's own options. */
  capabilities?: ClientCapabilities
  cwd: string
  env: Record<string, string>
  era: Era
  /** Called before connecting, e.g. to answer the server's requests. */
  setup?: (client: Client) => void
}): Promise<Connected> {
  const transport = new StdioClientTransport({
    args: [options.bin ?? TASKBOX_BIN, 'mcp', 'stdio', ...(options.args ?? [])],
    command: process.execPath,
    cwd: options.cwd,
    env: options.env,
    stderr: 'pipe',
  })
  let stderr = ''
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString()
  })
  const client = new Client(
    {name: 'oclif-plugin-mcp-tests', version: '1.0.0'},
    {
      ...(options.capabilities ? {capabilities: options.capabilities} : {}),
      ...(options.era === 'modern' ? {versionNegotiation: {mode: {pin: '2026-07-28' as const}}} : {}),
    },
  )
  options.setup?.(client)
  // A server the client could not close (or never connected to) is killed by pid, with whatever it started: the
  // commands run in their own process groups, so they are found by the HOME they inherited.
  const kill = (pid: number | undefined) => {
    if (pid === undefined || !isAlive(pid)) return
    killPids([pid])
    if (options.env.HOME) killPids(processesWithEnv('HOME', options.env.HOME))
  }

  try {
    await client.connect(transport)
  } catch (error) {
    await client.close().catch(() => {})
    kill(transport.pid ?? undefined)
    throw new Error(`${(error as Error).message}; server stderr: ${stderr}`)
  }

  const pid = transport.pid!
  return {
    client,
    async close() {
      await client.close().catch(() => {})
      kill(pid)
    },
    pid,
    stderr: () => stderr,
  }
}

/** The text of a tool result's first content block. */
export function textOf(result: {content?: unknown}): string {
  const [first] = (result.content ?? []) as {text?: string}[]
  return first?.text ?? ''
}
