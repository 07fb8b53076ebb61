import {acceptedContent, createRequestStateCodec, inputRequired, inputResponse, type McpServer, type ProtocolEra, type RequestStateCodec, type ServerContext} from '@modelcontextprotocol/server'
import {randomBytes, randomUUID} from 'node:crypto'
import * as z from 'zod'

import type {CallEnvironment} from '../tools/execution/call-environment.js'
import {ANSWER, type AskOutcome, type Asking, type PromptOutcome, type Question, QUESTION_WAIT_MS, type QuestionForm} from '../tools/execution/pipeline.js'

import {canonicalJson, shortHash} from '../tools/catalog/fingerprint.js'
import {principalOf} from './principal.js'

const KEY = 'confirm'
const answerSchema = z.object({confirm: z.boolean()})
const requestedSchema = {
  properties: {confirm: {description: 'Run the command?', title: 'Run it', type: 'boolean' as const}},
  required: ['confirm'],
  type: 'object' as const,
}

/** How long a 2026-07-28 question may wait for its answer. */
const QUESTION_SECONDS = 600

/**
 * A 2026-07-28 question as the server seals it into the round's `requestState` (HMAC, the SDK's codec, bound to the
 * person asking): the tool, a hash of the arguments, and a one-time id. An answer counts only when it comes back with
 * the state of the question it answers, for the same call, once.
 */
interface SealedQuestion {
  args: string
  once: string
  /** A running command's question (its parked call, parked-calls.ts) rather than a confirmation. */
  park?: string
  tool: string
}

/** The codec sealing questions with the call environment's key (made again when the key changes: a shared store's). */
export class QuestionSeal {
  private codec?: RequestStateCodec<SealedQuestion>
  private key?: Uint8Array

  constructor(private readonly env: Pick<CallEnvironment, 'questionKey' | 'spendAnswer'>) {}

  /** The codec of the current key. */
  current(): RequestStateCodec<SealedQuestion> {
    const key = this.env.questionKey()
    if (!this.codec || key !== this.key) {
      this.key = key
      this.codec = createRequestStateCodec<SealedQuestion>({bind: (ctx) => principalOf(ctx) ?? '', key, ttlSeconds: QUESTION_SECONDS})
    }

    return this.codec
  }

  /** What the server's requestState hook runs on every echoed state (a bad or expired one is refused by the SDK). */
  readonly verify = (state: string, ctx: ServerContext): Promise<SealedQuestion> => this.current().verify(state, ctx)

  /** Seals `question` for a round that asks it. */
  seal(question: Question, ctx: ServerContext, park?: string): Promise<string> {
    return this.current().mint({args: argsHash(question.args), once: randomBytes(12).toString('base64url'), ...(park ? {park} : {}), tool: question.tool}, ctx)
  }

  /**
   * Whether the round's verified state is the seal of `question` (a confirmation, or with `park` that command's
   * question), never answered before (it is spent now).
   */
  async answers(sealed: SealedQuestion | undefined, question: Question, park?: string): Promise<boolean> {
    if (!sealed || sealed.tool !== question.tool || sealed.args !== argsHash(question.args) || sealed.park !== park) return false
    return this.env.spendAnswer(`question:${sealed.once}`, QUESTION_SECONDS * 1000)
  }
}

const argsHash = (args: Record<string, unknown>) => shortHash(canonicalJson(args), 64)

/** Why a stateless 2025-era HTTP request can never reach the person. */
export const LEGACY_HTTP_CANNOT_ASK = 'a 2025-era client over stateless HTTP cannot be asked (the server has no way to send it a request)'

/**
 * How one request can reach the person, as the call pipeline asks (src/tools/execution/pipeline.ts): by a 2025-era elicitation
 * request (stdio only: over stateless HTTP the answer would reach another instance), by a 2026-07-28
 * `input_required` round, or not at all, with the reason.
 */
export function askingFor(ctx: ServerContext, server: McpServer, era: ProtocolEra, overHttp: boolean, seal: QuestionSeal): Asking {
  if (era === 'modern') {
    const envelope = ctx.mcpReq.envelope as {'io.modelcontextprotocol/clientCapabilities'?: {elicitation?: {url?: unknown}}} | undefined
    const elicitation = envelope?.['io.modelcontextprotocol/clientCapabilities']?.elicitation
    if (!elicitation) return {cannot: 'this client did not declare that it can be asked (elicitation)'}
    return {
      ask: async (message, question) => inputRound(ctx, message, question, seal),
      async prompt(form, question, park) {
        const request = form.mode === 'url' ? inputRequired.elicitUrl({message: form.message, url: form.url}) : inputRequired.elicit({message: form.message, requestedSchema: form.requestedSchema})
        return {pending: inputRequired({inputRequests: {[ANSWER]: request}, requestState: await seal.seal(question, ctx, park)})}
      },
      resumed: async (question) => resumedRound(ctx, question, seal),
      urls: Boolean(elicitation.url),
    }
  }

  if (overHttp) return {cannot: LEGACY_HTTP_CANNOT_ASK}
  if (!server.server.getClientCapabilities()?.elicitation) return {cannot: 'this client did not declare that it can be asked (elicitation)'}
  return {
    async ask(message) {
      const answer = await ctx.mcpReq.elicitInput({message, mode: 'form', requestedSchema}).catch(() => undefined)
      if (answer?.action === 'accept') return {answer: answer.content?.confirm === true ? 'accept' : 'decline'}
      return {answer: answer?.action === 'cancel' ? 'cancel' : 'decline'}
    },
    prompt: async (form) => formRound(ctx, form),
    urls: Boolean(server.server.getClientCapabilities()?.elicitation?.url),
  }
}

/** A 2025-era elicitation (stdio) of a command's question, waiting up to QUESTION_WAIT_MS for the person. */
async function formRound(ctx: ServerContext, form: QuestionForm): Promise<PromptOutcome> {
  try {
    const params = form.mode === 'url' ? {elicitationId: randomUUID(), message: form.message, mode: 'url' as const, url: form.url} : {message: form.message, mode: 'form' as const, requestedSchema: form.requestedSchema}
    const answer = await ctx.mcpReq.elicitInput(params, {signal: ctx.mcpReq.signal, timeout: QUESTION_WAIT_MS})
    if (answer.action === 'accept') return {content: answer.content ?? {}}
    return {refused: answer.action === 'cancel' ? 'cancel' : 'decline'}
  } catch (error) {
    if (ctx.mcpReq.signal.aborted) return {refused: 'cancel'}
    return {unanswered: `within ${QUESTION_WAIT_MS / 60_000} minutes (${error instanceof Error ? error.message : String(error)})`}
  }
}

/**
 * A 2026-07-28 round that brings the answer to a running command's question: the parked command it is for and what
 * the person did, or 'spent' when its sealed question was answered before; undefined when it answers none.
 */
async function resumedRound(ctx: ServerContext, question: Question, seal: QuestionSeal): Promise<'spent' | undefined | {outcome: PromptOutcome; park: string}> {
  const sealed = ctx.mcpReq.requestState<SealedQuestion>()
  if (!sealed?.park) return undefined
  if (!(await seal.answers(sealed, question, sealed.park))) return 'spent'
  const view = inputResponse(ctx.mcpReq.inputResponses, ANSWER)
  if (view.kind !== 'elicit') return {outcome: {refused: 'cancel'}, park: sealed.park}
  if (view.action !== 'accept') return {outcome: {refused: view.action === 'cancel' ? 'cancel' : 'decline'}, park: sealed.park}
  return {outcome: {content: view.content ?? {}}, park: sealed.park}
}

/**
 * A 2026-07-28 round: the first call answers input_required with the question sealed in its requestState; the retry
 * carries the person's answer and that state. An answer without the state of this very question (sent ahead of any
 * question, or carried over from another call or another person, or used before) is not an answer: the question is
 * asked again, and nothing runs until it is answered.
 */
async function inputRound(ctx: ServerContext, message: string, question: Question, seal: QuestionSeal): Promise<AskOutcome> {
  const ask = async (): Promise<AskOutcome> => ({pending: inputRequired({inputRequests: {[KEY]: inputRequired.elicit({message, requestedSchema})}, requestState: await seal.seal(question, ctx)})})
  const view = inputResponse(ctx.mcpReq.inputResponses, KEY)
  // A refusal needs no proof: nothing runs either way.
  if (view.kind === 'elicit' && view.action !== 'accept') return {answer: view.action === 'cancel' ? 'cancel' : 'decline'}
  const confirmed = acceptedContent(ctx.mcpReq.inputResponses, KEY, answerSchema)
  if (view.kind !== 'elicit' && !confirmed) return ask()
  if (!(await seal.answers(ctx.mcpReq.requestState<SealedQuestion>(), question))) return ask()
  return {answer: confirmed?.confirm === true ? 'accept' : 'decline'}
}
