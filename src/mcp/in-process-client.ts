import {Client, type ClientCapabilities, type ElicitResult} from '@modelcontextprotocol/client'
import {type CallToolResult, InMemoryTransport} from '@modelcontextprotocol/server'

import type {CommandTool} from '../tools/catalog/registry.js'
import type {CallEnvironment} from '../tools/execution/call-environment.js'
import type {ServerPlan} from './plan.js'

import {spelled} from '../host/spelling.js'
import {isSecretName} from '../tools/catalog/secret-names.js'
import {findExecutable} from '../tools/exposure/projection.js'
import {closeMatches} from '../tools/exposure/suggest.js'
import {createServerFactory} from './factory.js'
import {CodedError} from '../error-codes.js'

/** A mistake in what `mcp call` was asked to do; nothing ran. */
export class CallRequestError extends CodedError {
  constructor(
    readonly code: 'INVALID_ARGUMENTS' | 'UNKNOWN_TOOL',
    message: string,
    readonly suggestions: string[] = [],
  ) {
    super(code, message)
  }
}

/** Tool arguments as JSON text: an object, or nothing at all (blank text means no arguments). */
export function parseToolArguments(text: string, source: string): Record<string, unknown> {
  if (text.trim() === '') return {}
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    throw new CallRequestError('INVALID_ARGUMENTS', `The arguments in ${source} are not valid JSON: ${(error as Error).message}`, [
      `Pass a JSON object, e.g. --args '{"cwd": "/path/to/project"}'`,
    ])
  }

  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    const kind = value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`
    throw new CallRequestError('INVALID_ARGUMENTS', `The arguments in ${source} must be a JSON object, not ${kind}.`)
  }

  return value as Record<string, unknown>
}

/**
 * The arguments of `mcp call`: `--args` when given, else standard input when it is not a terminal (a pipe or a
 * file), else none.
 */
export async function readToolArguments(flag: string | undefined, stdin: NodeJS.ReadStream = process.stdin): Promise<Record<string, unknown>> {
  if (flag !== undefined) return parseToolArguments(flag, '--args')
  if (stdin.isTTY) return {}
  let text = ''
  stdin.setEncoding('utf8')
  for await (const chunk of stdin) text += chunk as string
  return parseToolArguments(text, 'standard input')
}

/**
 * Keys of a call's arguments (and of run_command's `arguments`) that hold a secret: the command's secret flags and
 * args (by name, by their variable, or `oclif.mcp.secretFlags`), and any key named like one.
 */
export function secretKeysIn(plan: ServerPlan, name: string, args: Record<string, unknown>): string[] {
  const secretOf = (tool: CommandTool | undefined, values: object) => (tool?.input.params ?? []).flatMap((p) => (p.kind !== 'rest' && p.secret && p.property in values ? [p.property] : []))
  const inner = args.arguments && typeof args.arguments === 'object' && !Array.isArray(args.arguments) ? args.arguments : {}
  const entry = plan.callable.find((listed) => listed.tool.name === name)
  const command = entry?.kind === 'command' ? secretOf(entry.tool, args) : []
  const through = name === 'run_command' && typeof args.command === 'string' ? secretOf(findExecutable(plan.projection, args.command), inner) : []
  return [...new Set([...command, ...through, ...[...Object.keys(args), ...Object.keys(inner)].filter((key) => isSecretName(key))])]
}

function unknownTool(plan: ServerPlan, name: string, listed: readonly string[]): CallRequestError {
  // A command's id given for its tool's name (`tasks add`, `tasks:add`): every command in reach is a tool.
  const command = findExecutable(plan.projection, name)
  if (command) {
    return new CallRequestError('UNKNOWN_TOOL', `"${name}" is the command "${command.displayId}": its tool is "${command.name}".`, [spelled(plan.config, 'call', command.name)])
  }

  const near = closeMatches(name, listed)
  return new CallRequestError(
    'UNKNOWN_TOOL',
    `No tool "${name}".${near.length > 0 ? ` Did you mean: ${near.join(', ')}?` : ''}`,
    [`"${spelled(plan.config, 'tools')}" lists every tool this server exposes.`],
  )
}

/** Asks the person a yes/no question (see cli/terminal-ask.ts). */
export type Asker = (question: string) => Promise<'accept' | 'cancel' | 'decline'>

/** Asks the person a running command's question, given as the elicitation's parameters (see cli/terminal-ask.ts). */
export type FormAsker = (form: {message: string; mode?: string; requestedSchema?: {properties?: Record<string, Record<string, unknown>>}; url?: string}) => Promise<{action: 'accept'; content: Record<string, unknown>} | {action: 'cancel' | 'decline'}>

/**
 * Calls one tool of the real server, in this process: the same factory, schema validation, capability boundary,
 * call pipeline and results as `mcp stdio` and `mcp serve`, over the SDK's in-memory transport and the official
 * client. With `ask`, the client declares elicitation and puts the server's confirmations (a destructive command
 * under --confirm-destructive) to the person; with `form`, a running command's questions too; without either,
 * nobody can be asked. Unknown tools are refused
 * (CallRequestError) before anything runs. Client and server are closed before it returns.
 */
export async function callToolInProcess(plan: ServerPlan, env: CallEnvironment, name: string, args: Record<string, unknown>, ask?: Asker, form?: FormAsker): Promise<CallToolResult> {
  // The server answers every tool a host may list (plan.callable: see createServerFactory).
  const names = plan.callable.map((entry) => entry.tool.name)
  if (!names.includes(name)) throw unknownTool(plan, name, names)
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
  const server = createServerFactory(plan, env)()
  const capabilities: ClientCapabilities | undefined = form ? {elicitation: {form: {}, url: {}}} : ask ? {elicitation: {form: {}}} : undefined
  const client = new Client({name: `${plan.info.name}-mcp-call`, version: plan.info.version}, capabilities ? {capabilities} : {})
  if (capabilities) {
    client.setRequestHandler('elicitation/create', async (request): Promise<ElicitResult> => {
      const params = request.params as Parameters<FormAsker>[0]
      // A running command's question (a form of one `answer`, or a page), else the confirmation of a destructive call.
      // (The terminal's answer is of the field's own type, which the server checks against the question.)
      if (!params.requestedSchema?.properties?.confirm) return form ? ((await form(params)) as ElicitResult) : {action: 'cancel'}
      if (!ask) return {action: 'cancel'}
      const answer = await ask(String(request.params.message))
      return answer === 'accept' ? {action: 'accept', content: {confirm: true}} : {action: answer}
    })
  }

  try {
    await server.connect(serverSide)
    await client.connect(clientSide)
    // The server enforces each command's own timeout; the client only has to wait longer than the longest.
    const longest = Math.max(plan.settings.timeoutMs, ...[...plan.projection.executable.values()].map((t) => t.timeoutMs))
    return (await client.callTool({arguments: args, name}, {timeout: longest + 30_000})) as CallToolResult
  } finally {
    await client.close().catch(() => {})
    await server.close().catch(() => {})
  }
}

/** What a person reads: the result's text blocks; other content is named, not dumped. */
export function resultText(result: CallToolResult): string {
  return result.content
    .map((block) => (block.type === 'text' ? block.text : `[${block.type}${'mimeType' in block ? ` ${String(block.mimeType)}` : ''}]`))
    .join('\n')
}
