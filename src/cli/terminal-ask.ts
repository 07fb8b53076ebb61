import {closeSync, openSync} from 'node:fs'
import {createInterface} from 'node:readline/promises'
import {ReadStream, WriteStream} from 'node:tty'

/** The person's answer to a yes/no question. */
export type TerminalAnswer = 'accept' | 'cancel' | 'decline'

/** The devices of the process's own terminal: `/dev/tty`, or on Windows its console's input and output. */
export function terminalDevices(platform: NodeJS.Platform = process.platform): {input: string; output: string} {
  return platform === 'win32' ? {input: String.raw`\\.\CONIN$`, output: String.raw`\\.\CONOUT$`} : {input: '/dev/tty', output: '/dev/tty'}
}

/**
 * A way to ask the person at this process's controlling terminal (`/dev/tty`, or the Windows console, so it works
 * while standard input is a pipe that carries the arguments), or undefined when there is no terminal to ask at: a
 * script, CI, a service. Only "y" or "yes" accepts; anything else, an empty line included, declines; the end of
 * input cancels.
 */
export function terminalAsker(): ((question: string) => Promise<TerminalAnswer>) | undefined {
  const terminal = openTerminal()
  if (!terminal) return undefined
  return async (question) =>
    terminal(async (ask) => {
      const answer = await ask(`${question} [y/N] `)
      if (answer === null) return 'cancel'
      return /^\s*y(?:es)?\s*$/i.test(answer) ? 'accept' : 'decline'
    })
}

/** What a running command's question asks (an elicitation's parameters): a form of one field `answer`, or a page. */
export interface TerminalForm {
  message: string
  mode?: string
  requestedSchema?: {properties?: Record<string, {default?: unknown; enum?: unknown[]; items?: {enum?: unknown[]}; type?: string}>}
  url?: string
}

export type TerminalFormAnswer = {action: 'accept'; content: Record<string, unknown>} | {action: 'cancel' | 'decline'}

/** A line typed at the terminal: null once its input ends. */
type Ask = (prompt: string) => Promise<null | string>

/** How often a question whose answer does not fit it is asked again before the answer counts as a decline. */
const TRIES = 3

/**
 * A way to ask a running command's questions at this process's terminal (as `terminalAsker`): a choice by its number
 * or its text, several by numbers separated by commas, yes/no, a number, a line of text, each with its default on an
 * empty line; a page to open is shown, and Enter goes on. Undefined where there is no terminal.
 */
export function terminalFormAsker(): ((form: TerminalForm) => Promise<TerminalFormAnswer>) | undefined {
  const terminal = openTerminal()
  if (!terminal) return undefined
  return async (form) => terminal(async (ask) => answerAtTerminal(form, ask))
}

async function answerAtTerminal(form: TerminalForm, ask: Ask): Promise<TerminalFormAnswer> {
  if (form.mode === 'url') {
    const line = await ask(`${form.message}\n  ${form.url}\nOpen it in your browser, then press Enter (n stops the command): `)
    if (line === null) return {action: 'cancel'}
    return /^\s*n(?:o)?\s*$/i.test(line) ? {action: 'decline'} : {action: 'accept', content: {}}
  }

  const field = form.requestedSchema?.properties?.answer ?? {}
  const choices = (field.enum ?? field.items?.enum ?? []).map(String)
  const shown = choices.map((choice, i) => `  ${i + 1}. ${choice}`).join('\n')
  const fallback = field.default === undefined ? '' : ` [${[field.default].flat().join(', ')}]`
  const prompt =
    field.type === 'boolean'
      ? `${form.message} ${field.default === true ? '[Y/n]' : '[y/N]'} `
      : field.type === 'array'
        ? `${form.message}\n${shown}\nNumbers, separated by commas${fallback}: `
        : choices.length > 0
          ? `${form.message}\n${shown}\nNumber${fallback}: `
          : `${form.message}${fallback}: `
  for (let tried = 0; tried < TRIES; tried++) {
    const line = await ask(prompt)
    if (line === null) return {action: 'cancel'}
    const typed = line.trim()
    if (typed === '' && field.default !== undefined) return {action: 'accept', content: {answer: field.default}}
    // A choice's own text first (a choice may be a number), then its position.
    const pick = (word: string) => choices.find((c) => c === word) ?? (/^\d+$/.test(word) ? choices[Number(word) - 1] : undefined)
    let answer: unknown
    if (field.type === 'boolean') answer = /^y(?:es)?$/i.test(typed) ? true : /^no?$/i.test(typed) || typed === '' ? false : undefined
    else if (field.type === 'array') answer = typed === '' ? [] : typed.split(',').map((w) => pick(w.trim()))
    else if (choices.length > 0) answer = pick(typed)
    else if (field.type === 'number' || field.type === 'integer') answer = typed !== '' && Number.isFinite(Number(typed)) ? Number(typed) : undefined
    else answer = line
    if (answer !== undefined && !(Array.isArray(answer) && answer.includes(undefined))) return {action: 'accept', content: {answer}}
  }

  return {action: 'decline'}
}

/** Runs `use` with a way to read lines at the terminal (fresh streams each time, closed after), or undefined if none. */
function openTerminal(): (<T>(use: (ask: Ask) => Promise<T>) => Promise<T>) | undefined {
  const devices = terminalDevices()
  let fd: number
  try {
    fd = openSync(devices.input, 'r+')
  } catch {
    return undefined
  }

  closeSync(fd)
  return async (use) => {
    // One descriptor per stream: each stream closes its own.
    const input = new ReadStream(openSync(devices.input, 'r'))
    const output = new WriteStream(openSync(devices.output, 'w'))
    const lines = createInterface({input, output, terminal: false})
    const closed = new Promise<null>((resolve) => lines.once('close', () => resolve(null)))
    try {
      return await use((prompt) => Promise.race([lines.question(prompt), closed]))
    } finally {
      lines.close()
      input.destroy()
      output.destroy()
    }
  }
}
