import type {CallToolResult, InputRequiredResult, ProtocolEra} from '@modelcontextprotocol/server'
import type * as z from 'zod'

import type {AgentHost} from '../../settings/agent-hosts.js'
import type {AuditRecord} from '../records/audit-log.js'
import type {CallEnvironment} from './call-environment.js'

import {withoutHostKeys} from '../catalog/input-schema.js'
import {type CommandTool, PLUGIN_NAME} from '../catalog/registry.js'
import {type Boundary, unknownCommandMessage} from '../exposure/projection.js'
import {childEnv} from './child-env.js'
import {type Execute, executeCommand, type Ran} from './execute-command.js'
import {jobView} from './job-view.js'
import {REDACTED, type Redact, redactor, secretEnvValues} from './redact.js'
import {resultBudget, UNKNOWN_HOST} from '../../settings/agent-hosts.js'
import {errorResult} from './tool-result.js'
import type {Prompting} from './call-questions.js'
import {type PromptOutcome, QUESTION_WAIT_MS, type QuestionForm} from './command-questions.js'

// What the protocol edge (src/mcp/elicitation.ts) needs to ask a command's question.
export {ANSWER, type PromptOutcome, QUESTION_WAIT_MS, type QuestionForm} from './command-questions.js'
import type {ErrorCode} from '../../error-codes.js'

const META = PLUGIN_NAME

/** What the person answered when asked to confirm a call, or (2026-07-28) the round that asks them. */
export type AskOutcome = {answer: 'accept' | 'cancel' | 'decline'} | {pending: InputRequiredResult}

/** What a call answers: its result, or (2026-07-28) the request for the person's input that comes first. */
export type CallAnswer = CallToolResult | InputRequiredResult

/**
 * How this request can reach the person: a function that asks, or the reason it cannot (the transport has no way
 * to carry a request to the client, or the client did not declare that it can answer one).
 */
export type Asking =
  | {
      ask: (message: string, question: Question) => Promise<AskOutcome>
      /** Asks a running command's question (`park` names the command a 2026-07-28 round's answer goes back to). */
      prompt?: (form: QuestionForm, question: Question, park: string) => Promise<PromptOutcome>
      /** The client can be given a page to open (URL-mode elicitation). */
      urls?: boolean
      /** 2026-07-28: the round answers a question a running command asked ('spent': that answer was given before). */
      resumed?: (question: Question) => Promise<'spent' | undefined | {outcome: PromptOutcome; park: string}>
    }
  | {cannot: string}

/** What a confirmation is asked about: an answer counts only for the same tool and the same arguments. */
export interface Question {
  args: Record<string, unknown>
  tool: string
}

/** What a call brings besides its arguments: cancellation, progress, who is calling, and how to ask the person. */
export interface CallContext {
  asking?: Asking
  client?: {name?: string; version?: string}
  era?: ProtocolEra
  /** The agent host the call comes from (settings/agent-hosts.ts): what it keeps of a result and shows its model. */
  host?: AgentHost
  /**
   * Who is calling, when the server knows (an OAuth token's subject): the jobs, kept outputs and idempotency keys
   * of a call are theirs alone.
   */
  principal?: string
  progress?: (message: string) => void
  /** The protocol revision of the request (what content it may carry: resource_link from 2025-06-18). */
  protocolVersion?: string
  /**
   * The request may reach read-only commands only (an OAuth token with only the read scope, or a read-only
   * server): any other command is outside its boundary, whichever path the call came by.
   */
  readOnly?: boolean
  signal?: AbortSignal
}

/** The first revision with resource_link content blocks. */
const RESOURCE_LINKS_SINCE = '2025-06-18'

/** What a result may hold for this caller: its budget in characters, and whether it may link to resources. */
export function resultRoom(env: CallEnvironment, context: CallContext): {budget: number; links: boolean} {
  // A request that does not say its revision (stateless 2025 HTTP) is answered as the host it comes from speaks.
  const version = context.protocolVersion ?? context.host?.protocol
  return {budget: resultBudget(env.settings.maxResultTokens, context.host ?? UNKNOWN_HOST), links: version !== undefined && version >= RESOURCE_LINKS_SINCE}
}


/** The properties of a tool's secret parameters (flags and args that hold secrets). */
function secretProperties(tool: CommandTool): string[] {
  return tool.input.params.flatMap((p) => (p.kind !== 'rest' && p.secret ? [p.property] : []))
}

/** The call's arguments as a person or a log may see them: secret parameters blanked, secrets elsewhere redacted. */
export function shownArguments(tool: CommandTool, args: Record<string, unknown>, redact: Redact): Record<string, unknown> {
  const secret = new Set(secretProperties(tool))
  return redact(Object.fromEntries(Object.entries(args).map(([k, v]) => [k, secret.has(k) ? REDACTED : v])))
}

/** The secret values a call involves: its secret parameters' values and the secret-named environment variables. */
function secretsOf(tool: CommandTool, args: Record<string, unknown>, childVars: Record<string, string | undefined>): string[] {
  const values = secretProperties(tool).flatMap((property) => [args[property]].flat())
  return [...values.filter((v): v is string => typeof v === 'string'), ...secretEnvValues(childVars)]
}

function withMeta(result: CallToolResult, meta: Record<string, unknown>): CallToolResult {
  return {...result, _meta: {...(result._meta as object | undefined), ...meta}}
}

/** A note after the result, in its text and (where there is one) its structured content: hosts show one or the other. */
function withNote(result: CallToolResult, note: string, meta: Record<string, unknown>): CallToolResult {
  const structured = result.structuredContent as Record<string, unknown> | undefined
  const notes = [...((structured?.notes as string[] | undefined) ?? []), note]
  return {...withMeta(result, meta), content: [...result.content, {text: note, type: 'text'}], ...(structured ? {structuredContent: {...structured, notes}} : {})}
}

function zodIssues(error: z.ZodError): string {
  return error.issues.map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : 'arguments'}: ${issue.message}`).join('; ')
}

function refusal(text: string, code: ErrorCode, tool: CommandTool, more: Record<string, unknown> = {}): CallToolResult {
  return {...errorResult(text), structuredContent: {code, command: tool.displayId, ...more}}
}

/** Where the confirmation step ends a call before anything runs: refused (and audited), or waiting for the person. */
type Stop = {pending: InputRequiredResult} | {refused: CallToolResult}

/**
 * The confirmation step: a destructive command on a server that confirms them runs only once the person agreed.
 * Where nobody can be asked it is refused (fail closed), unless the user chose to let the host's own approval of
 * tool calls be the gate (`--trust-host-approval`).
 */
async function confirmation(tool: CommandTool, args: Record<string, unknown>, env: CallEnvironment, context: CallContext, redact: Redact): Promise<Stop | undefined> {
  const {confirmDestructive, trustHostApproval} = env.settings
  if (!confirmDestructive || !tool.hints.destructiveHint) return undefined
  const asking = context.asking ?? {cannot: 'this client cannot be asked'}
  if ('cannot' in asking) {
    if (trustHostApproval) return undefined
    const text = `"${tool.displayId}" is destructive, and this server asks the person before running destructive commands (--confirm-destructive), but ${asking.cannot}. Nothing was run. To run it, use a client that can ask (elicitation over stdio, or 2026-07-28 HTTP), or start the server with --trust-host-approval to let the host's own approval of tool calls decide.`
    return {refused: refusal(text, 'CONFIRMATION_UNAVAILABLE', tool, {reason: asking.cannot})}
  }

  const shown = JSON.stringify(shownArguments(tool, args, redact))
  const outcome = await asking.ask(`Run "${tool.displayId}" with ${shown}? It is marked destructive.`, {args, tool: tool.name})
  if ('pending' in outcome) return outcome
  if (outcome.answer === 'accept') return undefined
  const how = outcome.answer === 'cancel' ? 'cancelled' : 'declined'
  return {refused: refusal(`The person ${how} running "${tool.displayId}". Nothing was run.`, 'NOT_CONFIRMED', tool)}
}

/** The idempotency and execution steps: with a key, a retry gets the first run's recorded result instead. */
async function execution(tool: CommandTool, args: Record<string, unknown>, key: unknown, env: CallEnvironment, how: Execute): Promise<{outcome: AuditRecord['outcome']; ran: Ran}> {
  if (typeof key !== 'string') {
    const ran = await executeCommand(tool, args, env, how)
    return {outcome: ran.ran ? 'ran' : 'not-run', ran}
  }

  let execution: Ran | undefined
  const recorded = await env.idempotency.run(tool.id, key, args, async () => (execution = await executeCommand(tool, args, env, how)), how.principal)
  switch (recorded.status) {
    case 'refused': {
      const code = `IDEMPOTENCY_${recorded.reason.toUpperCase().replace('-', '_')}`
      return {outcome: 'refused', ran: {ran: false, result: {...errorResult(`${recorded.message} Nothing was run.`), structuredContent: {code}}}}
    }

    case 'replayed': {
      // A key whose call went on as a job answers with that job as it is now, not with the moment it started.
      const jobId = (recorded.result.structuredContent as {job?: {id?: unknown}} | undefined)?.job?.id
      const found = typeof jobId === 'string' ? await env.jobs.lookup(jobId, how.principal) : undefined
      const first = found && 'job' in found ? jobView(found.job, {stderr: 0, stdout: 0}, how.budget, found.output, how.links ? env.outputLinks(found.job.id) : undefined) : recorded.result
      const what = found ? `the job its first call started (${jobId})${'job' in found ? '' : ', which this server no longer knows'}` : `the result recorded at ${recorded.recordedAt}`
      const note = `Replayed: this is ${what} for idempotencyKey "${key}"; the command did not run again.`
      const result = withNote(first, note, {[`${META}/idempotency`]: {recordedAt: recorded.recordedAt, replayed: true}})
      return {outcome: 'replayed', ran: {ran: false, result}}
    }

    default: {
      let ran: Ran = execution ?? {ran: recorded.status === 'executed', result: recorded.result}
      if (recorded.storageError) {
        const what = ran.ran ? 'The command ran, but its result could not be recorded' : 'The command did not run, and its claim could not be released'
        const warning = `${what} for idempotencyKey "${key}": ${recorded.storageError}`
        ran = {...ran, result: withNote(ran.result, warning, {[`${META}/idempotency`]: {storageError: recorded.storageError}})}
      }

      return {outcome: ran.ran ? 'ran' : 'not-run', ran}
    }
  }
}

/** How the questions the command asks while it runs reach the person in this call. */
function promptingFor(tool: CommandTool, args: Record<string, unknown>, key: unknown, context: CallContext): Prompting {
  const asking = context.asking ?? {cannot: 'this client cannot be asked'}
  if ('cannot' in asking) return asking
  const {prompt} = asking
  if (!prompt) return {cannot: 'this client cannot be asked a command\'s questions'}
  // A 2026-07-28 question ends the round: the idempotency record of a call must be its result, not a question.
  if (typeof key === 'string' && asking.resumed) return {cannot: 'a call with an idempotencyKey cannot wait between rounds for the person\'s answer'}
  return {ask: (form, park) => prompt(form, {args, tool: tool.name}, park), urls: asking.urls === true}
}

/**
 * A 2026-07-28 round that answers a running command's question: the command's call goes on (undefined when the
 * round answers no such question).
 */
async function resumedCall(tool: CommandTool, args: Record<string, unknown>, env: CallEnvironment, context: CallContext): Promise<Ran | undefined> {
  const asking = context.asking
  if (!asking || 'cannot' in asking || !asking.resumed) return undefined
  const resumed = await asking.resumed({args, tool: tool.name})
  if (!resumed) return undefined
  const parked = resumed === 'spent' ? undefined : env.parked.take(resumed.park, context.principal)
  if (!parked || resumed === 'spent') {
    const text = `This answer is for a question of "${tool.displayId}" that no longer waits for it (answered before, expired after ${QUESTION_WAIT_MS / 60_000} minutes, or asked by another server process): nothing was given to a command. Call the tool again to run it anew.`
    return {ran: false, result: refusal(text, 'QUESTION_GONE', tool)}
  }

  // What execute-command.ts parked: the same call's run (ParkedCalls knows no Ran, which would make a cycle).
  return (await parked.resume(resumed.outcome, context.signal)) as Ran
}

/** The boundary as this caller may see it: a read-only caller is told of no other command, not even by a suggestion. */
function callersBoundary(env: CallEnvironment, context: CallContext): Boundary {
  if (!context.readOnly) return env.boundary
  return {executable: new Map([...env.boundary.executable].filter(([, tool]) => tool.hints.readOnlyHint))}
}

/**
 * The one call pipeline. Every way of calling a command — its typed tool, run_command, `mcp call`, over stdio or
 * HTTP — comes here, and takes the same steps in the same order: boundary → arguments → confirmation →
 * idempotency → execution → result (redacted) → audit. Never throws for a bad call: every refusal is a tool result
 * that says why and that nothing ran.
 */
export async function callCommandTool(tool: CommandTool, input: Record<string, unknown>, env: CallEnvironment, context: CallContext = {}): Promise<CallAnswer> {
  // Boundary: the same answer as for an unknown command, so what is outside cannot be told from what does not exist.
  if (env.boundary.executable.get(tool.id) !== tool || (context.readOnly && !tool.hints.readOnlyHint)) {
    return errorResult(unknownCommandMessage(callersBoundary(env, context), tool.displayId))
  }

  // The secrets the call involves are known before anything is said about it, a refusal of its arguments included.
  const childVars = childEnv(env.config, tool.env)
  const redact = redactor(secretsOf(tool, input, childVars))

  // Arguments (the SDK has validated a typed tool's already; run_command's arrive as an open object, where a model
  // told by its host to add a key to every call may have put it too).
  const parsed = tool.input.schema.safeParse(withoutHostKeys(input))
  if (!parsed.success) return errorResult(redact(`Invalid arguments for "${tool.displayId}": ${zodIssues(parsed.error)}. Nothing was run.`))
  const {idempotencyKey: key, ...args} = parsed.data as Record<string, unknown>

  // A round that brings the answer to the question of a command already running (confirmed, if it had to be, before
  // it started) takes that command up again; any other call is confirmed, then run.
  const resumed = await resumedCall(tool, args, env, context)
  const stopped = resumed ? undefined : await confirmation(tool, args, env, context, redact)
  if (stopped && 'pending' in stopped) return stopped.pending
  const how: Execute = {childVars, principal: context.principal, progress: context.progress, prompting: promptingFor(tool, args, key, context), redact, signal: context.signal, ...resultRoom(env, context)}
  const {outcome, ran}: {outcome: AuditRecord['outcome']; ran: Ran} = resumed
    ? {outcome: resumed.ran ? 'ran' : 'not-run', ran: resumed}
    : stopped
      ? {outcome: 'not-confirmed', ran: {ran: false, result: stopped.refused}}
      : await execution(tool, args, key, env, how)
  if (ran.pending) return ran.pending

  const {audit} = env
  if (!audit || tool.hints.readOnlyHint) return ran.result
  const record: AuditRecord = {
    arguments: shownArguments(tool, parsed.data as Record<string, unknown>, redact),
    client: context.client ?? null,
    command: tool.id,
    cwd: ran.cwd ?? null,
    durationMs: ran.durationMs ?? null,
    era: context.era ?? null,
    exitCode: ran.exitCode ?? null,
    ...(ran.job ? {job: ran.job.id} : {}),
    outcome,
    ...(context.principal === undefined ? {} : {principal: context.principal}),
    // That a person answered the command's questions, and what they were; never an answer.
    ...(ran.questions && ran.questions.length > 0 ? {questions: ran.questions.map((q) => ({answered: q.answered, kind: q.kind, message: redact(q.message)}))} : {}),
    time: new Date().toISOString(),
    tool: tool.name,
  }
  const {job} = ran
  // A job's end is a record of its own, written when its command ends (nobody waits for that write).
  if (job) {
    void job.ended.then(async () => {
      const end = job.end!
      const lost = await audit.append({...record, durationMs: end.durationMs, exitCode: end.exitCode, outcome: 'job-ended', time: new Date().toISOString()})
      if (lost) process.stderr.write(`[mcp] could not write the audit log ${audit.file}: ${lost}\n`)
    })
  }

  const failure = await audit.append(record)
  if (!failure) return ran.result
  process.stderr.write(`[mcp] could not write the audit log ${audit.file}: ${failure}\n`)
  return withMeta(ran.result, {[`${META}/audit`]: {error: failure, file: audit.file}})
}
