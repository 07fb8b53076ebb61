import * as z from 'zod'


import {resultRoom} from '../execution/pipeline.js'
import {visibleRun} from '../exposure/projection.js'
import {callText, readCall} from '../execution/result-budget.js'
import {errorResult} from '../execution/tool-result.js'
import {OUTPUT_STREAMS, type OutputStream} from '../records/state-store.js'
import {type BuiltinTool, builtinTool} from './builtin-tool.js'

/** Room a page leaves for its header and structured fields within the result budget. */
const PAGE_OVERHEAD = 1000

/**
 * `length` characters of `text` from `offset`, or the most of them whose JSON (escapes and wide characters make it
 * longer than the text) takes at most `room` bytes, so every page is as full as the budget allows.
 */
function pageOf(text: string, offset: number, length: number, room: number): string {
  const slice = text.slice(offset, offset + length)
  const fits = (n: number) => Buffer.byteLength(JSON.stringify(slice.slice(0, n))) <= room
  if (fits(slice.length)) return slice
  let [low, high] = [0, slice.length]
  while (low < high) {
    const middle = Math.ceil((low + high) / 2)
    if (fits(middle)) low = middle
    else high = middle - 1
  }

  return slice.slice(0, low)
}

/**
 * read_output: a page of a kept output (a result that was cut to the model's budget, or a job's), by character
 * offset, for clients that cannot read resources.
 */
export function readOutputTool(): BuiltinTool {
  return builtinTool({
    description:
      'Read the whole output of a cut result or a job, a page at a time: the output id it names, the offset the previous page gives.',
    async handler(input, context, call) {
      const id = String(input.output)
      let output
      try {
        output = await call.outputs.find(id, context.principal)
      } catch (error) {
        return {
          ...errorResult(`Output "${id}" is not kept by this replica, and the shared state store cannot be read: ${error instanceof Error ? error.message : String(error)}`),
          structuredContent: {code: 'STATE_STORE_UNAVAILABLE', output: id},
        }
      }

      // A run one may not see (a writing command's, for a request that may only read) is answered as one never kept.
      if (!output || !visibleRun(call.boundary, context.readOnly ?? false, output.command)) {
        return {
          ...errorResult(`No output "${id}" is kept in this server: it was never kept here, has been evicted to make room for newer ones, or belonged to a server process that has since stopped.`),
          structuredContent: {code: 'UNKNOWN_OUTPUT', output: id},
        }
      }

      const stream = (input.stream as OutputStream | undefined) ?? 'stdout'
      const text = output.text(stream)
      // A page is as long as the host keeps in front of its model (the budget is the host's: settings/agent-hosts.ts).
      const {budget} = resultRoom(call, context)
      const page = Math.max(1, budget - PAGE_OVERHEAD)
      // The page is in the text block and in structuredContent (hosts show one or the other): each fits.
      const length = Math.min(Number(input.length ?? page), page)
      const offset = Math.min(Number(input.offset ?? 0), text.length)
      const slice = pageOf(text, offset, length, page)
      const end = offset + slice.length
      const nextOffset = end < text.length ? end : null
      const growing = output.live ? ' (the job is still running: more may come)' : ''
      const next = nextOffset === null ? null : readCall(id, stream, nextOffset)
      const message = `${stream} of ${output.commandLine}: characters ${offset}–${end} of ${text.length}. ${next ? `Next page: ${callText(next)}.` : `That is the end${growing}.`}`
      return {
        content: [{text: `[${message}]\n${slice}`, type: 'text'}],
        structuredContent: {message, next, live: output.live, nextOffset, offset, output: id, stream, text: slice, total: text.length},
      }
    },
    name: 'read_output',
    schema: z.strictObject({
      length: z.number().int().min(1).describe('Characters (default and most: what one result holds).').optional(),
      offset: z.number().int().min(0).describe('Default 0.').optional(),
      output: z.string().min(1).max(64).describe('The output id.'),
      stream: z.enum(OUTPUT_STREAMS as [OutputStream, ...OutputStream[]]).describe('Default stdout.').optional(),
    }),
    title: 'Read a command output',
  })
}
