import {
  type CallToolResult,
  CLIENT_INFO_META_KEY,
  type ListToolsResult,
  McpServer,
  type McpRequestContext,
  type ProtocolEra,
  type ServerContext,
  type StandardSchemaWithJSON,
  type Tool,
} from '@modelcontextprotocol/server'
import type * as z from 'zod'

import type {CallEnvironment} from '../tools/execution/call-environment.js'
import type {CallAnswer, CallContext} from '../tools/execution/pipeline.js'
import type {Listable} from '../tools/exposure/listing.js'
import type {ListedTool, ServerPlan} from './plan.js'

import {type AgentHost, type AgentHostId, agentHostOf, isAgentHostId, resultBudget} from '../settings/agent-hosts.js'
import {toJsonSchema, withoutHostKeys} from '../tools/catalog/input-schema.js'
import {callCommandTool} from '../tools/execution/pipeline.js'
import {errorResult, withStructuredMessage} from '../tools/execution/tool-result.js'
import {BUILTIN_LOADING, commandSearchHint, type MetaFacts, toolMeta} from '../tools/exposure/host-meta.js'
import {listingEntry} from '../tools/exposure/listing.js'
import {firstLoaded} from '../tools/exposure/projection.js'
import {principalOf} from './principal.js'
import {askingFor, QuestionSeal} from './elicitation.js'
import {registerPrompts} from './prompts.js'
import {registerResources} from './resources.js'

/** Array elements and object members one tools/call's arguments may hold in all (the SDK refuses more). */
const MAX_TOOL_INPUT_ELEMENTS = 10_000

/**
 * What one server instance registers: HTTP builds one per request (see http/routing.ts). `all`: everything; `none`:
 * no tool (resources and prompts only); `builtins`: the built-in tools (a tools/call of a name no tool has, answered
 * as the SDK answers it); a tools/list (`listing`, answered from the precomputed listing) or a tools/call of one named
 * tool needs neither resources nor prompts.
 */
export type ToolSelection = 'all' | 'builtins' | 'listing' | 'none' | {name: string}

type ToolSchema = StandardSchemaWithJSON<Record<string, unknown>>

/**
 * A tool's schema as the SDK holds it, one per tool for the process (HTTP builds a server per request): its zod schema
 * is built only when first used — a server registers every command in reach, and building a command's zod schema is
 * most of what it costs — and its JSON Schema converted once (toJsonSchema memoizes). Validation is zod's, after the
 * arguments hosts add to every call of their own accord are taken out (withoutHostKeys): strict for everything else.
 */
const schemas = new WeakMap<object, ToolSchema>()
function schemaOf(owner: {readonly schema: z.ZodObject}): ToolSchema {
  let wrapped = schemas.get(owner)
  if (!wrapped) {
    const json = ({target}: {target: string}) => toJsonSchema(owner.schema, target === 'draft-07' ? 'draft-07' : 'draft-2020-12')
    const standard = {
      jsonSchema: {input: json, output: json},
      validate: (value: unknown) => owner.schema['~standard'].validate(withoutHostKeys(value)),
      vendor: 'zod',
      version: 1,
    }
    schemas.set(owner, (wrapped = {'~standard': standard} as unknown as ToolSchema))
  }

  return wrapped
}

/**
 * A fault in our own code becomes a tool error the model can read, never a dead request or server; a refusal says
 * why in its structured content too (withStructuredMessage), whichever tool answered.
 */
async function guarded(name: string, run: () => CallAnswer | Promise<CallAnswer>): Promise<CallAnswer> {
  try {
    const answer = await run()
    return 'content' in answer ? withStructuredMessage(answer as CallToolResult) : answer
  } catch (error) {
    process.stderr.write(`[mcp] tool ${name} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`)
    return errorResult(`Internal error in tool ${name}: ${error instanceof Error ? error.message : String(error)}`)
  }
}

/** What the factory learns about the request it builds a server for, and what its calls run with. */
interface Transport {
  env: CallEnvironment
  era: ProtocolEra
  http: boolean
  /** The host the set-up named: `?client=` in an HTTP request's URL, else the server's --client. */
  named?: AgentHostId
  /** The server serves read-only commands only (see CallContext.readOnly). */
  readOnly: boolean
  /** Seals the questions a 2026-07-28 confirmation asks, and checks the answers (mcp/elicitation.ts). */
  seal: QuestionSeal
  /** The MCP-Protocol-Version header of an HTTP request (a stateless 2025 request has no handshake to read it from). */
  versionHeader?: string
}

/**
 * What a call needs from its request: the cancellation signal, how to ask the person, and a progress reporter when
 * the client sent a progressToken. A notification that cannot be delivered (the client went away) never fails the call.
 */
/** Who sent a request, as it says (the handshake's clientInfo, or a 2026-07-28 request's own). */
function clientOf(ctx: ServerContext, server: McpServer, era: ProtocolEra): {name?: string; version?: string} | undefined {
  const envelope = ctx.mcpReq.envelope as {[CLIENT_INFO_META_KEY]?: {name?: string; version?: string}} | undefined
  return era === 'modern' ? envelope?.[CLIENT_INFO_META_KEY] : server.server.getClientVersion()
}

function callContext(ctx: ServerContext, server: McpServer, {era, http, named, readOnly, seal, versionHeader}: Transport): CallContext {
  const client = clientOf(ctx, server, era)
  const base: CallContext = {
    asking: askingFor(ctx, server, era, http, seal),
    client: client ? {name: client.name, version: client.version} : undefined,
    era,
    host: agentHostOf(client?.name, named),
    principal: principalOf(ctx),
    protocolVersion: server.server.getNegotiatedProtocolVersion() ?? versionHeader,
    readOnly,
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

type Handler = (input: Record<string, unknown>, context: CallContext, env: CallEnvironment) => CallAnswer | Promise<CallAnswer>

/** One tool, as the SDK registers it: the SDK validates the input, then `handler` answers (faults included). */
function register(server: McpServer, transport: Transport, tool: Listable, schema: ToolSchema, handler: Handler): void {
  server.registerTool(
    tool.name,
    {annotations: tool.annotations, description: tool.description, inputSchema: schema, title: tool.title},
    (input, ctx) => guarded(tool.name, () => handler(input as Record<string, unknown>, callContext(ctx, server, transport), transport.env)),
  )
}

/**
 * The tools/list answer for one host, made as the SDK's own handler makes it, from schemas converted once per process
 * (the SDK's handler converts and scans every schema of every tool on each listing, and HTTP lists from a fresh server
 * per request: that was most of the cost of a tools/list over HTTP), each entry with the `_meta` that host reads.
 */
function listingOf(plan: ServerPlan, host: AgentHost): Tool[] {
  const budget = resultBudget(plan.settings.maxResultTokens, host)
  const first = firstLoaded(plan.projection)
  return plan.listedFor(host).map(({kind, tool}) => {
    const facts: MetaFacts = kind === 'command' ? {hints: tool.hints, loadFirst: first.has(tool), searchHint: commandSearchHint(tool)} : {hints: tool.hints, ...BUILTIN_LOADING[tool.name]}
    return listingEntry(tool, kind === 'command' ? tool.input.schema : tool.schema, toolMeta(facts, host, budget))
  })
}

function selected(selection: ToolSelection, entry: ListedTool): boolean {
  return selection === 'all' || (selection === 'builtins' && entry.kind === 'builtin') || (typeof selection === 'object' && selection.name === entry.tool.name)
}

/**
 * The one server factory both transports use: a fresh McpServer with the tools registered (all of them, or the ones
 * a single HTTP request needs), cheap and I/O-free. Every command tool's call goes to the one call pipeline
 * (src/tools/execution/pipeline.ts), with `env`: the server's call environment.
 */
export function createServerFactory(plan: ServerPlan, env: CallEnvironment, options: {warnUnaskable?: boolean} = {}): (context?: McpRequestContext, tools?: ToolSelection) => McpServer {
  // One listing per host that asks (the entries' _meta differ), made on first use.
  const listings = new Map<string, Tool[]>()
  const listingFor = (host: AgentHost) => listings.get(host.id) ?? listings.set(host.id, listingOf(plan, host)).get(host.id)!
  const seal = new QuestionSeal(env)
  return (context, tools = 'all') => {
    const asked = context?.requestInfo && new URL(context.requestInfo.url).searchParams.get('client')
    const transport: Transport = {
      env,
      era: context?.era ?? 'legacy',
      http: context?.requestInfo !== undefined,
      named: isAgentHostId(asked) ? asked : plan.settings.agentHost,
      readOnly: plan.projection.readOnly,
      seal,
      versionHeader: context?.requestInfo?.headers.get('mcp-protocol-version') ?? undefined,
    }
    const server = new McpServer(plan.info, {
      capabilities: {logging: {}, ...(plan.prompts.length > 0 ? {prompts: {listChanged: false}} : {}), resources: {listChanged: false}, tools: {listChanged: false}},
      instructions: plan.instructions.summary,
      maxToolInputElements: MAX_TOOL_INPUT_ELEMENTS,
      // An echoed requestState is checked (HMAC, expiry, the person) before any handler runs; a forged one is refused.
      requestState: {verify: seal.verify},
    })
    // The capabilities above are declared whatever is registered; a tools request reads no resource or prompt.
    const hostOf = (ctx: ServerContext) => agentHostOf(clientOf(ctx, server, transport.era)?.name, transport.named)
    if (tools === 'all' || tools === 'none') {
      registerResources(server, plan, env, hostOf)
      registerPrompts(server, plan.prompts, (ctx) => plan.commandsFor(hostOf(ctx)))
    }
    if (options.warnUnaskable && plan.settings.confirmDestructive && !plan.settings.trustHostApproval) {
      // One connection per process on stdio: say once, at the handshake, what the pipeline will do with this client.
      server.server.oninitialized = () => {
        if (!server.server.getClientCapabilities()?.elicitation) {
          process.stderr.write('[mcp] --confirm-destructive: this client did not declare elicitation, so it cannot be asked; destructive calls will be refused (--trust-host-approval runs them and leaves the approval to the host).\n')
        }
      }
    }

    // Every tool a host may list is callable, whichever host this is (which it lists is tools/list's business).
    for (const entry of plan.callable) {
      if (!selected(tools, entry)) continue
      if (entry.kind === 'builtin') register(server, transport, entry.tool, schemaOf(entry.tool), entry.tool.handler)
      else {
        const {tool} = entry
        register(server, transport, tool, schemaOf(tool.input), (input, context) => callCommandTool(tool, input, env, context))
      }
    }

    // Set after the tools, so it replaces the SDK's handler. A fresh object each time: the encoder may stamp it.
    server.server.setRequestHandler('tools/list', (_request, ctx): ListToolsResult => ({tools: listingFor(hostOf(ctx))}))
    return server
  }
}
