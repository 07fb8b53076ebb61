import {acceptedContent, inputRequired, inputResponse, type McpServer, type ProtocolEra, type ServerContext} from '@modelcontextprotocol/server'
import * as z from 'zod'

import type {AskOutcome, Asking} from '../tools/execution/pipeline.js'

const KEY = 'confirm'
const answerSchema = z.object({confirm: z.boolean()})
const requestedSchema = {
  properties: {confirm: {description: 'Run the command?', title: 'Run it', type: 'boolean' as const}},
  required: ['confirm'],
  type: 'object' as const,
}

/** Why a stateless 2025-era HTTP request can never reach the person. */
export const LEGACY_HTTP_CANNOT_ASK = 'a 2025-era client over stateless HTTP cannot be asked (the server has no way to send it a request)'

/**
 * How one request can reach the person, as the call pipeline asks (src/tools/execution/pipeline.ts): by a 2025-era elicitation
 * request (stdio only: over stateless HTTP the answer would reach another instance), by a 2026-07-28
 * `input_required` round, or not at all, with the reason.
 */
export function askingFor(ctx: ServerContext, server: McpServer, era: ProtocolEra, overHttp: boolean): Asking {
  if (era === 'modern') {
    const envelope = ctx.mcpReq.envelope as {'io.modelcontextprotocol/clientCapabilities'?: {elicitation?: unknown}} | undefined
    if (!envelope?.['io.modelcontextprotocol/clientCapabilities']?.elicitation) return {cannot: 'this client did not declare that it can be asked (elicitation)'}
    return {ask: async (message) => inputRound(ctx, message)}
  }

  if (overHttp) return {cannot: LEGACY_HTTP_CANNOT_ASK}
  if (!server.server.getClientCapabilities()?.elicitation) return {cannot: 'this client did not declare that it can be asked (elicitation)'}
  return {
    async ask(message) {
      const answer = await ctx.mcpReq.elicitInput({message, mode: 'form', requestedSchema}).catch(() => undefined)
      if (answer?.action === 'accept') return {answer: answer.content?.confirm === true ? 'accept' : 'decline'}
      return {answer: answer?.action === 'cancel' ? 'cancel' : 'decline'}
    },
  }
}

/** A 2026-07-28 round: the first call answers input_required; the retry carries the person's answer. */
function inputRound(ctx: ServerContext, message: string): AskOutcome {
  const view = inputResponse(ctx.mcpReq.inputResponses, KEY)
  if (view.kind === 'elicit' && view.action !== 'accept') return {answer: view.action === 'cancel' ? 'cancel' : 'decline'}
  const confirmed = acceptedContent(ctx.mcpReq.inputResponses, KEY, answerSchema)
  if (confirmed) return {answer: confirmed.confirm === true ? 'accept' : 'decline'}
  if (view.kind === 'elicit') return {answer: 'decline'}
  return {pending: inputRequired({inputRequests: {[KEY]: inputRequired.elicit({message, requestedSchema})}})}
}
