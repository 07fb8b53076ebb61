import {type ListToolsResult, McpServer, type ServerContext, type StandardSchemaWithJSON, type Tool} from '@modelcontextprotocol/server'
import * as z from 'zod'

import type {BuiltinTool} from '../tools/builtins/builtin-tool.js'
import type {Projection} from '../tools/exposure/projection.js'
import type {ServerPlan} from './plan.js'

import {askingFor} from './confirmation.js'
import type {CommandTool} from '../tools/catalog/registry.js'

import {builtinAnnotations} from '../tools/builtins/builtin-tool.js'
import {commandListing} from '../tools/exposure/projection.js'
import {type CallContext, callCommandTool} from '../tools/execution/pipeline.js'
import {errorResult} from '../tools/execution/tool-result.js'
import {toJsonSchema, withoutHostKeys} from '../tools/catalog/input-schema.js'

/** Array elements and object members one tools/call's arguments may hold in all (the SDK refuses more). */
const MAX_TOOL_INPUT_ELEMENTS = 10_000

type ToolSchema = StandardSchemaWithJSON<Record<string, unknown>>

/**
 * The zod schema wrapped so its JSON Schema is converted once per process (toJsonSchema memoizes), not once per
 * server instance (HTTP builds an instance per request). Validation is still zod's, after the arguments hosts add to
 * every call of their own accord are taken out (withoutHostKeys): the schema stays strict for everything else.
 */
function frozenSchema(schema: z.ZodObject): ToolSchema {
  const json = ({target}: {target: string}) => toJsonSchema(schema, target === 'draft-07' ? 'draft-07' : 'draft-2020-12')
  const standard = schema['~standard']
  const validate = (value: unknown) => standard.validate(withoutHostKeys(value))
  return {'~standard': {...standard, jsonSchema: {input: json, output: json}, validate}} as unknown as ToolSchema
}

const schemas = new WeakMap<z.ZodObject, ToolSchema>()
function schemaFor(schema: z.ZodObject): ToolSchema {
  let frozen = schemas.get(schema)
  if (!frozen) schemas.set(schema, (frozen = frozenSchema(schema)))
  return frozen
}

/** A fault in our own code becomes a tool error the model can read, never a dead request or server. */
async function guarded(name: string, run: () => Promise<ReturnType<typeof errorResult>> | ReturnType<typeof errorResult>) {
  try {
    return await run()
  } catch (error) {
    process.stderr.write(`[mcp] tool ${name} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`)
    return errorResult(`Internal error in tool ${name}: ${error instanceof Error ? error.message : String(error)}`)
  }
}

/**
 * What a call needs from its request: the cancellation signal, how to ask the person, and a progress reporter when
 * the client sent a progressToken. A notification that cannot be delivered (the client went away) never fails the call.
 */
function callContext(ctx: ServerContext, server: McpServer, {era, http}: Transport): CallContext {
  const envelope = ctx.mcpReq.envelope as {'io.modelcontextprotocol/clientInfo'?: {name?: string; version?: string}} | undefined
  const client = era === 'modern' ? envelope?.['io.modelcontextprotocol/clientInfo'] : server.server.getClientVersion()
  const base: CallContext = {
    asking: askingFor(ctx, server, era, http),
    client: client ? {name: client.name, version: client.version} : undefined,
    era,
    signal: ctx.mcpReq.signal,
  }
  const token = ctx.mcpReq._meta?.progressToken
  if (token === undefined) return base
  let progress = 0
  const report = (message: string) => {
    progress++
    ctx.mcpReq.notify({method: 'notifications/progress', params: {message, progress, progressToken: token}}).catch(() => {})
  }

  return {...base, progress: report}
}

type Era = 'legacy' | 'modern'

/** A command's typed tool: the SDK validates the input, then the one call pipeline takes over (src/tools/execution/pipeline.ts). */
function registerCommandTool(server: McpServer, tool: CommandTool, plan: ServerPlan, transport: Transport): void {
  server.registerTool(
    tool.name,
    {annotations: tool.annotations, description: tool.description, inputSchema: schemaFor(tool.input.schema), title: tool.title},
    (input, ctx) => guarded(tool.name, () => callCommandTool(tool, input as Record<string, unknown>, plan.call, callContext(ctx, server, transport))),
  )
}

function registerBuiltin(server: McpServer, tool: BuiltinTool, transport: Transport): void {
  server.registerTool(
    tool.name,
    {annotations: builtinAnnotations(tool), description: tool.description, inputSchema: schemaFor(tool.schema), title: tool.title},
    (input, ctx) => guarded(tool.name, () => tool.handler(input as Record<string, unknown>, callContext(ctx, server, transport))),
  )
}

/** What the factory learns about the request it builds a server for. */
type Transport = {era: Era; http: boolean}

/**
 * The tools/list answer, made as the SDK's own handler makes it (same fields, same `type: 'object'` root), from
 * schemas converted once per process. The SDK's handler converts and scans every schema of every tool on each
 * listing, and HTTP lists from a fresh server per request: that was most of the cost of a tools/list over HTTP.
 */
function listingOf(plan: ServerPlan): Tool[] {
  return plan.listed.map(({kind, tool}): Tool => {
    if (kind === 'command') return commandListing(tool) as Tool
    const inputSchema = {type: 'object', ...toJsonSchema(tool.schema)} as Tool['inputSchema']
    return {annotations: builtinAnnotations(tool), description: tool.description, inputSchema, name: tool.name, title: tool.title}
  })
}

/** What the factory is told about the request it builds a server for (HTTP builds one per request). */
export interface FactoryContext {
  era?: Era
  /** The request's JSON-RPC message, parsed, when the transport has it (the 2025-era HTTP path). */
  message?: unknown
  requestInfo?: unknown
}

/**
 * The tools a server built for one HTTP request must register: `undefined` for all of them; the tool's name for a
 * single tools/call; null for any other single request (tools/list is answered from the listing, and nothing else
 * reads the registered tools). Modern requests say what they are in `Mcp-Method` / `Mcp-Name`, which the SDK has
 * checked against the body before it asks for a server; 2025-era ones are read from the parsed message. Anything
 * else (stdio, a batch, a name the plan does not list) gets every tool, so the SDK answers exactly as it would.
 */
function toolsNeeded(context: FactoryContext | undefined, listed: ReadonlySet<string>): null | string | undefined {
  let method: unknown
  let name: unknown
  if (context?.era === 'modern' && context.requestInfo instanceof Request) {
    method = context.requestInfo.headers.get('mcp-method') ?? undefined
    name = context.requestInfo.headers.get('mcp-name') ?? undefined
  } else if (context?.message !== null && typeof context?.message === 'object' && !Array.isArray(context.message)) {
    const message = context.message as {method?: unknown; params?: {name?: unknown}}
    method = message.method
    name = message.params?.name
  }

  if (typeof method !== 'string') return undefined
  if (method !== 'tools/call') return null
  return typeof name === 'string' && listed.has(name) ? name : undefined
}

/**
 * The one server factory both transports use: a fresh McpServer with the tools registered (all of them, or just the
 * ones a single HTTP request needs); cheap and I/O-free.
 */
export function createServerFactory(plan: ServerPlan, options: {warnUnaskable?: boolean} = {}): (context?: FactoryContext) => McpServer {
  let listing: Tool[] | undefined
  const names = new Set(plan.listed.map((entry) => entry.tool.name))
  return (context) => {
    const transport: Transport = {era: context?.era ?? 'legacy', http: context?.requestInfo !== undefined}
    const server = new McpServer(plan.info, {
      capabilities: {logging: {}, resources: {listChanged: false}, tools: {listChanged: false}},
      instructions: plan.instructions.summary,
      maxToolInputElements: MAX_TOOL_INPUT_ELEMENTS,
    })
    const {markdown, uri} = plan.instructions
    server.registerResource(
      'agent-instructions',
      uri,
      {description: `How to use ${plan.info.name} through this server`, mimeType: 'text/markdown', title: 'Agent instructions'},
      (href) => ({contents: [{mimeType: 'text/markdown', text: markdown, uri: href.href}]}),
    )
    if (options.warnUnaskable && plan.call.settings.confirmDestructive && !plan.call.settings.trustHostApproval) {
      // One connection per process on stdio: say once, at the handshake, what the pipeline will do with this client.
      server.server.oninitialized = () => {
        if (!server.server.getClientCapabilities()?.elicitation) {
          process.stderr.write('[mcp] --confirm-destructive: this client did not declare elicitation, so it cannot be asked; destructive calls will be refused (--trust-host-approval runs them and leaves the approval to the host).\n')
        }
      }
    }

    const needed = transport.http ? toolsNeeded(context, names) : undefined
    for (const entry of plan.listed) {
      if (needed === null || (needed !== undefined && entry.tool.name !== needed)) continue
      if (entry.kind === 'builtin') registerBuiltin(server, entry.tool, transport)
      else registerCommandTool(server, entry.tool, plan, transport)
    }

    // Set after the tools, so it replaces the SDK's handler. A fresh object each time: the encoder may stamp it.
    server.server.setRequestHandler('tools/list', (): ListToolsResult => ({tools: (listing ??= listingOf(plan))}))
    return server
  }
}
