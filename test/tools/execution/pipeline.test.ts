// The one call pipeline (src/tools/execution/pipeline.ts), called directly: each step in its place and in its order
// (boundary → arguments → confirmation → idempotency → execution → result → audit), with the example CLI's real
// commands run as child processes. The transports only say how to reach the person; that seam (`asking`) is the one
// thing given here by hand.
import {afterAll, afterEach, beforeAll, describe, expect, it} from '@jest/globals'
import {Config} from '@oclif/core'
import {existsSync, mkdirSync, readFileSync} from 'node:fs'
import {join} from 'node:path'

import type {AuthorConfig} from '../../../src/settings/author-config.js'
import type {ServerFlags} from '../../../src/settings/settings.js'
import type {CommandTool} from '../../../src/tools/catalog/registry.js'
import type {CallEnvironment} from '../../../src/tools/execution/call-environment.js'
import type {AskOutcome, CallAnswer, CallContext} from '../../../src/tools/execution/pipeline.js'
import type {AuditRecord} from '../../../src/tools/records/audit-log.js'

import {ROOT, scratch, textOf} from '../../helpers/taskbox.js'

// The built modules: commands run in child processes that preload the built orphan guard (npm test builds first).
const DIST = join(ROOT, 'dist')
const {parseAuthorConfig} = (await import(join(DIST, 'settings/author-config.js'))) as typeof import('../../../src/settings/author-config.js')
const {resolveSettings} = (await import(join(DIST, 'settings/settings.js'))) as typeof import('../../../src/settings/settings.js')
const {buildRegistry} = (await import(join(DIST, 'tools/catalog/registry.js'))) as typeof import('../../../src/tools/catalog/registry.js')
const {createCallEnvironment} = (await import(join(DIST, 'tools/execution/call-environment.js'))) as typeof import('../../../src/tools/execution/call-environment.js')
const {callCommandTool} = (await import(join(DIST, 'tools/execution/pipeline.js'))) as typeof import('../../../src/tools/execution/pipeline.js')
const {project} = (await import(join(DIST, 'tools/exposure/projection.js'))) as typeof import('../../../src/tools/exposure/projection.js')
const {AuditLog, auditLine, refusalsFile} = (await import(join(DIST, 'tools/records/audit-log.js'))) as typeof import('../../../src/tools/records/audit-log.js')
const {fileIdempotency} = (await import(join(DIST, 'tools/records/idempotency-files.js'))) as typeof import('../../../src/tools/records/idempotency-files.js')

let config: Config
const space = scratch('pipeline-')
const environments: CallEnvironment[] = []
let made = 0

beforeAll(async () => {
  config = await Config.load(join(ROOT, 'examples/taskbox'))
})

afterEach(async () => {
  await Promise.all(environments.splice(0).map((env) => env.dispose()))
})

afterAll(() => space.cleanup())

/** A call environment as a server builds it, with its audit log and idempotency records in a directory of its own. */
function environment(flags: ServerFlags = {}, author: AuthorConfig = {}): {audit: () => AuditRecord[]; env: CallEnvironment; project: string; tool: (id: string) => CommandTool} {
  const dir = join(space.dir, `env-${++made}`)
  mkdirSync(dir)
  const settings = resolveSettings(parseAuthorConfig(author), {workers: 0, ...flags})
  const projection = project(buildRegistry(config, settings), settings)
  const auditFile = join(dir, 'audit.jsonl')
  const log = new AuditLog(auditFile)
  // Calls that ran and calls that ran nothing go to two files (audit-log.ts): what was written, in the order written,
  // each line as its file holds it (and each in its own file: checked below).
  const written: AuditRecord[] = []
  const append = log.append.bind(log)
  log.append = (record) => {
    written.push(record)
    return append(record)
  }

  const env: CallEnvironment = {
    ...createCallEnvironment(config, settings, projection),
    audit: log,
    idempotency: fileIdempotency({dir: join(dir, 'idempotency')}),
  }
  environments.push(env)
  const read = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as AuditRecord) : [])
  const audit = () => {
    const lines = written.map((record) => JSON.parse(auditLine(record)) as AuditRecord)
    const ran = (record: AuditRecord) => record.outcome === 'ran' || record.outcome === 'job-ended'
    expect([...read(auditFile), ...read(refusalsFile(auditFile))].length).toBe(lines.length)
    expect(read(auditFile)).toEqual(lines.filter((record) => ran(record)))
    return lines
  }
  const tool = (id: string) => {
    const found = projection.executable.get(id) ?? buildRegistry(config, resolveSettings(parseAuthorConfig(author), {})).byId.get(id)
    if (!found) throw new Error(`no command ${id}`)
    return found
  }

  return {audit, env, project: dir, tool}
}

/** Asking that records each question and answers with `answer`. */
function asker(answer: AskOutcome): {asked: string[]; context: CallContext} {
  const asked: string[] = []
  return {asked, context: {asking: {ask: async (message) => (asked.push(message), answer)}}}
}

const text = (answer: CallAnswer) => textOf(answer as {content?: unknown})
const structured = (answer: CallAnswer) => (answer as {structuredContent?: Record<string, unknown>}).structuredContent ?? {}

async function initialised(setup: ReturnType<typeof environment>): Promise<void> {
  const answer = await callCommandTool(setup.tool('init'), {cwd: setup.project}, setup.env)
  expect(answer.isError).toBeFalsy()
}

async function tasksIn(setup: ReturnType<typeof environment>): Promise<string[]> {
  const answer = await callCommandTool(setup.tool('tasks:list'), {cwd: setup.project}, setup.env)
  return ((structured(answer).data as {tasks?: {title: string}[]}).tasks ?? []).map((t) => t.title)
}

describe('callCommandTool: the steps in order', () => {
  it('boundary first: a command outside it gets the unknown-command answer, whatever its arguments', async () => {
    const setup = environment({'read-only': true})
    const answer = await callCommandTool(setup.tool('tasks:remove'), {bogus: 1}, setup.env)
    expect(answer.isError).toBe(true)
    expect(text(answer)).toMatch(/^No command "tasks remove"\./)
    expect(setup.audit()).toEqual([])
  })

  it('boundary, for a read-only caller (an OAuth read scope): a writing command inside the server is unknown to it, and no suggestion names one', async () => {
    const setup = environment()
    await initialised(setup)
    const answer = await callCommandTool(setup.tool('tasks:add'), {cwd: setup.project, title: 'x'}, setup.env, {readOnly: true})
    expect(answer.isError).toBe(true)
    expect(text(answer)).toMatch(/^No command "tasks add"\./)
    expect(text(answer)).not.toMatch(/tasks (remove|done|clear)|\binit\b|\bsync\b/)
    expect(await tasksIn(setup)).toEqual([])
    const reading = await callCommandTool(setup.tool('tasks:list'), {cwd: setup.project}, setup.env, {readOnly: true})
    expect(reading.isError).toBeFalsy()
  })

  it("idempotency keys are each caller's own: the same key from another principal runs again", async () => {
    const setup = environment()
    await initialised(setup)
    const call = {cwd: setup.project, idempotencyKey: 'one-key-1', title: 'once'}
    const outcomes = async () => setup.audit().filter((r) => r.command === 'tasks:add').map((r) => `${r.principal} ${r.outcome}`)
    for (const principal of ['sub:a', 'sub:b', 'sub:a']) await callCommandTool(setup.tool('tasks:add'), call, setup.env, {principal})
    expect(await outcomes()).toEqual(['sub:a ran', 'sub:b ran', 'sub:a replayed'])
    expect(await tasksIn(setup)).toEqual(['once', 'once'])
  })

  it('then arguments: invalid ones are refused before anyone is asked, and nothing runs', async () => {
    const setup = environment({'confirm-destructive': true})
    const {asked, context} = asker({answer: 'accept'})
    const answer = await callCommandTool(setup.tool('tasks:remove'), {bogus: true, cwd: setup.project, id: '1'}, setup.env, context)
    expect(text(answer)).toMatch(/^Invalid arguments for "tasks remove": arguments: Unrecognized key: "bogus"\. Nothing was run\.$/)
    expect(asked).toEqual([])
    expect(setup.audit()).toEqual([])
  })

  it('drops the keys hosts add to every call before validating, and refuses any other unknown key', async () => {
    const setup = environment()
    await initialised(setup)
    expect((await callCommandTool(setup.tool('status'), {cwd: setup.project, wait_for_previous: true}, setup.env)).isError).toBeFalsy()
    expect(text(await callCommandTool(setup.tool('status'), {cwd: setup.project, waitForPrevious: true}, setup.env))).toMatch(/^Invalid arguments/)
  })

  it('then confirmation: a declined destructive call runs nothing and is audited as not confirmed', async () => {
    const setup = environment({'confirm-destructive': true})
    await initialised(setup)
    await callCommandTool(setup.tool('tasks:add'), {cwd: setup.project, title: 'keep me'}, setup.env)
    const {asked, context} = asker({answer: 'decline'})
    const answer = await callCommandTool(setup.tool('tasks:remove'), {cwd: setup.project, id: '1'}, setup.env, context)
    expect(structured(answer)).toMatchObject({code: 'NOT_CONFIRMED', command: 'tasks remove'})
    expect(asked).toEqual([expect.stringMatching(/^Run "tasks remove" with \{.*"id":"1".*\}\? It is marked destructive\.$/)])
    expect(await tasksIn(setup)).toEqual(['keep me'])
    expect(setup.audit().map((r) => [r.command, r.outcome])).toEqual([
      ['init', 'ran'],
      ['tasks:add', 'ran'],
      ['tasks:remove', 'not-confirmed'],
    ])
  })

  it('runs an accepted destructive call once', async () => {
    const setup = environment({'confirm-destructive': true})
    await initialised(setup)
    await callCommandTool(setup.tool('tasks:add'), {cwd: setup.project, title: 'drop me'}, setup.env)
    const {asked, context} = asker({answer: 'accept'})
    const answer = await callCommandTool(setup.tool('tasks:remove'), {cwd: setup.project, id: '1'}, setup.env, context)
    expect(answer.isError).toBeFalsy()
    expect(asked).toHaveLength(1)
    expect(await tasksIn(setup)).toEqual([])
    expect(setup.audit().filter((r) => r.command === 'tasks:remove').map((r) => r.outcome)).toEqual(['ran'])
  })

  it('refuses a destructive call where nobody can be asked, unless the host approval is trusted', async () => {
    const refusing = environment({'confirm-destructive': true})
    await initialised(refusing)
    const reason = 'this client did not declare that it can be asked (elicitation)'
    const context: CallContext = {asking: {cannot: reason}}
    const refused = await callCommandTool(refusing.tool('tasks:clear'), {cwd: refusing.project, yes: true}, refusing.env, context)
    expect(structured(refused)).toMatchObject({code: 'CONFIRMATION_UNAVAILABLE', reason})
    expect(refusing.audit().at(-1)?.outcome).toBe('not-confirmed')

    const trusting = environment({'confirm-destructive': true, 'trust-host-approval': true})
    await initialised(trusting)
    const ran = await callCommandTool(trusting.tool('tasks:clear'), {cwd: trusting.project, yes: true}, trusting.env, context)
    expect(ran.isError).toBeFalsy()
    expect(trusting.audit().at(-1)).toMatchObject({command: 'tasks:clear', outcome: 'ran'})
  })

  it('hands back a 2026-07-28 input request as it is: nothing runs and nothing is audited yet', async () => {
    const setup = environment({'confirm-destructive': true})
    await initialised(setup)
    const pending = {inputRequests: {confirm: {method: 'elicitation/create', params: {message: 'Run it?'}}}, resultType: 'input_required'}
    const {context} = asker({pending: pending as unknown as Extract<AskOutcome, {pending: unknown}>['pending']})
    expect(await callCommandTool(setup.tool('tasks:clear'), {cwd: setup.project}, setup.env, context)).toBe(pending)
    expect(setup.audit().map((r) => r.command)).toEqual(['init'])
  })

  it('then idempotency: a retry with the same key replays the first result and runs nothing', async () => {
    const setup = environment()
    await initialised(setup)
    const call = () => callCommandTool(setup.tool('tasks:add'), {cwd: setup.project, idempotencyKey: 'once', title: 'only once'}, setup.env)
    const first = await call()
    const second = await call()
    expect(first.isError).toBeFalsy()
    expect(textOf({content: (second as {content: unknown[]}).content.slice(-1)})).toMatch(/^Replayed: this is the result recorded at .* for idempotencyKey "once"/)
    expect(await tasksIn(setup)).toEqual(['only once'])
    expect(setup.audit().filter((r) => r.command === 'tasks:add').map((r) => r.outcome)).toEqual(['ran', 'replayed'])
  })

  it('then the result and the audit record, secrets redacted in both; read-only calls are not audited', async () => {
    const setup = environment({}, {secretFlags: ['assignee']})
    await initialised(setup)
    const answer = await callCommandTool(setup.tool('tasks:add'), {assignee: 'sekrit-sam', cwd: setup.project, title: 'hidden'}, setup.env)
    expect(JSON.stringify(answer)).not.toContain('sekrit-sam')
    expect(JSON.stringify(answer)).toContain('[REDACTED]')
    await callCommandTool(setup.tool('tasks:list'), {cwd: setup.project}, setup.env)
    const records = setup.audit()
    expect(JSON.stringify(records)).not.toContain('sekrit-sam')
    expect(records.map((r) => r.command)).toEqual(['init', 'tasks:add'])
    expect(records[1]).toMatchObject({arguments: {assignee: '[REDACTED]', title: 'hidden'}, cwd: setup.project, exitCode: 0, outcome: 'ran', tool: 'tasks_add'})
  })
})
