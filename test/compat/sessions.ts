// One small interface over every client of the matrix (the official v2 client, the v1 SDK, the Inspector CLI), the
// `mcp serve` processes they talk to over HTTP, and the check that a cell left no process behind.
import {Client, StreamableHTTPClientTransport} from '@modelcontextprotocol/client'
import {StdioClientTransport} from '@modelcontextprotocol/client/stdio'
import {Client as ClientV1} from '@modelcontextprotocol/sdk/client/index.js'
import {StdioClientTransport as StdioClientTransportV1} from '@modelcontextprotocol/sdk/client/stdio.js'
import {StreamableHTTPClientTransport as StreamableHTTPClientTransportV1} from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import {type Transport as TransportV1} from '@modelcontextprotocol/sdk/shared/transport.js'
import {spawn} from 'node:child_process'
import {readFileSync} from 'node:fs'
import {join} from 'node:path'

import {eventually, isRunning, killPids, processesIn, processesMatching} from '../helpers/processes.js'
import {waitForBanner} from '../helpers/serve.js'
import {type Host, hostEnv, mcpArgv, NODE22, ROOT} from './hosts.js'

export type Era = 'legacy' | 'modern'

export interface ToolResult {
  content?: unknown
  isError?: boolean
  structuredContent?: Record<string, unknown>
}

export interface ListedTool {
  annotations?: {destructiveHint?: boolean; readOnlyHint?: boolean}
  inputSchema: {type?: string}
  name: string
}

export interface Session {
  callTool(name: string, args?: Record<string, unknown>): Promise<ToolResult>
  close(): Promise<void>
  listTools(): Promise<ListedTool[]>
  /** The protocol revision the client negotiated, when it says. */
  protocolVersion(): string | undefined
}

/** Where a stdio server runs: the host, its scratch HOME, and the project directory passed as `--cwd`. */
export interface StdioTarget {
  args?: string[]
  home: string
  host: Host
  project: string
}

const CALL_TIMEOUT = 60_000

/** How either SDK's stdio client transport starts the target's `mcp stdio`. */
function stdioServer(target: StdioTarget) {
  const args = mcpArgv(target.host, 'stdio', ['--cwd', target.project, ...(target.args ?? [])])
  return {args, command: target.host.node, cwd: target.project, env: hostEnv(target.host, target.home), stderr: 'pipe' as const}
}

/** Once the client has closed a stdio server (input end, then SIGTERM): SIGKILL it and fail if it is still there. */
async function reap(pid: number | undefined, stderr: () => string): Promise<void> {
  if (pid === undefined || (await eventually(() => !isRunning(pid), 10_000, 50))) return
  process.kill(pid, 'SIGKILL')
  throw new Error(`the server (pid ${pid}) was still running 10 s after its client closed; stderr: ${stderr()}`)
}

/** The official v2 client over stdio, in the era asked for. */
export async function v2Stdio(target: StdioTarget, era: Era): Promise<Session> {
  const transport = new StdioClientTransport(stdioServer(target))
  let stderr = ''
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk))
  const client = new Client({name: 'compat-v2', version: '1.0.0'}, era === 'modern' ? {versionNegotiation: {mode: {pin: '2026-07-28'}}} : {})
  try {
    await client.connect(transport)
  } catch (error) {
    await client.close().catch(() => {})
    await reap(transport.pid ?? undefined, () => stderr).catch(() => {})
    throw new Error(`${(error as Error).message}; server stderr: ${stderr}`)
  }

  const pid = transport.pid ?? undefined
  return v2Session(client, async () => reap(pid, () => stderr))
}

/** The official v2 client over Streamable HTTP, in the era asked for. */
export async function v2Http(url: string, era: Era): Promise<Session> {
  const client = new Client({name: 'compat-v2', version: '1.0.0'}, era === 'modern' ? {versionNegotiation: {mode: {pin: '2026-07-28'}}} : {})
  await client.connect(new StreamableHTTPClientTransport(new URL(url)))
  return v2Session(client, async () => {})
}

function v2Session(client: Client, afterClose: () => Promise<void>): Session {
  return {
    async callTool(name, args = {}) {
      return (await client.callTool({arguments: args, name}, {timeout: CALL_TIMEOUT})) as ToolResult
    },
    async close() {
      await client.close().catch(() => {})
      await afterClose()
    },
    async listTools() {
      return (await client.listTools()).tools as ListedTool[]
    },
    protocolVersion: () => client.getNegotiatedProtocolVersion(),
  }
}

/** The v1 SDK (`@modelcontextprotocol/sdk` 1.x) over stdio. */
export async function v1Stdio(target: StdioTarget): Promise<Session> {
  const transport = new StdioClientTransportV1(stdioServer(target))
  let stderr = ''
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk))
  const session = await v1Session(transport)
  const pid = transport.pid ?? undefined
  return {
    ...session,
    async close() {
      await session.close()
      await reap(pid, () => stderr)
    },
  }
}

/** The v1 SDK over Streamable HTTP. */
export async function v1Http(url: string): Promise<Session> {
  return v1Session(new StreamableHTTPClientTransportV1(new URL(url)))
}

async function v1Session(transport: TransportV1): Promise<Session> {
  // The v1 client tells the transport which revision it negotiated; listen in.
  let negotiated: string | undefined
  const original = transport.setProtocolVersion?.bind(transport)
  transport.setProtocolVersion = (version: string) => {
    negotiated = version
    original?.(version)
  }

  const client = new ClientV1({name: 'compat-v1', version: '1.0.0'})
  await client.connect(transport)
  return {
    async callTool(name, args = {}) {
      return (await client.callTool({arguments: args, name}, undefined, {timeout: CALL_TIMEOUT})) as ToolResult
    },
    async close() {
      await client.close().catch(() => {})
    },
    async listTools() {
      return (await client.listTools()).tools as ListedTool[]
    },
    protocolVersion: () => negotiated,
  }
}

const INSPECTOR_BIN = join(ROOT, 'test/compat/inspector/node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js')

interface InspectorRun {
  code: null | number
  json: {error?: {code: string; message: string}; result?: Record<string, unknown>}
  stderr: string
}

/**
 * The MCP Inspector's CLI (`inspector --cli`) on Node 22: one process per request, as a script would use it. A stdio
 * target is started by the Inspector itself (and must be gone when it exits); an HTTP target is a URL. Tool
 * arguments go as `--tool-args-json`, or with `pairs` as `--tool-arg key=value` (string values only).
 */
export function inspector(target: StdioTarget | {home: string; url: string}, era: Era, pairs = false): Session {
  const run = async (method: string[]): Promise<InspectorRun> => {
    const env: Record<string, string> = {HOME: target.home, PATH: process.env.PATH ?? ''}
    let server: string[]
    if ('url' in target) {
      server = ['--transport', 'http', '--server-url', target.url]
    } else {
      // The Inspector gives a stdio server only a default environment plus -e pairs.
      const stdio = stdioServer(target)
      const hostVars = Object.entries(stdio.env).map(([key, value]) => ['-e', `${key}=${value}`])
      server = [...hostVars.flat(), '--', stdio.command, ...stdio.args]
    }

    const argv = [INSPECTOR_BIN, '--cli', '--format', 'json', '--protocol-era', era, '--connect-timeout', '60000', ...method, ...server]
    const result = await runProcess(NODE22, argv, env, 'url' in target ? target.home : target.project)
    let json: InspectorRun['json']
    try {
      json = JSON.parse(result.stdout || result.stderr.slice(result.stderr.indexOf('{"error"')))
    } catch {
      throw new Error(`inspector ${method.join(' ')} exited ${result.code} without JSON; stdout: ${result.stdout}; stderr: ${result.stderr}`)
    }

    return {code: result.code, json, stderr: result.stderr}
  }

  return {
    async callTool(name, args = {}) {
      const toolArgs = pairs
        ? Object.entries(args).flatMap(([key, value]) => ['--tool-arg', `${key}=${value as string}`])
        : ['--tool-args-json', JSON.stringify(args)]
      const {code, json, stderr} = await run(['--method', 'tools/call', '--tool-name', name, ...toolArgs])
      if (!json.result) throw new Error(`inspector tools/call ${name} exited ${code}: ${JSON.stringify(json)} ${stderr}`)
      // Exit 0 for a result, 5 for an isError result: a script can tell them apart.
      const expected = json.result.isError ? 5 : 0
      if (code !== expected) throw new Error(`inspector tools/call ${name} exited ${code}, expected ${expected}`)
      return json.result as ToolResult
    },
    async close() {},
    async listTools() {
      const {code, json, stderr} = await run(['--method', 'tools/list', '--strict'])
      // --strict: exit 6 when a tool schema has an error-severity portability problem.
      if (code !== 0 || !json.result) throw new Error(`inspector tools/list --strict exited ${code}: ${stderr}`)
      return (json.result as {tools: ListedTool[]}).tools
    },
    protocolVersion: () => undefined,
  }
}

export interface Finished {
  code: null | number
  stderr: string
  stdout: string
}

/** Runs a process to its end (SIGKILL by pid after `timeoutMs`). */
export function runProcess(command: string, args: string[], env: Record<string, string>, cwd: string, timeoutMs = 120_000): Promise<Finished> {
  const child = spawn(command, args, {cwd, env, stdio: ['ignore', 'pipe', 'pipe']})
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk))
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk))
  const timer = setTimeout(() => child.pid && isRunning(child.pid) && process.kill(child.pid, 'SIGKILL'), timeoutMs)
  return new Promise((resolve, reject) => {
    child.on('error', reject)
    child.on('close', (code) => {
      clearTimeout(timer)
      resolve({code, stderr, stdout})
    })
  })
}

export interface Served {
  pid: number
  stderr: () => string
  /** SIGTERM by pid (SIGKILL after 20 s); resolves with the exit code. */
  stop: () => Promise<null | number>
  url: string
}

/** Starts `<host> mcp serve --port 0 --cwd PROJECT ARGS` and waits for the banner with its URL. */
export async function serve(target: StdioTarget): Promise<Served> {
  const child = spawn(target.host.node, mcpArgv(target.host, 'serve', ['--port', '0', '--cwd', target.project, ...(target.args ?? [])]), {
    cwd: target.project,
    env: hostEnv(target.host, target.home),
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  const pid = child.pid!
  const exited = new Promise<null | number>((resolve) => child.on('close', (code) => resolve(code)))
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      process.kill(pid, 'SIGTERM')
      const timer = setTimeout(() => isRunning(pid) && process.kill(pid, 'SIGKILL'), 20_000)
      await exited
      clearTimeout(timer)
    }

    return exited
  }

  try {
    const {stderr, url} = await waitForBanner(child, exited)
    return {pid, stderr, stop, url}
  } catch (error) {
    await stop()
    throw error
  }
}

/** Processes (other than this one) whose working directory is in `dir` or whose command line mentions it. */
function processesUsing(dir: string): number[] {
  const pids = new Set([...processesIn(dir), ...processesMatching(dir).map((row) => row.pid)])
  pids.delete(process.pid)
  return [...pids].filter((pid) => isRunning(pid))
}

/** Fails when a process of the cell outlives it (after a grace period), killing any such process by pid. */
export async function expectNoLeftovers(dir: string): Promise<void> {
  if (await eventually(() => processesUsing(dir).length === 0)) return
  const pids = processesUsing(dir)
  const described = pids.map((pid) => {
    try {
      return `${pid}: ${readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ')}`
    } catch {
      return String(pid)
    }
  })
  killPids(pids)
  throw new Error(`processes outlived the cell: ${described.join('; ')}`)
}
