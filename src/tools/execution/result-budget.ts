import type {CallToolResult, ResourceLink} from '@modelcontextprotocol/server'

import type {OutputStream} from '../records/state-store.js'

// What a result may hold for the model. Hosts budget tool results (Claude Code warns above 10K tokens and stops at
// 25K; Gemini CLI cuts at 40,000 characters) and some show the model JSON.stringify(structuredContent) instead of the
// text, so the text and the structured content must each fit: long output keeps its head and its tail, with a notice
// saying how to read the whole.

/** Characters per token assumed: code, logs and JSON run denser than prose (about 3 to 4), so the lower end. */
export const CHARS_PER_TOKEN = 3

/** Hosts known to cut a result shorter than the token budget would, by their clientInfo name. */
const CLIENT_LIMITS: {chars: number; name: RegExp}[] = [{chars: 40_000, name: /gemini/i}]

/** Room left for the keys and notices around the cut streams of structured content. */
const STRUCTURE_SLACK = 400

/** A result's budget in characters, for this client. */
export function resultBudget(maxResultTokens: number, client?: {name?: string}): number {
  const own = maxResultTokens * CHARS_PER_TOKEN
  const host = CLIENT_LIMITS.find(({name}) => client?.name && name.test(client.name))
  return host ? Math.min(own, host.chars) : own
}

/** Where the whole of a cut output can be read. */
export interface KeptRef {
  id: string
  /** The resource of each stream (resources/read), when the client can be given a resource_link. */
  links?: Record<OutputStream, string>
  size: Record<OutputStream, number>
}

function readHint(kept: KeptRef | undefined, stream: OutputStream): string {
  if (!kept) return ''
  const resource = kept.links ? ` or resources/read ${kept.links[stream]}` : ''
  return ` The whole ${stream} (${kept.size[stream]} characters) is kept: read_output {"output": "${kept.id}", "stream": "${stream}"} reads it in pages${resource}.`
}

/** Where the text block's whole output is: it shows stdout and stderr together, so both are named. */
function textHint(kept: KeptRef | undefined): string {
  if (!kept) return ''
  const resource = kept.links ? ` or resources/read ${kept.links.stdout}` : ''
  return ` The whole output is kept (stdout ${kept.size.stdout} characters, stderr ${kept.size.stderr}): read_output {"output": "${kept.id}"} reads stdout in pages ("stream": "stderr" for stderr)${resource}.`
}

/** The line where a cut is made, saying what is missing (and from where, when the text is the stream itself). */
function cutNotice(omitted: number, from: number | undefined, hint: string): string {
  return `[… ${omitted} characters not shown${from === undefined ? '' : `, from offset ${from}`}.${hint}]`
}

/**
 * `text` in at most `max` characters: its head and its tail (cut at line ends where one is near), with a notice
 * between them that says how much is missing and, when `text` is a whole stream, from which offset (what
 * read_output takes). A text that fits is returned as it is.
 */
export function cutMiddle(text: string, max: number, hint = '', offsets = true): string {
  if (text.length <= max) return text
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
  return `${text.slice(0, head)}\n${notice}\n${text.slice(text.length - tail)}`
}

const jsonLength = (value: unknown) => JSON.stringify(value)?.length ?? 0

/**
 * A string cut so that its JSON form (escapes included) takes at most `max` characters. Escapes can make the JSON
 * form longer than the string, so the cut is tightened until it fits.
 */
function cutForJson(text: string, max: number, hint: string, offsets = true): string {
  let allowed = max
  let cut = cutMiddle(text, allowed, hint, offsets)
  for (let round = 0; round < 8 && jsonLength(cut) > max; round++) {
    allowed = Math.floor(allowed * (max / jsonLength(cut)) * 0.95)
    cut = cutMiddle(text, Math.max(allowed, 0), hint, offsets)
  }

  return cut
}

/** The text block cut: its header lines (command line, exit code, directory) stay whole. */
function fitText(text: string, budget: number, kept: KeptRef | undefined): string {
  if (text.length <= budget) return text
  const lines = text.split('\n')
  const header = `${lines.slice(0, 2).join('\n')}\n`
  return header + cutMiddle(text.slice(header.length), budget - header.length, textHint(kept), false)
}

/** The structured content within the budget: the streams (or a command's JSON answer) cut, the rest kept. */
function fitStructured(structured: Record<string, unknown>, budget: number, kept: KeptRef | undefined): Record<string, unknown> {
  if (jsonLength(structured) <= budget) return structured
  const {data, stderr, stdout, ...rest} = structured
  const fitted: Record<string, unknown> = {...rest, ...(kept ? {output: {id: kept.id, ...kept.size}} : {})}
  // A JSON answer too large to give whole is given as the head and tail of its text; `dataOmitted` says so.
  const out = data === undefined ? (stdout as string | undefined) : JSON.stringify(data, null, 2)
  if (data !== undefined) fitted.dataOmitted = true
  const room = Math.max(0, budget - jsonLength(fitted) - STRUCTURE_SLACK)
  const err = typeof stderr === 'string' ? stderr : undefined
  const errShare = err === undefined ? 0 : out === undefined ? room : Math.min(jsonLength(err), Math.floor(room / 4))
  if (err !== undefined) fitted.stderr = cutForJson(err, errShare, readHint(kept, 'stderr'))
  // Offsets are the stream's own only when the text is the stream (a JSON answer is shown re-indented).
  if (out !== undefined) fitted.stdout = cutForJson(out, room - jsonLength(fitted.stderr ?? ''), readHint(kept, 'stdout'), data === undefined)
  return fitted
}

/** Whether a result needs cutting to fit the budget (its text or its structured content is too long). */
export function overBudget(result: CallToolResult, budget: number): boolean {
  const text = result.content.find((block) => block.type === 'text')
  return (text?.type === 'text' && text.text.length > budget) || jsonLength(result.structuredContent ?? {}) > budget
}

/**
 * A result that fits the budget: its text block and its structured content each cut (see cutMiddle) and each saying
 * where the whole output is kept; with links, a resource_link per stream that has output.
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
