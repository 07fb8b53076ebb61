import type {CallToolResult} from '@modelcontextprotocol/server'

import {describe, expect, it} from '@jest/globals'

import {jobView, parseCursor} from '../../../src/tools/execution/job-view.js'
import {type JobEnd, JobTable, MAX_FINISHED_JOBS, MAX_FINISHED_JOBS_TOTAL, waitForJob} from '../../../src/tools/execution/job-table.js'
import {OutputStore} from '../../../src/tools/records/output-store.js'

/** A job whose command is simulated: `write` adds output, `finish` ends it, `stopped` says whether it was stopped. */
function simulated(table: JobTable, outputs: OutputStore, timeoutMs = 60_000, principal?: string) {
  const streams = {stderr: '', stdout: ''}
  let finish!: (end: JobEnd) => void
  const state = {stopped: false}
  const job = table.start({
    command: 'build',
    commandLine: 'cli build --all',
    cwd: '/work',
    end: new Promise<JobEnd>((resolve) => (finish = resolve)),
    ...(principal === undefined ? {} : {principal}),
    read: (stream) => streams[stream],
    size: () => streams.stdout.length + streams.stderr.length,
    startedAt: Date.now(),
    stop: () => (state.stopped = true),
    timeoutMs,
    watchers: new Set(),
  })
  const result = (text: string, isError = false): CallToolResult => ({content: [{text, type: 'text'}], isError, structuredContent: {exitCode: isError ? 1 : 0, stdout: streams.stdout}})
  return {
    end: (exitCode: number, cancelled = false) => {
      finish({cancelled, durationMs: 1234, exitCode, result: result(`$ cli build --all\n(exit ${exitCode})\n\n${streams.stdout}`, exitCode !== 0), streams: {...streams}})
      return job.ended
    },
    job,
    outputs,
    state,
    write: (stdout: string, stderr = '') => {
      streams.stdout += stdout
      streams.stderr += stderr
    },
  }
}

describe('JobTable', () => {
  it('follows a running job by cursor: each view has only what was written since, and the next cursor', () => {
    const outputs = new OutputStore()
    const table = new JobTable(outputs)
    const sim = simulated(table, outputs)
    sim.write('one\ntwo\n')
    const first = jobView(sim.job, parseCursor(undefined)!, 10_000, outputs.get(sim.job.id))
    expect(first.structuredContent).toMatchObject({cursor: '8.0', job: {command: 'build', cwd: '/work', status: 'working'}, stdout: 'one\ntwo\n'})
    expect((first.content[0] as {text: string}).text).toContain(`job_status {"job": "${sim.job.id}", "cursor": "8.0", "wait": 50}`)
    sim.write('three\n', 'warning\n')
    const next = jobView(sim.job, parseCursor('8.0')!, 10_000, outputs.get(sim.job.id))
    expect(next.structuredContent).toMatchObject({cursor: '14.8', stderr: 'warning\n', stdout: 'three\n'})
    expect(jobView(sim.job, parseCursor('14.8')!, 10_000, outputs.get(sim.job.id)).content[0]).toMatchObject({text: expect.stringContaining('(no new output)')})
    // The live output is readable whole under the job's id.
    expect(outputs.get(sim.job.id)?.text('stdout')).toBe('one\ntwo\nthree\n')
  })

  it('once the command ended, answers with its result and its state (completed, failed, cancelled)', async () => {
    const outputs = new OutputStore()
    const table = new JobTable(outputs)
    for (const [exitCode, cancelled, status] of [
      [0, false, 'completed'],
      [2, false, 'failed'],
      [null, true, 'cancelled'],
    ] as const) {
      const sim = simulated(table, outputs)
      sim.write('done\n')
      await sim.end(exitCode ?? 137, cancelled)
      expect(sim.job.status).toBe(status)
      const view = jobView(sim.job, {stderr: 0, stdout: 0}, 10_000, outputs.get(sim.job.id))
      expect((view.content[0] as {text: string}).text).toMatch(/^Job \S+ (completed|failed|was cancelled) after 1 s\.\n\n\$ cli build --all/)
      expect(view.structuredContent).toMatchObject({job: {id: sim.job.id, status}, stdout: 'done\n'})
      expect(outputs.get(sim.job.id)?.live).toBe(false)
    }
  })

  it('stops a running job through its stop function, once; an ended job is not stopped', async () => {
    const outputs = new OutputStore()
    const table = new JobTable(outputs)
    const sim = simulated(table, outputs)
    expect(await table.cancel(sim.job.id)).toBe('stopped')
    expect(sim.state.stopped).toBe(true)
    await sim.end(143, true)
    expect(await table.cancel(sim.job.id)).toBe('ended')
  })

  it('cancelAll stops every running job (the server is stopping)', () => {
    const outputs = new OutputStore()
    const table = new JobTable(outputs)
    const sims = [simulated(table, outputs), simulated(table, outputs)]
    table.cancelAll()
    expect(sims.map((sim) => sim.state.stopped)).toEqual([true, true])
  })

  it('lists jobs newest first and forgets the oldest finished ones past the limit', async () => {
    const outputs = new OutputStore()
    const table = new JobTable(outputs)
    const first = simulated(table, outputs)
    await first.end(0)
    for (let i = 0; i < MAX_FINISHED_JOBS; i++) await simulated(table, outputs).end(0)
    const running = simulated(table, outputs)
    expect(table.list()[0]).toBe(running.job)
    expect(table.list()).toHaveLength(MAX_FINISHED_JOBS + 1)
    const missing = await table.lookup(first.job.id)
    expect('missing' in missing && missing.missing.structuredContent).toEqual({code: 'UNKNOWN_JOB', job: first.job.id})
  })

  it("keeps each person's finished jobs apart: one person's many jobs never push out another's", async () => {
    const outputs = new OutputStore()
    const table = new JobTable(outputs)
    const bob = simulated(table, outputs, 60_000, 'bob')
    await bob.end(0)
    for (let i = 0; i < MAX_FINISHED_JOBS + 20; i++) await simulated(table, outputs, 60_000, 'eve').end(0)
    expect(table.list('eve')).toHaveLength(MAX_FINISHED_JOBS)
    expect(table.list('bob')).toEqual([bob.job])
    // Past the total, the person with the most jobs loses their oldest first.
    const people = Math.ceil(MAX_FINISHED_JOBS_TOTAL / MAX_FINISHED_JOBS) + 1
    for (let p = 0; p < people; p++) for (let i = 0; i < MAX_FINISHED_JOBS; i++) await simulated(table, outputs, 60_000, `p${p}`).end(0)
    const kept = [bob, ...Array.from({length: people}, (_, p) => ({job: table.list(`p${p}`)[0]}))]
    expect(table.list('bob')).toEqual([bob.job])
    expect(kept.length + [...Array(people).keys()].reduce((n, p) => n + table.list(`p${p}`).length - 1, 0) + table.list('eve').length).toBeLessThanOrEqual(MAX_FINISHED_JOBS_TOTAL + 1)
  })

  it("holds a finished job's result with its output, within the store's bounds; once that goes, the job keeps its facts", async () => {
    const outputs = new OutputStore({maxChars: 20_000, perPersonChars: 10_000})
    const table = new JobTable(outputs)
    const bob = simulated(table, outputs, 60_000, 'bob')
    bob.write('bob was here\n')
    await bob.end(0)
    const eve = Array.from({length: 5}, () => simulated(table, outputs, 60_000, 'eve'))
    for (const sim of eve) {
      sim.write('y'.repeat(3000))
      await sim.end(3)
    }
    // Each of eve's holds 3,000 characters of output, 3,000 in its result's text and its structured stdout shares the
    // output's string: 6,000 and a little. Her share of 10,000 holds one.
    expect(outputs.size('eve')).toBeLessThanOrEqual(10_000)
    expect(outputs.get(eve[4].job.id)).toBeDefined()
    expect(outputs.get(eve[0].job.id)).toBeUndefined()
    const first = jobView(eve[0].job, {stderr: 0, stdout: 0}, 10_000, outputs.get(eve[0].job.id))
    expect(first.isError).toBe(true)
    expect(first.structuredContent).toMatchObject({job: {exitCode: 3, id: eve[0].job.id, status: 'failed'}, outputForgotten: true})
    expect((first.content[0] as {text: string}).text).toMatch(/no longer kept: this server keeps 20 KiB of output in all and 10 KiB of each person's/)
    // Bob's job, older than all of them, still has its result.
    const view = jobView(bob.job, {stderr: 0, stdout: 0}, 10_000, outputs.get(bob.job.id))
    expect(view.structuredContent).toMatchObject({job: {status: 'completed'}, stdout: 'bob was here\n'})
  })

  it('cuts new output to the budget, pointing at read_output for the whole', () => {
    const outputs = new OutputStore()
    const table = new JobTable(outputs)
    const sim = simulated(table, outputs)
    sim.write(Array.from({length: 5000}, (_, i) => `line ${i}`).join('\n') + '\n')
    const view = jobView(sim.job, {stderr: 0, stdout: 0}, 5000, outputs.get(sim.job.id))
    expect((view.content[0] as {text: string}).text.length).toBeLessThanOrEqual(5000)
    expect((view.structuredContent as Record<string, unknown>).stdout).toContain(`read_output {"output": "${sim.job.id}", "stream": "stdout"}`)
    // The cursor still moves to the end: the middle is read with read_output, not again with job_status.
    expect((view.structuredContent as Record<string, unknown>).cursor).toBe(`${outputs.get(sim.job.id)!.text('stdout').length}.0`)
  })
})

describe('parseCursor', () => {
  it('reads "<stdout>.<stderr>" offsets, none as the start, and refuses anything else', () => {
    expect(parseCursor(undefined)).toEqual({stderr: 0, stdout: 0})
    expect(parseCursor('12.3')).toEqual({stderr: 3, stdout: 12})
    for (const bad of ['', '12', '1.2.3', '-1.0', 'a.b']) expect(parseCursor(bad)).toBeUndefined()
  })
})

describe('waitForJob', () => {
  it('returns when the job ends, or when the wait or the caller gives up', async () => {
    const outputs = new OutputStore()
    const table = new JobTable(outputs)
    const sim = simulated(table, outputs)
    const began = Date.now()
    await waitForJob(sim.job, 50)
    expect(sim.job.end).toBeUndefined()
    const aborted = new AbortController()
    const waiting = waitForJob(sim.job, 60_000, aborted.signal)
    aborted.abort()
    await waiting
    const ending = waitForJob(sim.job, 60_000)
    await sim.end(0)
    await ending
    expect(sim.job.status).toBe('completed')
    expect(Date.now() - began).toBeLessThan(30_000)
  })
})
