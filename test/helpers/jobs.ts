// Following a call to its end. A server answers a call whose command is still running at its foreground budget with
// a job; how soon that happens depends on how fast the machine is, so a test that needs the command's result waits
// for the job's end (an event) rather than counting on the command beating the budget (a clock).

/** A tool result as the tests read it. */
export interface ToolResult {
  _meta?: Record<string, unknown>
  content: {text?: string; type: string; uri?: string}[]
  isError?: boolean
  structuredContent?: Record<string, any>
}

/** Calls a tool of one server (client, transport and options are the caller's). */
export type CallTool = (name: string, args: Record<string, unknown>) => Promise<ToolResult>

/** The job a result stands for while its command still runs, or undefined (the command's own result, or an error). */
export function runningJob(result: ToolResult): undefined | {id: string; status: string} {
  const job = result.structuredContent?.job as undefined | {id: string; status: string}
  return job?.status === 'working' ? job : undefined
}

/**
 * Asks job_status (each answer waiting up to its 50 s) until the job has ended; returns that answer: the command's
 * result under the job's end line, or an error (an unknown job). Only the test's own timeout bounds the wait.
 */
export async function jobEnd(call: CallTool, id: string): Promise<ToolResult> {
  for (;;) {
    const answer = await call('job_status', {job: id, wait: 50})
    if (!runningJob(answer)) return answer
  }
}

/** The end of a call: its result when the command ended within the foreground budget, else the end of its job. */
export async function settled(call: CallTool, result: ToolResult): Promise<ToolResult> {
  const job = runningJob(result)
  return job ? jobEnd(call, job.id) : result
}
