import {afterAll, beforeAll, describe, expect, it} from '@jest/globals'
import {type ChildProcess, spawn} from 'node:child_process'
import {mkdirSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'

import {eventually, killPids, processesIn, processesMatching} from '../helpers/processes.js'
import {NOISY_PLUGIN, scratch, TASKBOX_BIN, taskboxEnv} from '../helpers/taskbox.js'

/** Plain JSON-RPC over real pipes, as a shell script would send it. */
function initialize(id: number, version = '2025-11-25') {
  return {id, jsonrpc: '2.0', method: 'initialize', params: {capabilities: {}, clientInfo: {name: 'sh', version: '1'}, protocolVersion: version}}
}

function call(id: number, name: string, args: Record<string, unknown>) {
  return {id, jsonrpc: '2.0', method: 'tools/call', params: {arguments: args, name}}
}

interface Finished {
  code: null | number
  signal: NodeJS.Signals | null
  stderr: string
  stdout: string
}

function start(env: Record<string, string>, cwd: string, args: string[] = []): {child: ChildProcess; done: Promise<Finished>; stdout: () => string} {
  const child = spawn(process.execPath, [TASKBOX_BIN, 'mcp', 'stdio', ...args], {cwd, env, stdio: ['pipe', 'pipe', 'pipe']})
  let stdout = ''
  let stderr = ''
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk))
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk))
  const done = new Promise<Finished>((resolve) => child.on('close', (code, signal) => resolve({code, signal, stderr, stdout})))
  return {child, done, stdout: () => stdout}
}

describe('mcp stdio as a process', () => {
  const space = scratch()
  const project = join(space.dir, 'project')
  const started: ChildProcess[] = []

  beforeAll(() => {
    mkdirSync(project)
    writeFileSync(join(project, '.taskbox.json'), JSON.stringify({name: 'project', nextId: 1, tasks: []}))
  })

  afterAll(() => {
    for (const child of started) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
    // Commands a failed test left running (their own process groups) work under the scratch dir.
    killPids(processesIn(space.dir))
    space.cleanup()
  })

  it('answers every piped request, keeps stdout pure despite noisy hooks, and exits 0 when input ends', async () => {
    const env = taskboxEnv(join(space.dir, 'home-noisy'), [NOISY_PLUGIN])
    const server = start(env, space.dir)
    started.push(server.child)
    const requests = [
      initialize(1),
      {jsonrpc: '2.0', method: 'notifications/initialized'},
      {id: 2, jsonrpc: '2.0', method: 'tools/list'},
      call(3, 'init', {cwd: space.dir}),
      call(4, 'report_weekly', {cwd: project, delay: 1}),
      call(5, 'status', {cwd: project}),
    ]
    server.child.stdin!.end(requests.map((r) => JSON.stringify(r)).join('\n') + '\n')
    const finished = await server.done

    expect(finished.code).toBe(0)
    const lines = finished.stdout.split('\n').filter(Boolean)
    const messages = lines.map((line) => JSON.parse(line) as {id?: number; jsonrpc: string; result?: Record<string, unknown>})
    for (const message of messages) expect(message.jsonrpc).toBe('2.0')
    expect(messages.map((m) => m.id).sort()).toEqual([1, 2, 3, 4, 5])
    expect(lines.filter((line) => line.includes('noisy-plugin: '))).toEqual([])
    // The hooks did run (their output went to stderr) ...
    expect(finished.stderr).toContain('noisy-plugin: init hook says hello on stdout')
    expect(finished.stderr).toContain('noisy-plugin: prerun hook before mcp:stdio')
    // ... and in the children too, where the JSON is still found after the noise.
    const status = messages.find((m) => m.id === 5)!.result as {isError?: boolean; structuredContent: {data: {initialized: boolean}}}
    const report = messages.find((m) => m.id === 4)!.result as {isError?: boolean; structuredContent: {data: {total: number}}}
    expect(report.isError).toBeFalsy()
    expect(report.structuredContent.data.total).toBe(0)
    expect(status.isError).toBeFalsy()
    expect(status.structuredContent.data.initialized).toBe(true)
    expect(messages.find((m) => m.id === 3)!.result).not.toHaveProperty('isError')
  })

  it('reads CRLF line ends as Windows pipes write them, and answers without a CR', async () => {
    const server = start(taskboxEnv(join(space.dir, 'home-crlf')), space.dir)
    started.push(server.child)
    const requests = [initialize(1), {jsonrpc: '2.0', method: 'notifications/initialized'}, call(2, 'status', {cwd: project})]
    server.child.stdin!.end(requests.map((r) => `${JSON.stringify(r)}\r\n`).join(''))
    const finished = await server.done
    expect(finished.code).toBe(0)
    expect(finished.stdout).not.toContain('\r')
    const messages = finished.stdout.split('\n').filter(Boolean).map((line) => JSON.parse(line) as {error?: unknown; id: number; result?: {isError?: boolean}})
    expect(messages.map((m) => [m.id, m.error === undefined])).toEqual([
      [1, true],
      [2, true],
    ])
    expect(messages[1].result?.isError).toBeFalsy()
  })

  it('serves a 2026-07-28 client that never sends initialize', async () => {
    const server = start(taskboxEnv(join(space.dir, 'home-modern')), space.dir)
    started.push(server.child)
    const meta = {
      'io.modelcontextprotocol/clientCapabilities': {},
      'io.modelcontextprotocol/clientInfo': {name: 'sh', version: '1'},
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    }
    const requests = [
      {id: 1, jsonrpc: '2.0', method: 'server/discover', params: {_meta: meta}},
      {id: 2, jsonrpc: '2.0', method: 'tools/call', params: {_meta: meta, arguments: {cwd: project}, name: 'status'}},
    ]
    server.child.stdin!.end(requests.map((r) => JSON.stringify(r)).join('\n') + '\n')
    const finished = await server.done
    expect(finished.code).toBe(0)
    const messages = finished.stdout
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as {id: number; result: Record<string, unknown>})
    const discover = messages.find((m) => m.id === 1)!.result
    expect(discover.supportedVersions).toEqual(expect.arrayContaining(['2026-07-28']))
    const status = messages.find((m) => m.id === 2)!.result as {structuredContent: {cwd: string}}
    expect(status.structuredContent.cwd).toContain('project')
  })

  it('kills a command that outlives --timeout and says so', async () => {
    const server = start(taskboxEnv(join(space.dir, 'home-timeout')), space.dir, ['--timeout', '2', '--cwd', project])
    started.push(server.child)
    const began = Date.now()
    server.child.stdin!.end([initialize(1), call(2, 'report_weekly', {delay: 359})].map((r) => JSON.stringify(r)).join('\n') + '\n')
    const finished = await server.done
    expect(finished.code).toBe(0)
    const reply = finished.stdout
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as {id: number; result: {content: {text: string}[]; isError?: boolean; structuredContent: Record<string, unknown>}})
      .find((m) => m.id === 2)!.result
    expect(reply.isError).toBe(true)
    expect(reply.structuredContent).toMatchObject({cwd: project, timedOut: true})
    expect(reply.content[0].text).toContain('Timed out after 2 s')
    // Generous bound: far below the 359 s the command wanted, whatever the machine's load.
    expect(Date.now() - began).toBeLessThan(60_000)
    expect(processesMatching('--delay=359')).toEqual([])
  })

  it.each(['SIGTERM', 'SIGINT'] as const)('on %s stops, kills the running command, and exits 0', async (signal) => {
    const delay = signal === 'SIGTERM' ? 347 : 353
    const slowProject = join(space.dir, `slow-${signal}`)
    mkdirSync(slowProject)
    writeFileSync(join(slowProject, '.taskbox.json'), JSON.stringify({name: 'slow', nextId: 1, tasks: []}))
    const server = start(taskboxEnv(join(space.dir, `home-${signal}`)), space.dir)
    started.push(server.child)
    server.child.stdin!.write(JSON.stringify(initialize(1)) + '\n')
    server.child.stdin!.write(JSON.stringify(call(2, 'report_weekly', {cwd: slowProject, delay})) + '\n')
    const marker = `--delay=${delay}`
    expect(await eventually(() => processesMatching(marker).length > 0)).toBe(true)

    server.child.kill(signal)
    const finished = await server.done
    expect(finished.code).toBe(0)
    expect(await eventually(() => processesMatching(marker).length === 0)).toBe(true)
  })
})
