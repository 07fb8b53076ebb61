import {acceptedContent, inputRequired, inputResponse, type McpServer} from '@modelcontextprotocol/server'
import * as z from 'zod'

import type {CommandTool} from '../tools/registry.js'

import {errorResult, type ToolResult} from '../tools/result.js'

type HandlerContext = Parameters<Parameters<McpServer['registerTool']>[2]>[1]

/** How this request can reach the person: a 2025 push request (stdio only), a 2026-07-28 input_required round, or not at all. */
export type AskChannel = 'elicit' | 'input-required' | 'none'

const KEY = 'confirm'
const answerSchema = z.object({confirm: z.boolean()})
const requestedSchema = {
  properties: {confirm: {description: 'Run the command?', title: 'Run it', type: 'boolean' as const}},
  required: ['confirm'],
  type: 'object' as const,
}

export function askChannel(ctx: HandlerContext, server: McpServer, era: 'legacy' | 'modern', overHttp: boolean): AskChannel {
  if (era === 'modern') {
    const envelope = ctx.mcpReq.envelope as {'io.modelcontextprotocol/clientCapabilities'?: {elicitation?: unknown}} | undefined
    return envelope?.['io.modelcontextprotocol/clientCapabilities']?.elicitation ? 'input-required' : 'none'
  }

  // Over stateless HTTP a 2025 server-to-client request has nowhere to go: the answer would reach a fresh instance.
  return !overHttp && server.server.getClientCapabilities()?.elicitation ? 'elicit' : 'none'
}

function declined(tool: CommandTool, how: string): ToolResult {
  return {...errorResult(`The person ${how} running "${tool.displayId}". Nothing was run.`), structuredContent: {code: 'NOT_CONFIRMED', command: tool.displayId}}
}

/**
 * Asks the person before a destructive command runs. Resolves to undefined to go ahead, or to the answer to give
 * instead: a refusal, or (2026-07-28) the input_required round that asks. A client that cannot be asked is not
 * blocked here: the host's own approval of tool calls is the gate then (see the README).
 */
export async function confirmDestructive(tool: CommandTool, input: Record<string, unknown>, ctx: HandlerContext, channel: AskChannel): Promise<object | undefined> {
  const message = `Run "${tool.displayId}" with ${JSON.stringify(input)}? It is marked destructive.`
  if (channel === 'elicit') {
    const answer = await ctx.mcpReq.elicitInput({message, mode: 'form', requestedSchema}).catch(() => undefined)
    if (answer?.action === 'accept' && answer.content?.confirm === true) return undefined
    return declined(tool, answer?.action === 'cancel' ? 'cancelled' : 'declined')
  }

  if (channel === 'input-required') {
    const view = inputResponse(ctx.mcpReq.inputResponses, KEY)
    if (view.kind === 'elicit' && view.action !== 'accept') return declined(tool, view.action === 'cancel' ? 'cancelled' : 'declined')
    const confirmed = acceptedContent(ctx.mcpReq.inputResponses, KEY, answerSchema)
    if (confirmed?.confirm === true) return undefined
    if (view.kind === 'elicit') return declined(tool, 'declined')
    return inputRequired({inputRequests: {[KEY]: inputRequired.elicit({message, requestedSchema})}})
  }

  return undefined
}
