/**
 * A question's choices, and a question asked until the command's own check accepts its answer: what every library's
 * adapter (prompt-inquirer.cts, prompt-libraries.cts) shares. Part of the prompt bridge: only Node built-ins.
 */
import {type Options, type Question, send, stopHere} from './prompt-ask.cjs'

export interface Choice {
  label: string
  value: unknown
}

/** How many times a question whose answer the command's own check refused is asked again. */
const MAX_RETRIES = 3

/** A question's choices: the ones a person can pick (separators, disabled entries and headings left out). */
export function choicesOf(list: unknown, labelKeys: string[], valueOf?: (entry: unknown, position: number) => unknown): Choice[] {
  if (!Array.isArray(list)) return []
  const seen = new Map<string, number>()
  const out: Choice[] = []
  for (const [position, entry] of list.entries()) {
    if (entry === null || entry === undefined) continue
    const choice = (typeof entry === 'object' ? entry : {}) as Options
    if (choice.type === 'separator' || choice.disabled || choice.role === 'separator' || choice.role === 'heading') continue
    const raw = typeof entry === 'object' ? (labelKeys.map((key) => choice[key]).find((v) => typeof v === 'string' && v !== '') ?? String(choice.value)) : String(entry)
    // Two choices that read the same would be one field value: the later ones get their position.
    const count = seen.get(raw as string) ?? 0
    seen.set(raw as string, count + 1)
    // The value the library itself would answer with, from the choice as given (its position in the whole list).
    const value = valueOf ? valueOf(entry, position) : typeof entry !== 'object' ? entry : 'value' in choice ? choice.value : raw
    out.push({label: count === 0 ? (raw as string) : `${raw as string} (${count + 1})`, value})
  }

  return out
}

export async function askChoice(base: Omit<Question, 'choices' | 'kind'>, choices: Choice[], many: boolean, defaults: unknown): Promise<unknown> {
  const index = (value: unknown) => choices.findIndex((c) => c.value === value || c.label === value)
  const preset = many ? [defaults].flat().map(index).filter((i) => i >= 0) : typeof defaults === 'number' && !choices.some((c) => c.value === defaults) ? defaults : index(defaults)
  const answer = await send({...base, choices: choices.map((c) => c.label), default: many ? preset : preset === -1 ? undefined : preset, kind: many ? 'checkbox' : 'select'})
  if (many) return (Array.isArray(answer) ? answer : []).map((i) => choices[Number(i)]?.value)
  return choices[Number(answer)]?.value
}

/** Asks until the command's own check accepts the answer (or MAX_RETRIES refusals), as the library would re-prompt. */
export async function checked(ask: (problem?: string) => Promise<unknown>, validate: ((value: unknown) => unknown) | undefined): Promise<unknown> {
  let problem: string | undefined
  for (let attempt = 0; ; attempt++) {
    const value = await ask(problem)
    if (typeof validate !== 'function') return value
    const verdict = await validate(value)
    if (verdict === true || verdict === undefined) return value
    // An answer the command refuses is never given to it: after the last refusal the command ends.
    if (attempt === MAX_RETRIES) {
      process.stderr.write(`oclif-plugin-mcp: the command refused ${MAX_RETRIES + 1} answers in a row; it was ended.\n`)
      stopHere()
    }

    problem = typeof verdict === 'string' ? verdict : 'That answer was not accepted.'
  }
}

/** What the command's own check said of the last answer, asked again with the question (never part of its message). */
export const withProblem = (message: string, problem?: string): {message: string; problem?: string} => (problem ? {message, problem} : {message})
