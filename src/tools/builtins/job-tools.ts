import * as z from 'zod'

import type {CallEnvironment} from '../execution/call-environment.js'

import {jobFacts, jobView, parseCursor} from '../execution/job-view.js'
import type {Job, Lookup} from '../execution/job-table.js'
import type {CallContext} from '../execution/pipeline.js'
import {resultRoom} from '../execution/pipeline.js'
import {errorResult} from '../execution/tool-result.js'
import {visibleRun} from '../exposure/projection.js'
import {type BuiltinScope, type BuiltinTool, builtinTool, jsonResult} from './builtin-tool.js'

/**
 * Whether a caller may follow and cancel a job: one that may only read (an OAuth read scope) sees only jobs of
 * read-only commands, as if the others did not exist; everyone else every job of theirs.
 */
function followable(call: CallEnvironment, context: CallContext): (job: Job) => boolean {
  return (job) => visibleRun(call.boundary, context.readOnly ?? false, job.command)
}

/** The job of `id` for this caller, or why there is none (another person's, or one it may not follow, is unknown). */
async function lookupFor(call: CallEnvironment, context: CallContext, id: string): Promise<Lookup> {
  const found = await call.jobs.lookup(id, context.principal)
  const visible = followable(call, context)
  if ('missing' in found || visible(found.job)) return found
  return call.jobs.notFound(id, context.principal, visible)
}

/** The longest a job_status call waits: below the 60 s after which hosts drop a call. */
export const MAX_WAIT_SECONDS = 50

const jobId = z.string().min(1).max(64).describe('The job id a call answered with.')

/**
 * job_status: a job's state and the output it wrote since a cursor, waiting (up to MAX_WAIT_SECONDS) for it to end
 * when asked; without a job id, the server's recent jobs. Progress notifications flow while it waits.
 */
export function jobStatusTool(): BuiltinTool {
  return builtinTool({
    description: `A call still running after its foreground time answers with a job id: this gives the job's status and output (cursor: only what is new; wait: up to ${MAX_WAIT_SECONDS} s for the end), then the command's result. Without job: recent jobs.`,
    async handler(input, context, call) {
      if (input.job === undefined) {
        const jobs = call.jobs.list(context.principal).filter(followable(call, context)).map((job) => jobFacts(job))
        const running = jobs.filter((job) => job.status === 'working').length
        return jsonResult(jobs.length === 0 ? 'No jobs in this server.' : `${jobs.length} jobs, ${running} running (newest first).`, {jobs})
      }

      const found = await lookupFor(call, context, String(input.job))
      if ('missing' in found) return found.missing
      const since = parseCursor(input.cursor as string | undefined)
      if (!since) return errorResult(`Invalid cursor "${String(input.cursor)}": pass the cursor of an earlier job_status answer ("<stdout offset>.<stderr offset>"), or none for all the output.`)
      const wait = Math.min(Number(input.wait ?? 0), MAX_WAIT_SECONDS)
      const {watchers} = found.job
      if (context.progress) watchers.add(context.progress)
      let now: Lookup
      try {
        now = await call.jobs.wait(found, wait * 1000, context.signal)
      } finally {
        if (context.progress) watchers.delete(context.progress)
      }

      if ('missing' in now) return now.missing
      const {budget, links} = resultRoom(call, context)
      return jobView(now.job, since, budget, now.output, links ? call.outputLinks(now.job.id) : undefined)
    },
    name: 'job_status',
    schema: z.strictObject({
      cursor: z.string().max(64).describe('cursor of the previous answer.').optional(),
      job: jobId.optional(),
      wait: z.number().int().min(0).max(MAX_WAIT_SECONDS).describe('Seconds to wait for the end (default 0).').optional(),
    }),
    title: 'Job status',
  })
}

/** How long cancel_job waits for the command to end after stopping it. */
const CANCEL_WAIT_MS = 10_000

/** cancel_job: stops a running job's command and everything it started. */
export function cancelJobTool({projection}: BuiltinScope): BuiltinTool {
  return builtinTool({
    description: 'Stop a running job and every process it started; work begun may be left half done.',
    async handler(input, context, call) {
      const found = await lookupFor(call, context, String(input.job))
      if ('missing' in found) return found.missing
      let stopped: Awaited<ReturnType<typeof call.jobs.cancel>>
      try {
        stopped = await call.jobs.cancel(found.job.id)
      } catch (error) {
        return errorResult(`Job ${found.job.id} runs on another replica, and the cancellation could not be passed on through the shared state store: ${error instanceof Error ? error.message : String(error)}. Nothing was stopped.`)
      }

      const now = await call.jobs.wait(found, CANCEL_WAIT_MS, context.signal)
      if ('missing' in now) return now.missing
      const {budget, links} = resultRoom(call, context)
      const view = jobView(now.job, {stderr: 0, stdout: 0}, budget, now.output, links ? call.outputLinks(now.job.id) : undefined)
      if (stopped !== 'ended') return view
      const note = `Job ${now.job.id} had already ended (${now.job.status}); nothing was stopped.`
      return {...view, content: [{text: note, type: 'text' as const}, ...view.content], structuredContent: {...(view.structuredContent as Record<string, unknown>), message: note}}
    },
    // Killing a command midway can leave what it was changing half changed; where every command a job can run only
    // reads (--read-only), stopping one destroys nothing.
    hints: {
      destructiveHint: [...projection.executable.values()].some((tool) => !tool.hints.readOnlyHint),
      idempotentHint: true,
      openWorldHint: false,
      readOnlyHint: false,
    },
    name: 'cancel_job',
    schema: z.strictObject({job: jobId}),
    title: 'Cancel a job',
  })
}
