// --confirm-destructive through every entry point: the typed tool and run_command, over stdio (both eras), over
// HTTP (both eras) and through `mcp call` at a terminal. A declining person means nothing runs; an accepting one
// means the command runs exactly once (counted in the audit log); where nobody can be asked the call is refused
// unless the server was told to trust the host's own approval.
import {Client, type ClientCapabilities, StreamableHTTPClientTransport} from '@modelcontextprotocol/client'
import {afterAll, describe, expect, it} from '@jest/globals'
import {existsSync, mkdirSync, readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'

import {MODERN_META, post, serveTaskbox} from '../helpers/serve.js'
import {atTerminal} from '../helpers/terminal.js'
import {connectTaskbox, type Era, ROOT, scratch, TASKBOX_BIN, taskboxEnv, textOf} from '../helpers/taskbox.js'
import {runTaskbox} from '../helpers/run-cli.js'

const space = scratch()
afterAll(() => space.cleanup())

let count = 0
/** A project with two tasks, so a removal can be seen, and a HOME of its own, so its audit log is its own. */
function project(): {dir: string; env: Record<string, string>; home: string} {
  const dir = join(space.dir, `p${++count}`)
  mkdirSync(dir)
  writeFileSync(join(dir, '.taskbox.json'), JSON.stringify({name: 'p', nextId: 3, tasks: [1, 2].map((id) => ({done: false, id, priority: 3, tags: [], title: `t${id}`}))}))
  const home = join(space.dir, `home${count}`)
  return {dir, env: taskboxEnv(home), home}
}

const ids = (dir: string) => (JSON.parse(readFileSync(join(dir, '.taskbox.json'), 'utf8')) as {tasks: {id: number}[]}).tasks.map((t) => t.id)

/** How many times the audit log says a command ran, and what it says of refusals. */
function audited(home: string): {outcomes: string[]; ran: number} {
  // Calls that ran nothing (declined, not confirmed) are kept beside the log, in their own file.
  const read = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as {outcome: string; time: string}) : [])
  const records = [...read(join(home, 'data', 'taskbox', 'mcp-audit.jsonl')), ...read(join(home, 'data', 'taskbox', 'mcp-audit.refused.jsonl'))].sort((a, b) => (a.time < b.time ? -1 : 1))
  return {outcomes: records.map((r) => r.outcome), ran: records.filter((r) => r.outcome === 'ran').length}
}

type Answer = 'accept' | 'decline'
type Entry = 'run_command' | 'typed'

/** The same destructive call (remove task 1) through a typed tool or through run_command. */
async function removeOne(client: Client, entry: Entry, dir: string) {
  if (entry === 'typed') return client.callTool({arguments: {cwd: dir, id: '1'}, name: 'tasks_remove'})
  const described = await client.callTool({arguments: {command: 'tasks remove'}, name: 'describe_command'})
  const hash = (described.structuredContent as {definitionHash: string}).definitionHash
  return client.callTool({arguments: {arguments: {cwd: dir, id: '1'}, command: 'tasks remove', expectedDefinitionHash: hash}, name: 'run_command'})
}

/** A client that declares elicitation (when it will answer) and records what it was asked. */
function answering(answer: Answer | undefined, asked: string[]): {capabilities?: ClientCapabilities; setup: (client: Client) => void} {
  return {
    capabilities: answer ? {elicitation: {form: {}}} : undefined,
    setup(client) {
      if (!answer) return
      client.setRequestHandler('elicitation/create', async (request) => {
        asked.push(String(request.params.message))
        return answer === 'accept' ? {action: 'accept', content: {confirm: true}} : {action: 'decline'}
      })
    },
  }
}

describe.each<Era>(['legacy', 'modern'])('--confirm-destructive over stdio (%s era)', (era) => {
  async function call(entry: Entry, answer: Answer | undefined, args: string[] = []) {
    const {dir, env, home} = project()
    const asked: string[] = []
    const server = await connectTaskbox({args: ['--confirm-destructive', ...args], cwd: space.dir, env, era, ...answering(answer, asked)})
    try {
      const result = await removeOne(server.client, entry, dir)
      // Read-only and merely mutating commands are never asked about.
      await server.client.callTool({arguments: {cwd: dir}, name: 'tasks_list'})
      return {asked, audit: audited(home), ids: ids(dir), result, stderr: server.stderr()}
    } finally {
      await server.close()
    }
  }

  it.each<Entry>(['typed', 'run_command'])('%s: a declining person means nothing runs', async (entry) => {
    const {asked, audit, ids, result} = await call(entry, 'decline')
    expect(result.isError).toBe(true)
    expect(result.structuredContent).toMatchObject({code: 'NOT_CONFIRMED'})
    expect(asked).toHaveLength(1)
    expect(asked[0]).toContain('tasks remove')
    expect(ids).toEqual([1, 2])
    expect(audit).toEqual({outcomes: ['not-confirmed'], ran: 0})
  })

  it.each<Entry>(['typed', 'run_command'])('%s: an accepting person means it runs once', async (entry) => {
    const {asked, audit, ids, result} = await call(entry, 'accept')
    expect(result.isError).toBeFalsy()
    expect(asked).toHaveLength(1)
    expect(ids).toEqual([2])
    expect(audit.ran).toBe(1)
  })

  it.each<Entry>(['typed', 'run_command'])('%s: a client that cannot be asked is refused, and told why', async (entry) => {
    const {audit, ids, result, stderr} = await call(entry, undefined)
    expect(result.isError).toBe(true)
    expect(result.structuredContent).toMatchObject({code: 'CONFIRMATION_UNAVAILABLE'})
    expect(textOf(result)).toContain('--trust-host-approval')
    expect(textOf(result)).toContain('Nothing was run')
    expect(ids).toEqual([1, 2])
    expect(audit).toEqual({outcomes: ['not-confirmed'], ran: 0})
    if (era === 'legacy') expect(stderr).toContain('cannot be asked; destructive calls will be refused')
  })

  it('with --trust-host-approval, a client that cannot be asked leaves the gate to the host', async () => {
    const {audit, ids, result} = await call('run_command', undefined, ['--trust-host-approval'])
    expect(result.isError).toBeFalsy()
    expect(ids).toEqual([2])
    expect(audit.ran).toBe(1)
  })
})

describe('--confirm-destructive over HTTP', () => {
  async function call(era: Era, entry: Entry, answer: Answer | undefined, args: string[] = []) {
    const {dir, env, home} = project()
    const served = await serveTaskbox({args: ['--confirm-destructive', ...args], cwd: space.dir, env})
    const asked: string[] = []
    const {capabilities, setup} = answering(answer, asked)
    const client = new Client({name: 'confirm-http', version: '1'}, {
      ...(capabilities ? {capabilities} : {}),
      ...(era === 'modern' ? {versionNegotiation: {mode: {pin: '2026-07-28' as const}}} : {}),
    })
    setup(client)
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(served.url)))
      const result = await removeOne(client, entry, dir)
      return {asked, audit: audited(home), ids: ids(dir), result, stderr: served.stderr()}
    } finally {
      await client.close().catch(() => {})
      expect(await served.stop()).toBe(0)
    }
  }

  it.each<Entry>(['typed', 'run_command'])('2026-07-28, %s: declined runs nothing, accepted runs once', async (entry) => {
    const declined = await call('modern', entry, 'decline')
    expect(declined.result.structuredContent).toMatchObject({code: 'NOT_CONFIRMED'})
    expect(declined.asked).toHaveLength(1)
    expect(declined.ids).toEqual([1, 2])
    expect(declined.audit.ran).toBe(0)

    const accepted = await call('modern', entry, 'accept')
    expect(accepted.result.isError).toBeFalsy()
    expect(accepted.asked).toHaveLength(1)
    expect(accepted.ids).toEqual([2])
    expect(accepted.audit.ran).toBe(1)
  })

  it('2026-07-28: an answer counts only with the sealed state of its own question, for the same call, once', async () => {
    const {dir, env, home} = project()
    const served = await serveTaskbox({args: ['--confirm-destructive'], cwd: space.dir, env})
    const accept = {confirm: {action: 'accept', content: {confirm: true}}}
    let id = 0
    const remove = (taskId: string, extra: Record<string, unknown> = {}) =>
      post(served.url, {id: ++id, jsonrpc: '2.0', method: 'tools/call', params: {_meta: {...MODERN_META, 'io.modelcontextprotocol/clientCapabilities': {elicitation: {form: {}}}}, arguments: {cwd: dir, id: taskId}, name: 'tasks_remove', ...extra}}, {modern: true})
    try {
      // Answered ahead of any question: asked instead, nothing runs.
      const ahead = await remove('1', {inputResponses: accept})
      expect(ahead.json.result).toMatchObject({inputRequests: {confirm: expect.anything()}, resultType: 'input_required'})
      expect(ids(dir)).toEqual([1, 2])
      // The state of a question about task 2 does not answer a call removing task 1.
      const other = (await remove('2')).json.result
      const carried = await remove('1', {inputResponses: accept, requestState: other.requestState})
      expect(carried.json.result).toMatchObject({resultType: 'input_required'})
      expect(ids(dir)).toEqual([1, 2])
      // A state tampered with is refused before anything runs.
      const forged = await remove('1', {inputResponses: accept, requestState: `${String(other.requestState).slice(0, -4)}AAAA`})
      expect(forged.json.error).toMatchObject({code: -32_602, message: 'Invalid or expired requestState'})
      // Its own question's state with the answer: runs once.
      const asked = (await remove('1')).json.result
      const answered = await remove('1', {inputResponses: accept, requestState: asked.requestState})
      expect(answered.json.result.isError).toBeFalsy()
      expect(ids(dir)).toEqual([2])
      // The same state and answer again (a replay): asked again, not run a second time.
      writeFileSync(join(dir, '.taskbox.json'), JSON.stringify({name: 'p', nextId: 3, tasks: [1, 2].map((n) => ({done: false, id: n, priority: 3, tags: [], title: `t${n}`}))}))
      const replayed = await remove('1', {inputResponses: accept, requestState: asked.requestState})
      expect(replayed.json.result).toMatchObject({resultType: 'input_required'})
      expect([ids(dir), audited(home).ran]).toEqual([[1, 2], 1])
    } finally {
      expect(await served.stop()).toBe(0)
    }
  })

  it.each<Entry>(['typed', 'run_command'])('2025 era, %s: refused even for a client that declares elicitation (it cannot travel)', async (entry) => {
    const {asked, audit, ids, result, stderr} = await call('legacy', entry, 'accept')
    expect(result.isError).toBe(true)
    expect(result.structuredContent).toMatchObject({code: 'CONFIRMATION_UNAVAILABLE'})
    expect(textOf(result)).toContain('stateless HTTP')
    expect(asked).toEqual([])
    expect(ids).toEqual([1, 2])
    expect(audit).toEqual({outcomes: ['not-confirmed'], ran: 0})
    // Said at start-up: this combination can never ask a 2025-era client.
    expect(stderr).toContain('2025-era clients (most hosts today) can never be asked here')
  })

  it('2025 era with --trust-host-approval: runs once, and the start-up warning is gone', async () => {
    const {audit, ids, result, stderr} = await call('legacy', 'typed', undefined, ['--trust-host-approval'])
    expect(result.isError).toBeFalsy()
    expect(ids).toEqual([2])
    expect(audit.ran).toBe(1)
    expect(stderr).not.toContain('can never be asked')
  })
})

/** `taskbox mcp call …` at a pseudo-terminal whose keyboard types `typed` once the question is on the screen. */
const callAtTerminal = (args: string[], typed: string, env: Record<string, string>) => atTerminal([process.execPath, TASKBOX_BIN, 'mcp', 'call', ...args], ['[y/N]'], [typed.replace(/\n$/, '')], env, ROOT)

describe('--confirm-destructive through mcp call', () => {
  const removal = (dir: string) => ['tasks_remove', '--confirm-destructive', '--args', JSON.stringify({cwd: dir, id: '1'})]

  it('asks at the terminal: "n" runs nothing, "y" runs once', async () => {
    const declined = project()
    const no = await callAtTerminal(removal(declined.dir), 'n\n', declined.env)
    expect(no.output).toContain('Run "tasks remove"')
    expect(no.output).toContain('declined')
    expect(no.code).toBe(1)
    expect(ids(declined.dir)).toEqual([1, 2])
    expect(audited(declined.home).ran).toBe(0)

    const accepted = project()
    const yes = await callAtTerminal(removal(accepted.dir), 'y\n', accepted.env)
    expect(yes.code).toBe(0)
    expect(ids(accepted.dir)).toEqual([2])
    expect(audited(accepted.home).ran).toBe(1)
  })

  it('refuses without a terminal to ask at (a script), and says how to allow it', async () => {
    const {dir, env, home} = project()
    const ran = await runTaskbox(['mcp', 'call', ...removal(dir)], {cwd: space.dir, detached: true, env})
    expect(ran.code).toBe(1)
    expect(ran.stderr).toContain('--trust-host-approval')
    expect(ids(dir)).toEqual([1, 2])
    expect(audited(home)).toEqual({outcomes: ['not-confirmed'], ran: 0})
  })
})
