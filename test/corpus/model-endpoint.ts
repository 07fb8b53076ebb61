// A stand-in for the model APIs behind the real hosts (Anthropic's Messages API for Claude Code, Google's
// generateContent for Gemini CLI, OpenAI's Responses API for Codex), on loopback, so a host runs a whole turn with no
// account. It keeps every request body the host sent (what the host put in front of the model: an expanded prompt, an
// attached resource, a tool result) and answers from a script: the nth answer after n tool results calls script[n],
// then a plain "done".
import {createServer, type IncomingMessage, type ServerResponse} from 'node:http'
import type {AddressInfo} from 'node:net'

/**
 * A tool call the scripted model makes. Codex only: `namespace` names the group a tool is called in (Codex calls a
 * server's tools as `status` in namespace `mcp__taskbox`, not by one flat name); `tool_search` without a namespace is
 * Codex's own deferred-tool search, answered in the request after; a string `input` is a freeform (custom) tool's
 * text, such as the JavaScript of code mode's `exec`.
 */
export type ScriptedCall = {input: Record<string, unknown> | string; namespace?: string; tool: string}

export type ModelEndpoint = {
  /** Every request body the host sent, in order. */
  bodies: Record<string, unknown>[]
  close(): Promise<void>
  url: string
}

type Part = Record<string, unknown>

/** The items of a Responses API conversation that answer a call: a function's, a freeform tool's, Codex's tool search. */
const RESPONSES_OUTPUTS = new Set(['custom_tool_call_output', 'function_call_output', 'tool_search_output'])

/**
 * The calls a Responses API conversation (Codex's `input`) holds answers to. Counted by call, not by item: code mode
 * may answer one `exec` call twice (its `notify` adds an output of its own), and that is still one step of the script.
 */
const answeredCalls = (body: Record<string, unknown>): number => {
  const items = Array.isArray(body.input) ? (body.input as Part[]) : []
  return new Set(items.filter((item) => RESPONSES_OUTPUTS.has(item.type as string)).map((item) => item.call_id)).size
}

/** How many tool results the conversation holds (Anthropic's `tool_result` parts, Gemini's `functionResponse`, Codex's answered calls). */
const toolResults = (body: Record<string, unknown>): number => {
  const turns = [...((body.messages as {content?: unknown}[] | undefined) ?? []).map((m) => m.content), ...((body.contents as {parts?: unknown}[] | undefined) ?? []).map((c) => c.parts)]
  return (
    turns.flatMap((parts) => (Array.isArray(parts) ? (parts as Part[]) : [])).filter((part) => part.type === 'tool_result' || part.functionResponse !== undefined).length +
    answeredCalls(body)
  )
}

function answerAnthropic(response: ServerResponse, body: Record<string, unknown>, call: ScriptedCall | undefined): void {
  response.writeHead(200, {'content-type': 'text/event-stream'})
  const send = (type: string, data: Record<string, unknown>) => response.write(`event: ${type}\ndata: ${JSON.stringify({type, ...data})}\n\n`)
  send('message_start', {
    message: {content: [], id: 'msg_1', model: body.model, role: 'assistant', stop_reason: null, stop_sequence: null, type: 'message', usage: {input_tokens: 1, output_tokens: 1}},
  })
  if (call) {
    send('content_block_start', {content_block: {id: `toolu_${toolResults(body)}`, input: {}, name: call.tool, type: 'tool_use'}, index: 0})
    send('content_block_delta', {delta: {partial_json: JSON.stringify(call.input), type: 'input_json_delta'}, index: 0})
  } else {
    send('content_block_start', {content_block: {text: '', type: 'text'}, index: 0})
    send('content_block_delta', {delta: {text: 'done', type: 'text_delta'}, index: 0})
  }
  send('content_block_stop', {index: 0})
  send('message_delta', {delta: {stop_reason: call ? 'tool_use' : 'end_turn', stop_sequence: null}, usage: {output_tokens: 1}})
  send('message_stop', {})
  response.end()
}

function answerGemini(request: IncomingMessage, response: ServerResponse, body: Record<string, unknown>, call: ScriptedCall | undefined): void {
  // Gemini CLI first asks a small model to score the request, in JSON; any valid score routes it on.
  const wantsJson = (body.generationConfig as {responseMimeType?: string} | undefined)?.responseMimeType === 'application/json'
  const part = wantsJson
    ? {text: JSON.stringify({complexity_reasoning: 'scripted', complexity_score: 10})}
    : call
      ? {functionCall: {args: call.input, name: call.tool}}
      : {text: 'done'}
  const chunk = {candidates: [{content: {parts: [part], role: 'model'}, finishReason: 'STOP', index: 0}], usageMetadata: {candidatesTokenCount: 1, promptTokenCount: 1, totalTokenCount: 2}}
  if (request.url?.includes('alt=sse')) {
    response.writeHead(200, {'content-type': 'text/event-stream'})
    response.end(`data: ${JSON.stringify(chunk)}\n\n`)
  } else {
    response.writeHead(200, {'content-type': 'application/json'})
    response.end(JSON.stringify(request.url?.includes(':countTokens') ? {totalTokens: 1} : chunk))
  }
}

/**
 * Codex's model request (POST /v1/responses, always streamed): one output item, the scripted call or the text "done",
 * between the events Codex waits for. It acts on `response.output_item.done` and ends the step on `response.completed`,
 * whose usage it reports; ids only need to be unique within the conversation.
 */
function answerResponses(response: ServerResponse, body: Record<string, unknown>, call: ScriptedCall | undefined): void {
  const step = toolResults(body)
  const callId = `call_${step}`
  let item: Record<string, unknown>
  if (!call) item = {content: [{annotations: [], text: 'done', type: 'output_text'}], id: `msg_${step}`, role: 'assistant', status: 'completed', type: 'message'}
  // Codex runs its tool search itself ("execution": "client") and answers it with a tool_search_output item.
  else if (call.tool === 'tool_search' && !call.namespace) item = {arguments: call.input, call_id: callId, execution: 'client', id: `ts_${step}`, status: 'completed', type: 'tool_search_call'}
  else if (typeof call.input === 'string') item = {call_id: callId, id: `ctc_${step}`, input: call.input, name: call.tool, status: 'completed', type: 'custom_tool_call'}
  else item = {arguments: JSON.stringify(call.input), call_id: callId, id: `fc_${step}`, name: call.tool, ...(call.namespace ? {namespace: call.namespace} : {}), status: 'completed', type: 'function_call'}
  response.writeHead(200, {'content-type': 'text/event-stream'})
  const send = (type: string, data: Record<string, unknown>) => response.write(`event: ${type}\ndata: ${JSON.stringify({type, ...data})}\n\n`)
  const id = `resp_${step}`
  send('response.created', {response: {id, model: body.model, object: 'response', output: [], status: 'in_progress'}})
  send('response.output_item.added', {item, output_index: 0})
  send('response.output_item.done', {item, output_index: 0})
  const usage = {input_tokens: 1, input_tokens_details: {cached_tokens: 0}, output_tokens: 1, output_tokens_details: {reasoning_tokens: 0}, total_tokens: 2}
  send('response.completed', {response: {id, model: body.model, object: 'response', output: [item], status: 'completed', usage}})
  response.end()
}

export async function startModelEndpoint(script: ScriptedCall[] = []): Promise<ModelEndpoint> {
  const bodies: Record<string, unknown>[] = []
  const server = createServer((request, response) => {
    let text = ''
    request.setEncoding('utf8')
    request.on('data', (chunk: string) => (text += chunk))
    request.on('end', () => {
      let body: Record<string, unknown> = {}
      try {
        body = text ? (JSON.parse(text) as Record<string, unknown>) : {}
      } catch {
        // Kept as an empty body; the host gets a plain answer.
      }
      bodies.push(body)
      const call = script[toolResults(body)]
      if (request.url?.startsWith('/v1/messages')) answerAnthropic(response, body, call)
      else if (request.url?.startsWith('/v1/responses')) answerResponses(response, body, call)
      else answerGemini(request, response, body, call)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const {port} = server.address() as AddressInfo
  return {
    bodies,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
    url: `http://127.0.0.1:${port}`,
  }
}

/** Every text the host put in front of the model, in one string. */
export const sentText = (endpoint: ModelEndpoint): string => JSON.stringify(endpoint.bodies)
