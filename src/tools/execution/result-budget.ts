import type {CallToolResult, ResourceLink} from '@modelcontextprotocol/server'

import type {OutputStream} from '../records/state-store.js'

// Fitting a result to what the model may see: its budget for the host (resultBudget, settings/agent-hosts.ts); Claude
// Code and Codex show the model JSON.stringify(structuredContent) instead of
// the text, so the text and the structured content must each fit: long output keeps its head and its tail, with a
// notice saying how to read the whole, first in what the model sees.

/** Room left for the keys and notices around the cut streams of structured content. */
const STRUCTURE_SLACK = 400

/** Where the whole of a cut output can be read. */
export interface KeptRef {
  id: string
  /** The resource of each stream (resources/read), when the client can be given a resource_link. */
  links?: Record<OutputStream, string>
  size: Record<OutputStream, number>
}

/** A call the model can make as it stands: the tool and its arguments (hosts show the model structuredContent only). */
export interface NextCall {
  arguments: Record<string, unknown>
  tool: string
}

/** A call written out the way the text blocks name calls: `read_output {"output": "abc"}`. */
export function callText(call: NextCall): string {
  return `${call.tool} ${JSON.stringify(call.arguments).replaceAll(/":(?=\S)/g, '": ').replaceAll(/,"/g, ', "')}`
}

/** The read_output call that reads a kept stream on from `offset`. */
export function readCall(id: string, stream: OutputStream, offset = 0): NextCall {
  return {arguments: {output: id, stream, ...(offset > 0 ? {offset} : {})}, tool: 'read_output'}
}

function readHint(kept: KeptRef | undefined, stream: OutputStream): string {
  if (!kept) return ''
  const resource = kept.links ? ` or resources/read ${kept.links[stream]}` : ''
  return ` The whole ${stream} (${kept.size[stream]} characters) is kept: ${callText(readCall(kept.id, stream))} reads it in pages${resource}.`
}

/** Where the text block's whole output is: it shows stdout and stderr together, so both are named. */
function textHint(kept: KeptRef | undefined): string {
  if (!kept) return ''
  const resource = kept.links ? ` or resources/read ${kept.links.stdout}` : ''
  return ` The whole output is kept (stdout ${kept.size.stdout} characters, stderr ${kept.size.stderr}): ${callText(readCall(kept.id, 'stdout'))} reads stdout in pages ("stream": "stderr" for stderr)${resource}.`
}

/** The line where a cut is made, saying what is missing (and from where, when the text is the stream itself). */
function cutNotice(omitted: number, from: number | undefined, hint: string): string {
  return `[… ${omitted} characters not shown${from === undefined ? '' : `, from offset ${from}`}.${hint}]`
}

/** A text cut in its middle: the result, and where the part not shown begins in the text (`resume`). */
interface Cut {
  resume: number
  text: string
}

function cutParts(text: string, max: number, hint: string, offsets: boolean): Cut {
  const sample = cutNotice(text.length, offsets ? text.length : undefined, hint)
  const room = Math.max(0, max - sample.length - 2)
  let head = Math.floor(room * 0.6)
  let tail = room - head
  // Prefer whole lines: move each cut back to a line end within a tenth of its share.
  const headEnd = text.lastIndexOf('\n', head)
  if (headEnd > head * 0.9) head = headEnd + 1
  const tailStart = text.indexOf('\n', text.length - tail)
  if (tailStart !== -1 && text.length - tailStart - 1 > tail * 0.9) tail = text.length - tailStart - 1
  const notice = cutNotice(text.length - head - tail, offsets ? head : undefined, hint)
  return {resume: head, text: `${text.slice(0, head)}\n${notice}\n${text.slice(text.length - tail)}`}
}

/**
 * `text` in at most `max` characters: its head and its tail (cut at line ends where one is near), with a notice
 * between them that says how much is missing and, when `text` is a whole stream, from which offset (what
 * read_output takes). A text that fits is returned as it is.
 */
export function cutMiddle(text: string, max: number, hint = '', offsets = true): string {
  return text.length <= max ? text : cutParts(text, max, hint, offsets).text
}

/** The size of a value as hosts that show JSON count it: the bytes of its JSON (Codex counts bytes, others characters). */
const jsonLength = (value: unknown) => Buffer.byteLength(JSON.stringify(value) ?? '')

/**
 * A string cut so that its JSON form (escapes included) takes at most `max` bytes. Escapes and multi-byte characters
 * make the JSON form longer than the string, so the cut is tightened until it fits.
 */
function cutForJson(text: string, max: number, hint: string, offsets = true): Cut | undefined {
  if (jsonLength(text) <= max) return undefined
  let allowed = Math.min(max, text.length)
  let cut = cutParts(text, allowed, hint, offsets)
  for (let round = 0; round < 8 && jsonLength(cut.text) > max; round++) {
    allowed = Math.floor(allowed * (max / jsonLength(cut.text)) * 0.95)
    cut = cutParts(text, Math.max(allowed, 0), hint, offsets)
  }

  return cut
}

/** The line a cut result starts with, in its text and in its structured content: what is missing, and the call that reads it. */
function cutSummary(kept: KeptRef | undefined, shown: string): string {
  if (!kept) return `Cut to fit what the host shows: ${shown}.`
  return `Cut to fit what the host shows: ${shown}; the whole output is kept (stdout ${kept.size.stdout} characters, stderr ${kept.size.stderr}).`
}

/** The text block cut: its header lines (command line, exit code, directory) stay whole, the notice comes next. */
function fitText(text: string, budget: number, kept: KeptRef | undefined): string {
  if (text.length <= budget) return text
  const lines = text.split('\n')
  const header = `${lines.slice(0, 2).join('\n')}\n`
  const notice = `[${cutSummary(kept, 'the head and the tail of the output are shown below')}${kept ? ` Read the rest with ${callText(readCall(kept.id, 'stdout'))} (and "stream": "stderr").` : ''}]\n`
  return header + notice + cutMiddle(text.slice(header.length), budget - header.length - notice.length, textHint(kept), false)
}

/**
 * The structured content within the budget: the streams (or a command's JSON answer) cut, the rest kept; first of
 * all `cut`, saying what is missing and the exact read_output calls that read on where each stream was cut.
 */
function fitStructured(structured: Record<string, unknown>, budget: number, kept: KeptRef | undefined): Record<string, unknown> {
  if (jsonLength(structured) <= budget) return structured
  const {data, stderr, stdout, ...rest} = structured
  // A JSON answer too large to give whole is given as the head and tail of its text; `dataOmitted` says so.
  const out = data === undefined ? (stdout as string | undefined) : JSON.stringify(data, null, 2)
  const err = typeof stderr === 'string' ? stderr : undefined
  const read: NextCall[] = []
  const placeholder = {cut: {message: cutSummary(kept, 'the head and the tail of stdout and stderr'), read: [readCall('x'.repeat(64), 'stdout', 1e9), readCall('x'.repeat(64), 'stderr', 1e9)]}}
  const fitted: Record<string, unknown> = {...rest, ...(kept ? {output: {id: kept.id, ...kept.size}} : {}), ...(data === undefined ? {} : {dataOmitted: true})}
  const room = Math.max(0, budget - jsonLength({...placeholder, ...fitted}) - STRUCTURE_SLACK)
  const errShare = err === undefined ? 0 : out === undefined ? room : Math.min(jsonLength(err), Math.floor(room / 4))
  const shown: string[] = []
  if (err !== undefined) {
    const cut = cutForJson(err, errShare, readHint(kept, 'stderr'))
    fitted.stderr = cut?.text ?? err
    if (cut) {
      shown.push('stderr')
      if (kept) read.push(readCall(kept.id, 'stderr', cut.resume))
    }
  }

  if (out !== undefined) {
    // Offsets are the stream's own only when the text is the stream (a JSON answer is shown re-indented).
    const cut = cutForJson(out, room - jsonLength(fitted.stderr ?? ''), readHint(kept, 'stdout'), data === undefined)
    fitted.stdout = cut?.text ?? out
    if (cut) {
      shown.unshift(data === undefined ? 'stdout' : 'the JSON answer')
      if (kept) read.unshift(readCall(kept.id, 'stdout', data === undefined ? cut.resume : 0))
    }
  }

  const what = shown.length > 0 ? `only the head and the tail of ${shown.join(' and ')} are shown` : 'parts are not shown'
  const message = `${cutSummary(kept, what)}${read.length > 0 ? ` Read on with ${read.map((call) => callText(call)).join(', then ')}.` : ''}`
  return {cut: {message, read}, ...fitted}
}

/** Whether a result needs cutting to fit the budget (its text or its structured content is too long). */
export function overBudget(result: CallToolResult, budget: number): boolean {
  const text = result.content.find((block) => block.type === 'text')
  return (text?.type === 'text' && text.text.length > budget) || jsonLength(result.structuredContent ?? {}) > budget
}

/**
 * A result that fits the budget: its text block and its structured content each cut (see cutMiddle), each saying
 * first what is missing and how to read it; with links, a resource_link per stream that has output.
 */
export function fitResult(result: CallToolResult, budget: number, kept?: KeptRef): CallToolResult {
  if (!overBudget(result, budget)) return result
  const content = result.content.map((block) => (block.type === 'text' ? {...block, text: fitText(block.text, budget, kept)} : block))
  if (kept?.links) {
    for (const stream of ['stdout', 'stderr'] as const) {
      if (kept.size[stream] === 0) continue
      const link: ResourceLink = {description: `The whole ${stream} of this run`, mimeType: 'text/plain', name: `${stream} of ${kept.id}`, type: 'resource_link', uri: kept.links[stream]}
      content.push(link)
    }
  }

  const structured = result.structuredContent && fitStructured(result.structuredContent as Record<string, unknown>, budget, kept)
  return {...result, content, ...(structured ? {structuredContent: structured} : {})}
}
