import type {CallToolResult} from '@modelcontextprotocol/server'

import type {KeptOutput} from '../records/output-store.js'
import type {OutputStream} from '../records/state-store.js'
import type {Job} from './job-table.js'

import {callText, cutMiddle, fitResult, type KeptRef, type NextCall, readCall} from './result-budget.js'

// What a reader sees of a job: its facts, the output since a cursor while it runs, its own result once it ended, all
// within the reader's result budget.

/** Offsets into a job's stdout and stderr, as the opaque cursor job_status hands out: `"<stdout>.<stderr>"`. */
export function parseCursor(cursor: string | undefined): Record<OutputStream, number> | undefined {
  if (cursor === undefined) return {stderr: 0, stdout: 0}
  const match = /^(\d+)\.(\d+)$/.exec(cursor)
  return match ? {stderr: Number(match[2]), stdout: Number(match[1])} : undefined
}

const seconds = (ms: number) => Math.round(ms / 1000)

/** What a job's view says about it, in structuredContent. */
export function jobFacts(job: Job) {
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

/** The calls that follow a running job from `cursor` (waiting up to 50 s for its end) and that stop it. */
function followCalls(job: Job, cursor: string): {cancel: NextCall; next: NextCall} {
  return {cancel: {arguments: {job: job.id}, tool: 'cancel_job'}, next: {arguments: {job: job.id, cursor, wait: 50}, tool: 'job_status'}}
}

/**
 * A job as a tool result fitted to `budget`: while it runs, the output written since `since` (complete lines) and
 * the cursor to read on from; once it has ended, the command's own result. `kept` says where the whole output is.
 */
export function jobView(job: Job, since: Record<OutputStream, number>, budget: number, output: KeptOutput | undefined, links?: KeptRef['links']): CallToolResult {
  const size = {stderr: output?.text('stderr').length ?? 0, stdout: output?.text('stdout').length ?? 0}
  const kept: KeptRef | undefined = output ? {id: job.id, links, size} : undefined
  if (job.end) {
    const how = job.status === 'cancelled' ? 'was cancelled' : job.status === 'failed' ? 'failed' : 'completed'
    const line = `Job ${job.id} ${how} after ${seconds(job.end.durationMs)} s.`
    const result = fitResult(job.end.result, budget - line.length - 2, kept)
    const [first, ...rest] = result.content
    const content = first?.type === 'text' ? [{...first, text: `${line}\n\n${first.text}`}, ...rest] : [{text: line, type: 'text' as const}, ...result.content]
    return {...result, content, structuredContent: {message: line, ...(result.structuredContent ?? {}), job: jobFacts(job)}}
  }

  const text = (stream: OutputStream) => output?.text(stream).slice(since[stream]) ?? ''
  const fresh = {stderr: text('stderr'), stdout: text('stdout')}
  const cursor = `${since.stdout + fresh.stdout.length}.${since.stderr + fresh.stderr.length}`
  const share = Math.floor((budget - 1500) / (fresh.stderr ? 2 : 1))
  const hint = (stream: OutputStream) => (kept ? ` ${callText(readCall(job.id, stream))} reads the whole of it.` : '')
  const shown = {stderr: cutMiddle(fresh.stderr, share, hint('stderr')), stdout: cutMiddle(fresh.stdout, share, hint('stdout'))}
  const {cancel, next} = followCalls(job, cursor)
  // Said the same way in the text and in the structured content: some hosts show their model only the one.
  const message = `Job ${job.id} is running (${seconds(Date.now() - job.startedAt)} s so far, in ${job.cwd}). It goes on in this server until it ends or ${seconds(job.timeoutMs)} s have passed in all; if the server stops, it is killed. Follow it with ${callText(next)}; stop it with ${callText(cancel)}.`
  const lines = [
    `$ ${job.commandLine}`,
    message,
    '',
    shown.stdout.trim() ? shown.stdout : '(no new output)',
  ]
  if (shown.stderr.trim()) lines.push('', 'On stderr:', shown.stderr)
  return {
    content: [{text: lines.join('\n'), type: 'text'}],
    structuredContent: {message, next, cancel, cursor, job: jobFacts(job), stderr: shown.stderr, stdout: shown.stdout},
  }
}
