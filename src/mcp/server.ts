import {McpServer, type StandardSchemaWithJSON} from '@modelcontextprotocol/server'
import * as z from 'zod'

import type {BuiltinTool} from '../tools/builtins/tool.js'
import type {CommandTool, Registry} from '../tools/registry.js'

import {BUILTIN_HINTS} from '../tools/builtins/tool.js'
import {callCommandTool, type CallEnvironment, errorResult} from '../tools/call.js'
import {toJsonSchema} from '../tools/schema.js'

/** Everything the factory reads; built once per process, shared by every server instance and transport. */
export interface ServerPlan {
  builtins: readonly BuiltinTool[]
  call: CallEnvironment
  info: {name: string; title?: string; version: string}
  instructions: string
  registry: Registry
}

type ToolSchema = StandardSchemaWithJSON<Record<string, unknown>>

/**
 * The zod schema wrapped so its JSON Schema is converted once per process, not once per server instance (HTTP
 * builds an instance per request). Validation is still zod's.
 */
function frozenSchema(schema: z.ZodObject): ToolSchema {
  const cache = new Map<string, Record<string, unknown>>()
  const json = ({target}: {target: string}) => {
    let value = cache.get(target)
    if (!value) {
      value = toJsonSchema(schema, target === 'draft-07' ? 'draft-07' : 'draft-2020-12')
      cache.set(target, value)
    }

    return value
  }

  return {'~standard': {...schema['~standard'], jsonSchema: {input: json, output: json}}} as unknown as ToolSchema
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

function registerCommandTool(server: McpServer, tool: CommandTool, call: CallEnvironment): void {
  const {title, ...hints} = tool.hints
  server.registerTool(
    tool.name,
    {
      annotations: {...hints, title: title ?? `${call.config.bin} ${tool.displayId}`},
      description: tool.description,
      inputSchema: schemaFor(tool.input.schema),
      title: title ?? `${call.config.bin} ${tool.displayId}`,
    },
    (input, ctx) => guarded(tool.name, () => callCommandTool(tool, input as Record<string, unknown>, call, ctx.mcpReq.signal)),
  )
}

function registerBuiltin(server: McpServer, tool: BuiltinTool): void {
  server.registerTool(
    tool.name,
    {annotations: {...BUILTIN_HINTS, title: tool.title}, description: tool.description, inputSchema: schemaFor(tool.schema), title: tool.title},
    (input) => guarded(tool.name, () => tool.handler(input as Record<string, unknown>)),
  )
}

/** The one server factory both transports use: a fresh McpServer with every tool registered; cheap and I/O-free. */
export function createServerFactory(plan: ServerPlan): () => McpServer {
  return () => {
    const server = new McpServer(plan.info, {capabilities: {logging: {}, tools: {listChanged: false}}, instructions: plan.instructions})
    for (const tool of plan.builtins) registerBuiltin(server, tool)
    for (const tool of plan.registry.tools) registerCommandTool(server, tool, plan.call)
    return server
  }
}
