// job_status and cancel_job (src/tools/builtins/job-tools.ts), called directly with a real call environment: jobs of
// the example CLI's real commands, held mid-run by a named pipe in place of their task file (a command blocks opening
// it until the test writes the file, so it outlives its one-second foreground budget however fast or slow the machine
// is). A caller that may only read sees the jobs of read-only commands alone, as if the others did not exist.
import type {Config} from '@oclif/core'

import {afterAll, beforeAll, describe, expect, it} from '@jest/globals'
import {execFileSync} from 'node:child_process'
import {constants, mkdirSync} from 'node:fs'
import {open} from 'node:fs/promises'
import {join} from 'node:path'

import type {CallEnvironment} from '../../../src/tools/execution/call-environment.js'
import type {CallContext} from '../../../src/tools/execution/pipeline.js'

import {callEnvironmentFor} from '../../../src/mcp/lifecycle.js'
import {readOnlyPlan, type ServerPlan} from '../../../src/mcp/plan.js'
import {BUILTIN_HINTS} from '../../../src/tools/builtins/builtin-tool.js'
import {processesIn} from '../../helpers/processes.js'
import {accepts, builtinOf, callBuiltin, dataOf, fencedOf, loadTaskbox, taskboxPlan, textsOf} from '../../helpers/builtins.js'
import {scratch} from '../../helpers/taskbox.js'

interface JobFacts {
  command: string
  cwd: string
  exitCode?: null | number
  id: string
  status: string
}

const INVALID_CURSOR = 'Invalid cursor "from the start": pass the cursor of an earlier job_status answer ("<stdout offset>.<stderr offset>"), or none for all the output.'
const unknownJob = (id: string, recent: string[] = []) => ({
  content: [
    {
      text: `No job "${id}" in this server: it never existed, finished more than 60 minutes ago, or ran in a server process that has since stopped (jobs do not outlive their server).${recent.length > 0 ? ` Recent jobs: ${recent.join(', ')}.` : ''}`,
      type: 'text',
    },
  ],
  isError: true,
  structuredContent: {code: 'UNKNOWN_JOB', job: id},
})

const space = scratch('job-tools-')
let config: Config
let plan: ServerPlan
let reading: ServerPlan
let env: CallEnvironment
/** Writes to a held command's task file that have not completed (a command that never opened it would hold them). */
const pending = new Map<string, Promise<void>>()

beforeAll(async () => {
  config = await loadTaskbox()
  // A call waits one second for its command, then answers with a job.
  plan = taskboxPlan(config, {foreground: 1})
  // What a request that may only read is served (an OAuth read scope), with the same call environment.
  reading = readOnlyPlan(plan)
  env = callEnvironmentFor(plan)
})

afterAll(async () => {
  await env?.dispose()
  // A write still waiting for its reader is let go (the command it waited for is gone).
  for (const fifo of pending.keys()) await open(fifo, constants.O_RDONLY | constants.O_NONBLOCK).then((handle) => handle.close())
  await Promise.all([...pending.values()].map((write) => write.catch(() => {})))
  expect(processesIn(space.dir)).toEqual([])
  space.cleanup()
})

/** A directory whose task file is a named pipe: a command that reads it waits there until release writes the file. */
function held(name: string): {dir: string; release: (store: object) => Promise<void>} {
  const dir = join(space.dir, name)
  mkdirSync(dir)
  const fifo = join(dir, '.taskbox.json')
  execFileSync('mkfifo', [fifo])
  return {
    dir,
    release(store) {
      const write = (async () => {
        const handle = await open(fifo, 'w')
        try {
          await handle.writeFile(JSON.stringify(store))
        } finally {
          await handle.close()
        }
      })()
      pending.set(fifo, write)
      return write.finally(() => pending.delete(fifo))
    },
  }
}

/** Starts a command through run_command (with the hash describe_command gives) and returns the job it became. */
async function startJob(command: string, args: Record<string, unknown>, context: CallContext): Promise<JobFacts> {
  const {definitionHash} = dataOf(await callBuiltin(builtinOf(plan, 'describe_command'), {command}))
  const result = await callBuiltin(builtinOf(plan, 'run_command'), {arguments: args, command, expectedDefinitionHash: definitionHash}, context, env)
  const job = dataOf(result).job as JobFacts | undefined
  if (job?.status !== 'working') throw new Error(`${command} did not become a job: ${textsOf(result)}`)
  return job
}

const status = (input: Record<string, unknown>, context: CallContext, from = plan) => callBuiltin(builtinOf(from, 'job_status'), input, context, env)
const cancel = (input: Record<string, unknown>, context: CallContext, from = plan) => callBuiltin(builtinOf(from, 'cancel_job'), input, context, env)
const jobsOf = (result: Awaited<ReturnType<typeof callBuiltin>>) => (dataOf(result).jobs as JobFacts[]).map((job) => job.id)

describe('job_status and cancel_job: schemas and hints', () => {
  it('job_status takes an optional job, cursor and wait of at most 50 s; cancel_job one job', () => {
    const jobStatus = builtinOf(plan, 'job_status')
    for (const input of [{}, {job: 'abc'}, {cursor: '10.2', job: 'abc', wait: 50}, {wait: 0}]) expect(accepts(jobStatus, input)).toBe(true)
    for (const input of [{wait: 51}, {wait: -1}, {wait: 1.5}, {job: ''}, {job: 'j'.repeat(65)}, {cursor: 'c'.repeat(65)}, {job: 'abc', output: 'abc'}]) {
      expect(accepts(jobStatus, input)).toBe(false)
    }

    const cancelJob = builtinOf(plan, 'cancel_job')
    expect(accepts(cancelJob, {job: 'abc'})).toBe(true)
    for (const input of [{}, {job: ''}, {job: 'j'.repeat(65)}, {job: 'abc', wait: 1}]) expect(accepts(cancelJob, input)).toBe(false)
  })

  it('job_status only reads; cancel_job may destroy while a command in reach writes, and not on a read-only server', () => {
    expect(builtinOf(plan, 'job_status').annotations).toEqual({...BUILTIN_HINTS, title: 'Job status'})
    expect(builtinOf(plan, 'cancel_job').annotations).toEqual({destructiveHint: true, idempotentHint: true, openWorldHint: false, readOnlyHint: false, title: 'Cancel a job'})
    expect(builtinOf(reading, 'cancel_job').annotations).toEqual({destructiveHint: false, idempotentHint: true, openWorldHint: false, readOnlyHint: false, title: 'Cancel a job'})
  })
})

describe('job_status and cancel_job without a job', () => {
  it('lists no job, and answers an unknown id with UNKNOWN_JOB', async () => {
    const none = await status({}, {})
    expect(none).toEqual({content: [{text: 'No jobs in this server.\n\n```json\n{\n  "jobs": []\n}\n```', type: 'text'}], structuredContent: {jobs: []}})
    expect(await status({job: 'nope'}, {})).toEqual(unknownJob('nope'))
    expect(await status({cursor: 'from the start', job: 'nope'}, {})).toEqual(unknownJob('nope'))
    expect(await cancel({job: 'nope'}, {})).toEqual(unknownJob('nope'))
  })
})

describe('a read-only command and a writing command running as jobs', () => {
  // Both jobs are one person's; another person sees neither, and a request that may only read sees the first alone.
  const mine: CallContext = {principal: 'pat'}
  const mineReadOnly: CallContext = {principal: 'pat', readOnly: true}
  const theirs: CallContext = {principal: 'sam'}
  const report = held('report')
  const adding = held('adding')
  let reportJob: JobFacts
  let addJob: JobFacts

  beforeAll(async () => {
    // One after the other: the writing one is the newer.
    reportJob = await startJob('report weekly', {cwd: report.dir, delay: 1}, mine)
    addJob = await startJob('tasks add', {cwd: adding.dir, title: 'never added'}, mine)
  })

  it('lists both for their owner, newest first, and neither for anyone else', async () => {
    const listed = await status({}, mine)
    expect(dataOf(listed).jobs).toEqual([
      expect.objectContaining({command: 'tasks add', cwd: adding.dir, id: addJob.id, status: 'working'}),
      expect.objectContaining({command: 'report weekly', cwd: report.dir, id: reportJob.id, status: 'working'}),
    ])
    expect(fencedOf(listed).summary).toBe('2 jobs, 2 running (newest first).')
    expect(dataOf(await status({}, theirs))).toEqual({jobs: []})
    expect(await status({job: reportJob.id}, theirs)).toEqual(unknownJob(reportJob.id))
    expect(await cancel({job: addJob.id}, theirs)).toEqual(unknownJob(addJob.id))
  })

  it('shows a running job with its cursor, the calls that follow and stop it, and refuses a cursor it never gave', async () => {
    const running = await status({job: addJob.id}, mine)
    expect(running.isError).toBeUndefined()
    expect(dataOf(running)).toMatchObject({
      cancel: {arguments: {job: addJob.id}, tool: 'cancel_job'},
      cursor: '0.0',
      job: {command: 'tasks add', id: addJob.id, status: 'working'},
      next: {arguments: {cursor: '0.0', job: addJob.id, wait: 50}, tool: 'job_status'},
      stdout: '',
    })
    expect(textsOf(running)).toMatch(new RegExp(`^\\$ taskbox tasks add .*"never added".*\\nJob ${addJob.id} is running`))
    expect(textsOf(running)).toContain('(no new output)')
    expect(await status({cursor: 'from the start', job: addJob.id}, mine)).toEqual({content: [{text: INVALID_CURSOR, type: 'text'}], isError: true})
  })

  it('to a request that may only read, shows the read-only job alone: the writing one is unknown, and not stopped', async () => {
    const listed = await status({}, mineReadOnly, reading)
    expect(jobsOf(listed)).toEqual([reportJob.id])
    expect(fencedOf(listed).summary).toBe('1 jobs, 1 running (newest first).')
    expect(dataOf(await status({job: reportJob.id}, mineReadOnly, reading)).job).toMatchObject({id: reportJob.id, status: 'working'})
    // The writing job is answered as one that never existed, its recent jobs naming only what this caller may follow.
    expect(await status({job: addJob.id}, mineReadOnly, reading)).toEqual(unknownJob(addJob.id, [reportJob.id]))
    expect(await cancel({job: addJob.id}, mineReadOnly, reading)).toEqual(unknownJob(addJob.id, [reportJob.id]))
    expect((dataOf(await status({job: addJob.id}, mine)).job as JobFacts).status).toBe('working')
  })

  it("cancels the writing job: its command and everything it started end, and cancelling again says it had ended", async () => {
    const cancelled = await cancel({job: addJob.id}, mine)
    expect((dataOf(cancelled).job as JobFacts).status).toBe('cancelled')
    expect(textsOf(cancelled)).toMatch(new RegExp(`^Job ${addJob.id} was cancelled after \\d+ s\\.`))
    expect(processesIn(adding.dir)).toEqual([])

    const again = await cancel({job: addJob.id}, mine)
    const note = `Job ${addJob.id} had already ended (cancelled); nothing was stopped.`
    expect(again.content[0]).toEqual({text: note, type: 'text'})
    expect(dataOf(again)).toMatchObject({job: {id: addJob.id, status: 'cancelled'}, message: note})
    expect(fencedOf(await status({}, mine)).summary).toBe('2 jobs, 1 running (newest first).')
  })

  it("waits for the read-only job's end, passing its progress on, then gives the command's own result", async () => {
    const progress: string[] = []
    const waited = status({job: reportJob.id, wait: 50}, {...mineReadOnly, progress: (message) => progress.push(message)}, reading)
    await report.release({name: 'weekly', nextId: 1, tasks: []})
    const ended = await waited
    expect(ended.isError).toBeUndefined()
    expect(progress).toContain('crunching 1/1')
    expect(dataOf(ended)).toMatchObject({
      data: {done: 0, name: 'weekly', open: 0, total: 0},
      exitCode: 0,
      job: {exitCode: 0, id: reportJob.id, status: 'completed'},
      message: expect.stringMatching(new RegExp(`^Job ${reportJob.id} completed after \\d+ s\\.$`)),
    })
    expect(textsOf(ended)).toMatch(new RegExp(`^Job ${reportJob.id} completed after \\d+ s\\.\\n\\n\\$ taskbox report weekly`))

    // Cancelling a job that has ended stops nothing, and says so.
    const late = await cancel({job: reportJob.id}, mineReadOnly, reading)
    expect(dataOf(late)).toMatchObject({job: {status: 'completed'}, message: `Job ${reportJob.id} had already ended (completed); nothing was stopped.`})
    expect(fencedOf(await status({}, mine)).summary).toBe('2 jobs, 0 running (newest first).')
  })
})
