import * as z from 'zod'

import type {CallEnvironment} from '../execution/call-environment.js'

import {resultRoom} from '../execution/pipeline.js'
import {errorResult} from '../execution/tool-result.js'
import {OUTPUT_STREAMS, type OutputStream} from '../records/state-store.js'
import {type BuiltinTool, builtinTool} from './builtin-tool.js'

/** Room a page leaves for its header and structured fields within the result budget. */
const PAGE_OVERHEAD = 1000

/**
 * read_output: a page of a kept output (a result that was cut to the model's budget, or a job's), by character
 * offset, for clients that cannot read resources.
 */
export function readOutputTool(call: CallEnvironment): BuiltinTool {
  return builtinTool({
    description:
      'Read the whole output of a cut result or a job, a page at a time: the output id it names, the offset the previous page gives.',
    async handler(input, context) {
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

      if (!output) {
        return {
          ...errorResult(`No output "${id}" is kept in this server: it was never kept here, has been evicted to make room for newer ones, or belonged to a server process that has since stopped.`),
          structuredContent: {code: 'UNKNOWN_OUTPUT', output: id},
        }
      }

      const stream = (input.stream as OutputStream | undefined) ?? 'stdout'
      const text = output.text(stream)
      const {budget} = resultRoom(call, context)
      const page = Math.max(1, budget - PAGE_OVERHEAD)
      // The page is split between the text block and structuredContent (hosts show one or the other): each fits.
      const length = Math.min(Number(input.length ?? page), page)
      const offset = Math.min(Number(input.offset ?? 0), text.length)
      const slice = text.slice(offset, offset + length)
      const end = offset + slice.length
      const nextOffset = end < text.length ? end : null
      const growing = output.live ? ' (the job is still running: more may come)' : ''
      const next = nextOffset === null ? `That is the end${growing}.` : `Next page: read_output {"output": "${id}", "stream": "${stream}", "offset": ${nextOffset}}.`
      const header = `[${stream} of ${output.commandLine}: characters ${offset}–${end} of ${text.length}. ${next}]`
      return {
        content: [{text: `${header}\n${slice}`, type: 'text'}],
        structuredContent: {live: output.live, nextOffset, offset, output: id, stream, text: slice, total: text.length},
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
