import type {ErrorCode} from '../../error-codes.js'
import type {CallToolResult} from '@modelcontextprotocol/server'

import type {KeptOutput, OutputStore} from '../records/output-store.js'
import type {JobRecord, JobStatus, OutputStream, SharedRecords} from '../records/state-store.js'

import {finishedOutput, newOutputId} from '../records/output-store.js'
import {forgotten, heldSize, sharingStreams} from './kept-results.js'

// Commands that outlive their call. A call still running at its foreground budget answers with a job handle; the
// command goes on in this server under its own time limit, and job_status, cancel_job and read_output follow it. The
// states are the MCP tasks extension's (working, completed, failed, cancelled), so that once the SDK has tasks they
// can be served from this table by an adapter. With a shared store (--state), every job is mirrored there, so any
// replica can follow it, and a cancellation asked on any replica reaches the one running it.

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
  /** Who started it (an OAuth token's subject): only they can follow or cancel it. */
  principal?: string
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
  end?: Omit<JobEnd, 'streams'>
  /** Resolves when the command has ended (for a job of another replica: at once; it is polled). */
  ended: Promise<void>
  id: string
  /** Set when another replica runs the job: this one only reads it from the shared store. */
  owner?: string
  status: JobStatus
}

/**
 * Finished jobs are kept this long for their status and result, at most MAX_FINISHED_JOBS of each person's and
 * MAX_FINISHED_JOBS_TOTAL in all (past that, the oldest of whoever has the most goes). A finished job's result is held
 * with its output in the output store and counts towards its bounds; when the store lets that output go, the job keeps
 * only its facts (state, exit code, time).
 */
export const JOB_RETENTION_MS = 60 * 60 * 1000
export const MAX_FINISHED_JOBS = 100
export const MAX_FINISHED_JOBS_TOTAL = 1000
/** How often a running job's output, state and lease go to the shared store, and a cancellation is looked for. */
export const MIRROR_MS = 1000

/** A job and its output, or an error result that says why there is none (unknown, forgotten, store unreachable). */
export type Lookup = {job: Job; output?: KeptOutput} | {missing: CallToolResult}

function missing(text: string, code: ErrorCode, id: string): Lookup {
  return {missing: {content: [{text, type: 'text'}], isError: true, structuredContent: {code, job: id}}}
}

const describe = (error: unknown) => (error instanceof Error ? error.message : String(error))

/** The jobs of one server (the call environment owns it); stopping the server stops them. */
export class JobTable {
  private readonly jobs = new Map<string, Job>()
  private readonly stops = new Map<string, () => void>()

  constructor(
    private readonly outputs: OutputStore,
    private readonly shared?: {replica: string; store: SharedRecords},
  ) {
    outputs.onDrop((output) => {
      const job = this.jobs.get(output.id)
      if (job?.end) job.end = {...job.end, result: forgotten(job, outputs)}
    })
  }

  /** Stops a running job's command (here, or through the shared store on the replica running it). */
  async cancel(id: string): Promise<'asked' | 'ended' | 'stopped'> {
    const stop = this.stops.get(id)
    if (stop) {
      stop()
      return 'stopped'
    }

    if (this.jobs.has(id) || !this.shared) return 'ended'
    const found = await this.shared.store.readJob(id)
    if (!found || found.record.status !== 'working' || !found.alive) return 'ended'
    await this.shared.store.requestCancel(id)
    return 'asked'
  }

  /** Stops every running job (the server is stopping). */
  cancelAll(): void {
    for (const stop of this.stops.values()) stop()
  }

  /** Resolves once every job of this server has ended and recorded its end, or after `ms`. */
  async settled(ms: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined
    const all = Promise.all([...this.jobs.values()].map((job) => job.ended.catch(() => {})))
    await Promise.race([all, new Promise((resolve) => (timer = setTimeout(resolve, ms)))])
    clearTimeout(timer)
  }

  /** This server's jobs that `principal` started, newest first, the finished ones past retention forgotten. */
  list(principal?: string): Job[] {
    this.prune()
    return [...this.jobs.values()].filter((job) => job.principal === principal).reverse()
  }

  /**
   * A job of this server, or (with a shared store) of another replica, that `principal` started: someone else's job
   * is answered as one that does not exist.
   */
  async lookup(id: string, principal?: string): Promise<Lookup> {
    this.prune()
    const job = this.jobs.get(id)
    if (job && job.principal === principal) return {job, output: this.outputs.get(id)}
    if (this.shared && !job) {
      try {
        const found = await this.shared.store.readJob(id)
        if (found && found.record.principal === principal) {
          return {job: remoteJob(found.record, found.alive), output: await this.remoteOutput(id, found.record.status === 'working' && found.alive)}
        }
      } catch (error) {
        return missing(`Job "${id}" is not run by this replica, and the shared state store ${this.shared.store.shown} cannot be read: ${describe(error)}`, 'STATE_STORE_UNAVAILABLE', id)
      }
    }

    return this.notFound(id, principal)
  }

  /** The answer for a job `principal` cannot see: the same, whether it never existed or is someone else's. */
  notFound(id: string, principal?: string, followable: (job: Job) => boolean = () => true): Extract<Lookup, {missing: CallToolResult}> {
    const known = this.list(principal).filter(followable).slice(0, 5).map((j) => j.id)
    const where = this.shared ? `in this server or in ${this.shared.store.shown}` : 'in this server'
    const text = `No job "${id}" ${where}: it never existed, finished more than ${JOB_RETENTION_MS / 60_000} minutes ago, or ran in a server process that has since stopped (jobs do not outlive their server).${known.length > 0 ? ` Recent jobs: ${known.join(', ')}.` : ''}`
    return missing(text, 'UNKNOWN_JOB', id) as Extract<Lookup, {missing: CallToolResult}>
  }

  /** Takes over a running command as a job; its output is kept (live) under the job's id. */
  start(start: JobStart): Job {
    this.prune()
    const {end, read, size, stop, ...facts} = start
    const id = newOutputId()
    const live: KeptOutput = {
      command: start.command,
      commandLine: start.commandLine,
      id,
      live: true,
      ...(start.principal === undefined ? {} : {principal: start.principal}),
      get size() {
        return size()
      },
      text: read,
    }
    this.outputs.keep(live)
    this.stops.set(id, stop)
    const job: Job = {...facts, ended: Promise.resolve(), id, status: 'working'}
    const mirrored = this.mirror(job, read, stop)
    job.ended = end.then(async (ended) => {
      this.stops.delete(id)
      const {result: whole, streams, ...rest} = ended
      const result = sharingStreams(whole, streams)
      job.end = {...rest, result}
      job.status = ended.cancelled ? 'cancelled' : whole.isError ? 'failed' : 'completed'
      job.watchers.clear()
      this.outputs.keep(finishedOutput(id, start.commandLine, streams, {command: start.command, held: heldSize(result, streams), principal: start.principal}))
      await mirrored?.finish(streams)
    })
    this.jobs.set(id, job)
    return job
  }

  /**
   * Waits (up to `ms`) for a job to end: this server's by its promise, another replica's by reading the store again
   * every MIRROR_MS. Returns the job as it is then.
   */
  async wait(found: Extract<Lookup, {job: Job}>, ms: number, signal?: AbortSignal): Promise<Lookup> {
    if (!found.job.owner) {
      await waitForJob(found.job, ms, signal)
      return {job: found.job, output: this.outputs.get(found.job.id)}
    }

    const deadline = Date.now() + ms
    let now: Lookup = found
    while ('job' in now && now.job.status === 'working' && Date.now() < deadline && !signal?.aborted) {
      await new Promise((resolve) => setTimeout(resolve, Math.min(MIRROR_MS, deadline - Date.now())))
      now = await this.lookup(found.job.id, found.job.principal)
    }

    return now
  }

  /**
   * Mirrors a job into the shared store while it runs: its output (complete lines) and state every MIRROR_MS, which
   * also renews its lease, and a cancellation asked for on another replica stops it. Store errors are said on stderr
   * once; the job runs on regardless.
   */
  private mirror(job: Job, read: (stream: OutputStream) => string, stop: () => void): undefined | {finish: (streams: Record<OutputStream, string>) => Promise<void>} {
    const {shared} = this
    if (!shared) return undefined
    const record = (): JobRecord => ({
      command: job.command,
      commandLine: job.commandLine,
      cwd: job.cwd,
      id: job.id,
      owner: shared.replica,
      ...(job.principal === undefined ? {} : {principal: job.principal}),
      startedAt: job.startedAt,
      status: job.status,
      timeoutMs: job.timeoutMs,
      ...(job.end ? {end: job.end} : {}),
    })
    let warned = false
    const warn = (error: unknown) => {
      if (warned) return
      warned = true
      process.stderr.write(`[mcp] job ${job.id}: the shared state store ${shared.store.shown} failed (${describe(error)}); other replicas may not see its progress.\n`)
    }

    const sent = {stderr: 0, stdout: 0}
    let busy: Promise<void> | undefined
    const sync = async () => {
      for (const stream of ['stdout', 'stderr'] as const) {
        const text = read(stream)
        if (text.length <= sent[stream]) continue
        await shared.store.appendOutput(job.id, stream, text.slice(sent[stream]), job.principal)
        sent[stream] = text.length
      }

      await shared.store.ownJob(record())
      if (await shared.store.cancelRequested(job.id)) stop()
    }

    const tick = () => {
      busy ??= sync()
        .catch(warn)
        .finally(() => (busy = undefined))
    }

    shared.store.ownJob(record()).catch(warn)
    const timer = setInterval(tick, MIRROR_MS)
    return {
      async finish(streams) {
        clearInterval(timer)
        await busy
        await shared.store.finishJob(record(), streams).catch(warn)
      },
    }
  }

  /**
   * Forgets finished jobs past retention, each person's past MAX_FINISHED_JOBS (their oldest first), and past
   * MAX_FINISHED_JOBS_TOTAL the oldest of whoever has the most: one person's jobs never push out another's who has fewer.
   */
  private prune(): void {
    const now = Date.now()
    const finished = new Map<string | undefined, Job[]>()
    for (const job of this.jobs.values()) {
      if (!job.end) continue
      if (job.startedAt + job.end.durationMs + JOB_RETENTION_MS < now) {
        this.jobs.delete(job.id)
        continue
      }

      finished.set(job.principal, [...(finished.get(job.principal) ?? []), job])
    }

    let total = 0
    for (const jobs of finished.values()) {
      for (const job of jobs.splice(0, Math.max(0, jobs.length - MAX_FINISHED_JOBS))) this.jobs.delete(job.id)
      total += jobs.length
    }

    for (; total > MAX_FINISHED_JOBS_TOTAL; total--) {
      const most = [...finished.values()].sort((a, b) => b.length - a.length)[0]
      this.jobs.delete(most.shift()!.id)
    }
  }

  private async remoteOutput(id: string, live: boolean): Promise<KeptOutput | undefined> {
    const found = await this.shared!.store.readOutput(id)
    if (!found) return undefined
    return {...finishedOutput(id, found.commandLine, found.streams, found), live}
  }
}

/** A job another replica runs (or ran), as its record in the shared store says; one whose replica stopped has failed. */
function remoteJob(record: JobRecord, alive: boolean): Job {
  const job: Job = {...record, ended: Promise.resolve(), watchers: new Set()}
  if (record.status === 'working' && !alive) {
    const text = `The replica that ran this job (${record.owner}) stopped before the job ended; its command ended with it.`
    job.status = 'failed'
    job.end = {cancelled: false, durationMs: Date.now() - record.startedAt, exitCode: null, result: {content: [{text, type: 'text'}], isError: true}}
  }

  return job
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
