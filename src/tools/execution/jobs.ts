import type {CallToolResult} from '@modelcontextprotocol/server'

import type {KeptOutput, OutputStore, OutputStream} from '../records/output-store.js'

import {finishedOutput, newOutputId} from '../records/output-store.js'
import {cutMiddle, fitResult, type KeptRef} from './result-budget.js'

// Commands that outlive their call. A call still running at its foreground budget answers with a job handle; the
// command goes on in this server under its own time limit, and job_status, cancel_job and read_output follow it. The
// states are the MCP tasks extension's (working, completed, failed, cancelled), so that once the SDK has tasks they
// can be served from this table by an adapter.

export type JobStatus = 'cancelled' | 'completed' | 'failed' | 'working'

/** How the command of a job ended: its result (whole; readers get it cut to their budget) and its exit code. */
export interface JobEnd {
  cancelled: boolean
  durationMs: number
  exitCode: null | number
  result: CallToolResult
  /** The whole streams as the model may read them, for read_output. */
  streams: Record<OutputStream, string>
}

/** What executeCommand hands over when a call's foreground budget runs out. */
export interface JobStart {
  command: string
  commandLine: string
  cwd: string
  /** Ends the command (its whole process group); its end then says cancelled. */
  stop: () => void
  /** Resolves when the command has ended (never rejects). */
  end: Promise<JobEnd>
  /** What the command has written so far, as the model may read it. */
  read: (stream: OutputStream) => string
  /** Reads the bytes captured so far (the store's size budget). */
  size: () => number
  startedAt: number
  timeoutMs: number
  /** Where progress of the running command goes: whoever waits on the job adds a reporter here. */
  watchers: Set<(message: string) => void>
}

export interface Job extends Omit<JobStart, 'end' | 'read' | 'size' | 'stop'> {
  /** Set once the command has ended. */
  end?: JobEnd
  /** Resolves when the command has ended. */
  ended: Promise<void>
  id: string
  status: JobStatus
}

/** Finished jobs are kept this long, and at most this many, for their status and result. */
export const JOB_RETENTION_MS = 60 * 60 * 1000
export const MAX_FINISHED_JOBS = 100

/** The job of an id or an error result that says the id is unknown (or forgotten). */
export type Lookup = {job: Job} | {missing: CallToolResult}

/** The jobs of one server (the call environment owns it); stopping the server stops them. */
export class JobTable {
  private readonly jobs = new Map<string, Job>()
  private readonly stops = new Map<string, () => void>()

  constructor(private readonly outputs: OutputStore) {}

  /** Jobs newest first, the finished ones past retention forgotten. */
  list(): Job[] {
    this.prune()
    return [...this.jobs.values()].reverse()
  }

  lookup(id: string): Lookup {
    this.prune()
    const job = this.jobs.get(id)
    if (job) return {job}
    const known = [...this.jobs.keys()].slice(-5).reverse()
    const text = `No job "${id}" in this server: it never existed here, finished more than ${JOB_RETENTION_MS / 60_000} minutes ago, or ran in a server process that has since stopped (jobs do not outlive their server).${known.length > 0 ? ` Recent jobs: ${known.join(', ')}.` : ''}`
    return {missing: {content: [{text, type: 'text'}], isError: true, structuredContent: {code: 'UNKNOWN_JOB', job: id}}}
  }

  /** Stops a running job's command; false when it has already ended. */
  cancel(id: string): boolean {
    const stop = this.stops.get(id)
    stop?.()
    return stop !== undefined
  }

  /** Stops every running job (the server is stopping). */
  cancelAll(): void {
    for (const stop of this.stops.values()) stop()
  }

  /** Takes over a running command as a job; its output is kept (live) under the job's id. */
  start(start: JobStart): Job {
    this.prune()
    const {end, read, size, stop, ...facts} = start
    const id = newOutputId()
    const live: KeptOutput = {
      commandLine: start.commandLine,
      id,
      live: true,
      get size() {
        return size()
      },
      text: read,
    }
    this.outputs.keep(live)
    this.stops.set(id, stop)
    const job: Job = {...facts, ended: Promise.resolve(), id, status: 'working'}
    job.ended = end.then((ended) => {
      this.stops.delete(id)
      job.end = ended
      job.status = ended.cancelled ? 'cancelled' : ended.result.isError ? 'failed' : 'completed'
      job.watchers.clear()
      this.outputs.keep(finishedOutput(id, start.commandLine, ended.streams))
    })
    this.jobs.set(id, job)
    return job
  }

  private prune(): void {
    const now = Date.now()
    const finished = [...this.jobs.values()].filter((job) => job.end)
    for (const [index, job] of finished.entries()) {
      const old = job.startedAt + job.end!.durationMs + JOB_RETENTION_MS < now
      if (old || finished.length - index > MAX_FINISHED_JOBS) this.jobs.delete(job.id)
    }
  }
}

/** Offsets into a job's stdout and stderr, as the opaque cursor job_status hands out: `"<stdout>.<stderr>"`. */
export function parseCursor(cursor: string | undefined): Record<OutputStream, number> | undefined {
  if (cursor === undefined) return {stderr: 0, stdout: 0}
  const match = /^(\d+)\.(\d+)$/.exec(cursor)
  return match ? {stderr: Number(match[2]), stdout: Number(match[1])} : undefined
}

const seconds = (ms: number) => Math.round(ms / 1000)

/** What a job's view says about it, in structuredContent. */
function jobFacts(job: Job) {
  const elapsed = job.end ? job.end.durationMs : Date.now() - job.startedAt
  return {
    command: job.command,
    cwd: job.cwd,
    elapsedSeconds: seconds(elapsed),
    id: job.id,
    startedAt: new Date(job.startedAt).toISOString(),
    status: job.status,
    timeoutSeconds: seconds(job.timeoutMs),
    ...(job.end ? {exitCode: job.end.exitCode} : {}),
  }
}

/** How a reader follows a job: the next call to make. */
function followUp(job: Job, cursor: string): string {
  return `Follow it with job_status {"job": "${job.id}", "cursor": "${cursor}", "wait": 50}; stop it with cancel_job {"job": "${job.id}"}.`
}

/**
 * A job as a tool result fitted to `budget`: while it runs, the output written since `since` (complete lines) and
 * the cursor to read on from; once it has ended, the command's own result. `kept` says where the whole output is.
 */
export function jobView(job: Job, since: Record<OutputStream, number>, budget: number, outputs: OutputStore, links?: KeptRef['links']): CallToolResult {
  const output = outputs.get(job.id)
  const size = {stderr: output?.text('stderr').length ?? 0, stdout: output?.text('stdout').length ?? 0}
  const kept: KeptRef | undefined = output ? {id: job.id, links, size} : undefined
  if (job.end) {
    const how = job.status === 'cancelled' ? 'was cancelled' : job.status === 'failed' ? 'failed' : 'completed'
    const line = `Job ${job.id} ${how} after ${seconds(job.end.durationMs)} s.`
    const result = fitResult(job.end.result, budget - line.length - 2, kept)
    const [first, ...rest] = result.content
    const content = first?.type === 'text' ? [{...first, text: `${line}\n\n${first.text}`}, ...rest] : [{text: line, type: 'text' as const}, ...result.content]
    return {...result, content, structuredContent: {...(result.structuredContent ?? {}), job: jobFacts(job)}}
  }

  const text = (stream: OutputStream) => output?.text(stream).slice(since[stream]) ?? ''
  const fresh = {stderr: text('stderr'), stdout: text('stdout')}
  const cursor = `${since.stdout + fresh.stdout.length}.${since.stderr + fresh.stderr.length}`
  const share = Math.floor((budget - 1500) / (fresh.stderr ? 2 : 1))
  const hint = (stream: OutputStream) => (kept ? ` read_output {"output": "${job.id}", "stream": "${stream}"} reads the whole of it.` : '')
  const shown = {stderr: cutMiddle(fresh.stderr, share, hint('stderr')), stdout: cutMiddle(fresh.stdout, share, hint('stdout'))}
  const lines = [
    `$ ${job.commandLine}`,
    `Job ${job.id} is running (${seconds(Date.now() - job.startedAt)} s so far, in ${job.cwd}). It goes on in this server until it ends or ${seconds(job.timeoutMs)} s have passed in all; if the server stops, it is killed.`,
    followUp(job, cursor),
    '',
    shown.stdout.trim() ? shown.stdout : '(no new output)',
  ]
  if (shown.stderr.trim()) lines.push('', 'On stderr:', shown.stderr)
  return {
    content: [{text: lines.join('\n'), type: 'text'}],
    structuredContent: {cursor, job: jobFacts(job), stderr: shown.stderr, stdout: shown.stdout},
  }
}

/** Waits until the job ends, `ms` pass, or the signal aborts, whichever comes first. */
export async function waitForJob(job: Job, ms: number, signal?: AbortSignal): Promise<void> {
  if (job.end || ms <= 0 || signal?.aborted) return
  let timer: NodeJS.Timeout | undefined
  let onAbort: (() => void) | undefined
  await Promise.race([
    job.ended,
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, ms)
      onAbort = resolve
      signal?.addEventListener('abort', onAbort, {once: true})
    }),
  ])
  clearTimeout(timer)
  if (onAbort) signal?.removeEventListener('abort', onAbort)
}
