import type {ElicitRequestFormParams, InputRequiredResult} from '@modelcontextprotocol/server'

import type {CommandTool} from '../catalog/registry.js'
import type {CommandQuestion, QuestionReply} from './prompt-channel.js'

import {isSecretName, SECRET_TEXT} from '../catalog/secret-names.js'

// A running command's questions during one call (prompt-bridge.cts catches them, prompt-channel.ts carries them):
// each becomes a form the person answers through the client, or the command is ended, with a result that says why
// and how to run it without the question. The bounds are here.

/** Questions one call may ask; the next one ends the command (a command that keeps asking is not waiting for a person). */
export const MAX_QUESTIONS = 20
/** How long a question waits for the person's answer before the command is ended (its slot and process freed). */
export const QUESTION_WAIT_MS = 10 * 60_000

/** The form property the answer comes in. */
export const ANSWER = 'answer'

/** What the person did with a question, or (2026-07-28) the round that asks it. */
export type PromptOutcome = {content: Record<string, unknown>} | {pending: InputRequiredResult} | {refused: 'cancel' | 'decline'} | {unanswered: string}

/** A question as a form (elicitation, form mode): one field of the question's own type. */
export type FormElicitation = Pick<ElicitRequestFormParams, 'message' | 'requestedSchema'> & {mode?: 'form'}
/** What the person is asked: a form of one field, or (a page the command opens) a URL to open. */
export type QuestionForm = FormElicitation | {message: string; mode: 'url'; url: string}
type Field = FormElicitation['requestedSchema']['properties'][string]

/** Why a command's question ended it. */
export type StopReason = 'background' | 'cancelled' | 'declined' | 'nobody' | 'secret' | 'too-many' | 'unanswered'

/** The form that asks `question` of the person, saying which command asks it. */
export function formOf(question: CommandQuestion, asker: string): QuestionForm {
  if (question.kind === 'url') return {message: `${asker} opens a page for you: ${question.message}`, mode: 'url', url: question.url ?? ''}
  const {choices = [], kind} = question
  const fallback = typeof question.default === 'number' ? question.default : undefined
  let field: Field
  switch (kind) {
    case 'confirm': {
      field = {default: question.default === true, title: 'Yes', type: 'boolean'}
      break
    }

    case 'number': {
      field = {title: 'Number', type: 'number', ...(typeof question.default === 'number' ? {default: question.default} : {})}
      break
    }

    case 'select': {
      field = {enum: choices, title: 'Choice', type: 'string', ...(fallback !== undefined && choices[fallback] !== undefined ? {default: choices[fallback]} : {})}
      break
    }

    case 'checkbox': {
      const picked = Array.isArray(question.default) ? question.default.map((i) => choices[Number(i)]).filter((c) => c !== undefined) : []
      field = {items: {enum: choices, type: 'string'}, title: 'Choices', type: 'array', ...(picked.length > 0 ? {default: picked} : {})}
      break
    }

    default: {
      field = {title: 'Answer', type: 'string', ...(typeof question.default === 'string' || typeof question.default === 'number' ? {default: String(question.default)} : {})}
    }
  }

  const message = `${asker} asks: ${question.problem ? `${question.problem}\n` : ''}${question.message}`
  return {message, requestedSchema: {properties: {[ANSWER]: field}, required: kind === 'text' ? [] : [ANSWER], type: 'object'}}
}

/** The answer the command gets from the form's content, or undefined when the content does not answer the question. */
export function answerFrom(question: CommandQuestion, content: Record<string, unknown>): {value: unknown} | undefined {
  const given = content[ANSWER]
  const choices = question.choices ?? []
  switch (question.kind) {
    case 'url': {
      return {value: true}
    }

    case 'confirm': {
      return typeof given === 'boolean' ? {value: given} : given === 'true' || given === 'false' ? {value: given === 'true'} : undefined
    }

    case 'number': {
      const n = typeof given === 'number' ? given : typeof given === 'string' && given.trim() !== '' ? Number(given) : Number.NaN
      return Number.isFinite(n) ? {value: n} : undefined
    }

    case 'select': {
      const at = choices.indexOf(String(given))
      return at === -1 ? undefined : {value: at}
    }

    case 'checkbox': {
      const list = Array.isArray(given) ? given.map((g) => choices.indexOf(String(g))) : []
      return list.includes(-1) || !Array.isArray(given) ? undefined : {value: list}
    }

    default: {
      if (given === undefined || given === '') return {value: typeof question.default === 'string' ? question.default : ''}
      return typeof given === 'string' || typeof given === 'number' ? {value: String(given)} : undefined
    }
  }
}

/** A question that asks for a secret: a password prompt, or one whose words or answer's name say so. */
export function asksForSecret(question: CommandQuestion): boolean {
  if (question.kind === 'secret') return true
  if (question.kind !== 'text') return false
  // Any word of the question that names a secret makes it one: a question wrongly taken for a secret ends the command
  // and names the flags instead; a secret wrongly taken for a question would go through the client.
  return (question.name !== undefined && isSecretName(question.name)) || isSecretName(question.message) || SECRET_TEXT.test(question.message.replace(/[?:]\s*$/, '')) || SECRET_WORDS.test(question.message)
}

/** Words a question for a secret uses that the names' rule does not take alone. */
const SECRET_WORDS = /\b(?:pat|otp|2fa|mfa|one-time (?:code|password)|verification code|auth(?:entication)? code|api ?key)\b/i

/** Flags that skip a confirmation, by name. */
const SKIPS = /^(?:y|yes|force|f|confirm|no-confirm|assume-yes|non-interactive|no-interactive|noninteractive|no-prompt|noprompt|skip-confirmation|skip-prompts?|no-input|auto-approve|accept|all-yes)$/
/** A flag whose description says it answers or skips questions. */
const SKIP_TEXT = /\b(?:prompts?|confirm(?:ation)?|interactive(?:ly)?|without asking|do not ask|don't ask|skip (?:the )?questions?)\b/i
const STOP_WORDS = new Set(['are', 'choose', 'continue', 'enter', 'for', 'from', 'like', 'please', 'provide', 'select', 'sure', 'that', 'the', 'this', 'use', 'want', 'what', 'which', 'with', 'would', 'you', 'your'])

const wordsOf = (text: string) =>
  new Set(
    text
      .replaceAll(/([a-z0-9])([A-Z])/g, '$1 $2')
      .toLowerCase()
      .split(/[^a-z0-9]+/)
      .filter((w) => w.length >= 3 && !STOP_WORDS.has(w)),
  )

/**
 * What the model can give instead of the person's answer: the command's parameters that name what the question asks
 * (`--template` for "Which template?", an `app` argument for "type the app name"), and for a yes/no question the flags
 * that skip confirmations (`--force`, `--yes`, `--confirm`, a flag described as skipping prompts); for a secret, the
 * flags and environment variables that hold it. Strongest first, a handful at most.
 */
export function avoidingFlags(tool: CommandTool, question: CommandQuestion, skips = true): string[] {
  const asked = wordsOf(`${question.name ?? ''} ${question.message}`)
  const found: [score: number, text: string][] = []
  const definitions = (tool.command.flags ?? {}) as Record<string, {description?: string; env?: string; summary?: string; type?: string}>
  for (const param of tool.input.params) {
    if (param.kind === 'rest') continue
    const definition = param.kind === 'flag' ? definitions[param.name] : undefined
    const described = `${definition?.summary ?? ''} ${definition?.description ?? ''}`
    const shown = param.kind === 'flag' ? `--${param.name}` : `<${param.name}>`
    const named = param.property === param.name ? shown : `${shown} (parameter "${param.property}")`
    const env = param.kind === 'flag' && param.env ? ` or the environment variable ${param.env}` : ''
    // A secret, or a login page: the credentials the command can be given instead.
    if (asksForSecret(question) || question.kind === 'url') {
      if (param.secret || (param.kind === 'flag' && param.env && isSecretName(param.env))) found.push([3, `${named}${env}`])
      continue
    }

    const overlap = [...wordsOf(param.name)].filter((w) => asked.has(w)).length
    if (overlap > 0) found.push([2 + overlap, named])
    else if (skips && question.kind === 'confirm' && param.kind === 'flag' && param.type === 'boolean' && (SKIPS.test(param.name) || SKIP_TEXT.test(described))) found.push([2, named])
  }

  return found
    .sort((a, b) => b[0] - a[0])
    .slice(0, 5)
    .map(([, text]) => text)
}

/** The question as a result shows it: what it asked, its kind and choices (never an answer). */
export function shownQuestion(question: CommandQuestion): Record<string, unknown> {
  return {kind: question.kind, message: question.message, ...(question.choices ? {choices: question.choices} : {}), ...(question.name ? {name: question.name} : {})}
}

/** Why the command was ended, and what to do instead, as the result says it. */
export function stopMessage(reason: StopReason, question: CommandQuestion, command: string, flags: string[], detail = ''): string {
  const asked = `"${command}" asked: ${JSON.stringify(question.message)}`
  const instead = flags.length > 0 ? ` To run it without the question, give ${flags.join(', ')}.` : ' Look in its help (describe_command) for flags that answer the question.'
  switch (reason) {
    case 'secret': {
      return `${asked} — a secret, which is never asked through a form. The command was ended.${flags.length > 0 ? ` Supply it with ${flags.join(', ')}, set by the person where the server runs.` : ' The person can supply it where the server runs (the CLI\'s own login or environment variable).'}`
    }

    case 'declined':
    case 'cancelled': {
      return `${asked} — the person ${reason} to answer. The command was ended.`
    }

    case 'unanswered': {
      return `${asked} — nobody answered ${detail}. The command was ended.${instead}`
    }

    case 'too-many': {
      return `${asked} — its ${MAX_QUESTIONS + 1}th question in this call; a call answers at most ${MAX_QUESTIONS}. The command was ended.${instead}`
    }

    case 'background': {
      return `${asked} — after its call had ended (it runs as a job), so nobody could be asked. The command was ended.${instead}`
    }

    default: {
      return `${asked} — and nobody can be asked here (${detail}). The command was ended.${instead}`
    }
  }
}

/** The reply that ends the command. */
export const STOP: QuestionReply = {stop: true}
