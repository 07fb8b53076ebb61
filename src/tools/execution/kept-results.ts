import type {CallToolResult} from '@modelcontextprotocol/server'

import type {OutputStore} from '../records/output-store.js'
import type {OutputStream} from '../records/state-store.js'

import {shownSize} from '../records/output-store.js'

// A finished job's result as the job table keeps it: with its output in the output store and counted with it
// (jobs.ts), and what the job answers once the store has let both go.

/**
 * The result with its stdout and stderr in structured content sharing the kept streams' strings where they are the
 * same text (one copy in memory, not two).
 */
export function sharingStreams(result: CallToolResult, streams: Record<OutputStream, string>): CallToolResult {
  const structured = result.structuredContent as Record<string, unknown> | undefined
  if (!structured) return result
  const same = (['stdout', 'stderr'] as const).filter((stream) => structured[stream] === streams[stream] && streams[stream].length > 0)
  if (same.length === 0) return result
  return {...result, structuredContent: {...structured, ...Object.fromEntries(same.map((stream) => [stream, streams[stream]]))}}
}

/** Characters a finished job's result holds beside its kept streams (a stream's string it shares is not counted twice). */
export function heldSize(result: CallToolResult, streams: Record<OutputStream, string>): number {
  let size = 0
  for (const block of result.content) size += block.type === 'text' ? block.text.length : JSON.stringify(block).length
  const structured = result.structuredContent as Record<string, unknown> | undefined
  if (structured) {
    const {stderr, stdout, ...rest} = structured
    size += JSON.stringify(rest).length
    for (const [stream, value] of [['stdout', stdout], ['stderr', stderr]] as const) {
      if (typeof value === 'string' && value !== streams[stream]) size += value.length
    }
  }

  return size
}

/** What a finished job answers once the output store has let its output and result go: its facts, and why. */
export function forgotten(job: {end?: {exitCode: null | number; result: CallToolResult}; id: string}, outputs: OutputStore): CallToolResult {
  const text = `The output and result of job ${job.id} are no longer kept: this server keeps ${shownSize(outputs.maxChars)} of output in all${outputs.perPersonChars < outputs.maxChars ? ` and ${shownSize(outputs.perPersonChars)} of each person's` : ''}, and newer runs took their place. It ended with exit code ${job.end?.exitCode ?? 'none'}; run the command again to see its output.`
  return {content: [{text, type: 'text'}], isError: job.end?.result.isError ?? false, structuredContent: {message: text, outputForgotten: true}}
}
