import type {CallToolResult} from '@modelcontextprotocol/server'

import {stripVTControlCharacters} from 'node:util'

import type {RunOutcome} from './child-process.js'

export function errorResult(message: string): CallToolResult {
  return {content: [{text: message, type: 'text'}], isError: true}
}

/** The longest refusal whose text a structured content repeats. */
const MAX_STRUCTURED_MESSAGE = 4000

/**
 * An error result as every host shows it: Claude Code and Codex show their model the JSON of structuredContent and
 * drop the text, so a refusal that carries structured content (a code, the command) says its text there too, first.
 * A command's own failure already says why in `error`.
 */
export function withStructuredMessage(result: CallToolResult): CallToolResult {
  const structured = result.structuredContent as Record<string, unknown> | undefined
  if (!result.isError || !structured || 'message' in structured || 'error' in structured) return result
  const text = result.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('\n')
  const message = text.length <= MAX_STRUCTURED_MESSAGE ? text : `${text.slice(0, MAX_STRUCTURED_MESSAGE - 1)}…`
  return {...result, structuredContent: {message, ...structured}}
}

export interface RunContext {
  argv: readonly string[]
  /** What a person would type, for the text header: `taskbox tasks add …`. */
  commandLine: string
  cwd: string
  id: string
  json: boolean
}

/** A command's `--json` error output can be tens of kilobytes; the model needs the message. */
const MAX_ERROR_TEXT = 2000

/** A lone escape (ESC and one of @ to _) that Node's stripVTControlCharacters leaves, like an APC opener without its end. */
// eslint-disable-next-line no-control-regex
const LONE_ESCAPE = /\u001B[@-Z\\-_]/g

/** Terminal control sequences out: colours, cursor moves, OSC hyperlinks and titles, lone escapes. */
export function stripAnsi(text: string): string {
  return stripVTControlCharacters(text).replaceAll(LONE_ESCAPE, '')
}

/**
 * What oclif itself warns of while it loads a host's plugins, on every run of every command: noise in a tool result.
 * @oclif/core 4 honours OCLIF_DISABLE_LINKED_ESM_WARNING (set for every command), core 3 does not.
 */
const HOST_LOADING_WARNINGS = [
  /\bis a linked ESM module and cannot be auto-transpiled\. Existing compiled source will be used instead\./,
  /\bts-node executable cannot transpile ESM in Node \d+\. Existing compiled source will be used instead\./,
]

/**
 * oclif v1 (@oclif/config) reports a plugin's failing init hook as a Node warning of several lines, on every run of
 * every command of the host (vtex 3.0: its own hook fails to load under v8-compile-cache); Node adds its
 * `--trace-warnings` hint after the first warning of a process.
 */
const V1_HOOK_WARNING = /^\(node:\d+\) \w*(?:Error|Warning):? ?Plugin: [^\n]*\nmodule: @oclif\/config@[^\n]*\ntask: runHook init\nplugin: [^\n]*\nroot: [^\n]*\nSee more details with DEBUG=\*\n(?:\(Use `node --trace-warnings [^\n]*\n)?/gm
/** Node's own note, in a CLI that asks for colour depth, that NO_COLOR gives way to FORCE_COLOR (both set for commands). */
const NODE_COLOR_WARNING = /^\(node:\d+\) Warning: The 'NO_COLOR' env is ignored due to the 'FORCE_COLOR' env being set\.\n?/gm

/**
 * A command's stderr without oclif's own plugin-loading warnings: a `› Warning:` block (its continuation lines
 * included, as oclif wraps it) whose text is one of HOST_LOADING_WARNINGS, oclif v1's report of a failing init hook
 * (V1_HOOK_WARNING) and Node's colour note (NODE_COLOR_WARNING). Anything else stays.
 */
export function withoutHostWarnings(stderr: string): string {
  stderr = stderr.replaceAll(V1_HOOK_WARNING, '').replaceAll(NODE_COLOR_WARNING, '')
  if (!stderr.includes('Existing compiled source will be used instead')) return stderr
  const lines = stderr.split('\n')
  const kept: string[] = []
  for (let i = 0; i < lines.length; i++) {
    if (!/^\s*(?:›\s+)?Warning: /.test(lines[i])) {
      kept.push(lines[i])
      continue
    }

    let end = i + 1
    // Continuation lines are indented under the `›`; one that starts another message (an Error, its Code) is not.
    while (end < lines.length && /^\s*›\s{2,}\S/.test(lines[end]) && !/^\s*›\s+(?:Warning|Error|Code|Reference|Try this)\b[^:]*:/.test(lines[end])) end++
    const text = lines.slice(i, end).map((line) => line.replace(/^\s*›?\s*/, '')).join(' ').replaceAll(/\s+/g, ' ')
    if (!HOST_LOADING_WARNINGS.some((warning) => warning.test(text))) kept.push(...lines.slice(i, end))
    i = end - 1
  }

  return kept.join('\n')
}

/** Parses a command's `--json` output; tolerates noise printed before it (another plugin's hook, a warning). */
export function parseJsonOutput(stdout: string): {ok: true; value: unknown} | {ok: false} {
  const text = stdout.trim()
  if (!text) return {ok: false}
  try {
    return {ok: true, value: JSON.parse(text)}
  } catch {
    const start = text.search(/^[[{]/m)
    if (start <= 0) return {ok: false}
    try {
      return {ok: true, value: JSON.parse(text.slice(start))}
    } catch {
      return {ok: false}
    }
  }
}

/**
 * The message of an oclif (`{error: {message}}`) or Salesforce-style (`{status, message}`) JSON error, and the exit
 * code the command asked for (oclif's `error.oclif.exit`), which oclif 4 does not use as the process's exit code
 * when it prints the error as JSON: the process exits 1 whatever the command asked for.
 */
function jsonErrorOf(value: unknown): {code?: string; exit?: number; message: string} | undefined {
  if (value === null || typeof value !== 'object') return undefined
  const record = value as Record<string, unknown>
  const error = (record.error && typeof record.error === 'object' ? record.error : record) as Record<string, unknown>
  if (typeof error.message !== 'string') return undefined
  const code = typeof error.code === 'string' ? error.code : typeof error.name === 'string' && error.name !== 'Error' ? error.name : undefined
  const exit = (error.oclif as {exit?: unknown} | undefined)?.exit
  return {code, message: error.message, ...(Number.isInteger(exit) ? {exit: exit as number} : {})}
}

function tail(text: string, max: number): string {
  const trimmed = text.trim()
  return trimmed.length <= max ? trimmed : `…${trimmed.slice(-max)}`
}

function truncationNotice(outcome: RunOutcome): string | undefined {
  const parts: string[] = []
  if (outcome.stdoutDropped > 0) parts.push(`${outcome.stdoutDropped} bytes of stdout`)
  if (outcome.stderrDropped > 0) parts.push(`${outcome.stderrDropped} bytes of stderr`)
  return parts.length > 0 ? `[output truncated: ${parts.join(' and ')} not shown]` : undefined
}

function failureHeadline(outcome: RunOutcome, limitMs: number): string | undefined {
  if (outcome.spawnError) return `Could not start the command: ${outcome.spawnError}`
  if (outcome.timedOut) return `Timed out after ${Math.round(limitMs / 1000)} s; the command and everything it started were killed.`
  if (outcome.cancelled) return 'Cancelled; the command and everything it started were killed.'
  if (outcome.signal) return `The command was killed by ${outcome.signal}.`
  if (outcome.exitCode !== 0) return `The command failed with exit code ${outcome.exitCode}.`
  return undefined
}

/** Run outcome → CallToolResult: text for the model, structuredContent for programs, isError when it failed. */
export function toToolResult(outcome: RunOutcome, context: RunContext, timeoutMs: number): CallToolResult {
  const stdout = stripAnsi(outcome.stdout)
  const stderr = stripAnsi(outcome.stderr)
  const parsed = context.json ? parseJsonOutput(stdout) : ({ok: false} as const)
  const failure = failureHeadline(outcome, timeoutMs)
  const jsonError = failure && parsed.ok ? jsonErrorOf(parsed.value) : undefined
  const notice = truncationNotice(outcome)

  const structured: Record<string, unknown> = {
    argv: context.argv,
    command: context.id,
    cwd: context.cwd,
    durationMs: outcome.durationMs,
    exitCode: outcome.exitCode ?? null,
  }
  if (outcome.signal) structured.signal = outcome.signal
  if (outcome.timedOut) structured.timedOut = true
  if (outcome.cancelled) structured.cancelled = true
  // The exit code the command asked for, when the process's own exit code says otherwise.
  const askedExit = jsonError?.exit !== undefined && jsonError.exit !== outcome.exitCode ? jsonError.exit : undefined
  if (failure) {
    structured.error = {message: jsonError?.message ?? failure, ...(jsonError?.code ? {code: jsonError.code} : {}), ...(askedExit === undefined ? {} : {exit: askedExit})}
  }

  // JSON that is not an error object (a test report, a partial result) is still the command's answer.
  if (parsed.ok && !jsonError) structured.data = parsed.value
  if (!parsed.ok && stdout.trim()) structured.stdout = stdout
  if (stderr.trim()) structured.stderr = failure ? tail(stderr, MAX_ERROR_TEXT) : stderr
  if (notice) structured.truncated = {stderrBytes: outcome.stderrDropped, stdoutBytes: outcome.stdoutDropped}

  const exit = outcome.exitCode === undefined ? 'no exit code' : `exit ${outcome.exitCode}`
  const lines = [`$ ${context.commandLine}`, `(${exit}, ${outcome.durationMs} ms, in ${context.cwd})`, '']
  if (failure) {
    lines.push(askedExit === undefined ? failure : `${failure.slice(0, -1)} (the command's error asks for exit code ${askedExit}).`)
    if (jsonError) lines.push(`Error${jsonError.code ? ` ${jsonError.code}` : ''}: ${tail(jsonError.message, MAX_ERROR_TEXT)}`)
    else if (stderr.trim()) lines.push(tail(stderr, MAX_ERROR_TEXT))
    if (!jsonError && stdout.trim()) lines.push('', 'Output before the failure:', tail(stdout, MAX_ERROR_TEXT))
  } else if (parsed.ok) {
    lines.push('```json', JSON.stringify(parsed.value, null, 2), '```')
  } else {
    lines.push(stdout.trim() || (stderr.trim() ? '(nothing on stdout)' : '(no output)'))
  }

  // What the command printed on stderr is part of its answer (some answer only there: `config autocorrect status`).
  if (!failure && stderr.trim()) lines.push('', 'On stderr:', tail(stderr, MAX_ERROR_TEXT))

  if (notice) lines.push('', notice)
  const result: CallToolResult = {content: [{text: lines.join('\n'), type: 'text'}], structuredContent: structured}
  if (failure) result.isError = true
  return result
}
