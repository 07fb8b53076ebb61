import type {CallToolResult} from '@modelcontextprotocol/server'
import type * as z from 'zod'

import type {ToolAnnotations, ToolHints} from '../catalog/hints.js'
import type {CommandTool} from '../catalog/registry.js'
import type {BuiltinName} from '../catalog/tool-names.js'
import type {CallAnswer, CallContext} from '../execution/pipeline.js'
import type {AgentHost} from '../../settings/agent-hosts.js'

import {toolAnnotations} from '../catalog/hints.js'

/** What a built-in tool is made of; see builtinTool. */
export interface BuiltinSpec {
  description: string
  handler: (input: Record<string, unknown>, context: CallContext) => CallAnswer | Promise<CallAnswer>
  /** Defaults to BUILTIN_HINTS (read-only, closed world); a built-in that can change things says so. */
  hints?: ToolHints
  name: BuiltinName
  schema: z.ZodObject
  title: string
}

/** A tool of the server's own, answered in-process (run_command hands its command to the call pipeline). */
export interface BuiltinTool extends BuiltinSpec {
  annotations: ToolAnnotations
  hints: ToolHints
}

export const BUILTIN_HINTS: ToolHints = {destructiveHint: false, idempotentHint: true, openWorldHint: false, readOnlyHint: true}

export function builtinTool(spec: BuiltinSpec): BuiltinTool {
  const hints = spec.hints ?? BUILTIN_HINTS
  return {...spec, annotations: toolAnnotations(hints, spec.title), hints}
}

/** A one-line summary for the model, the data fenced as JSON, and the same data as structuredContent. */
export function jsonResult(summary: string, data: Record<string, unknown>): CallToolResult {
  return {
    content: [{text: `${summary}\n\n\`\`\`json\n${JSON.stringify(data, null, 2)}\n\`\`\``, type: 'text'}],
    structuredContent: data,
  }
}

/** The commands a host lists as tools of their own (it depends on the host: tools/exposure/host-exposure.ts). */
export type ListedCommands = (host?: AgentHost) => ReadonlySet<CommandTool>

/** A command as list_commands and find_commands show it: whether the caller's host lists it as a tool, and under which name. */
export function commandEntry(tool: CommandTool, listed: ReadonlySet<CommandTool>) {
  const isListed = listed.has(tool)
  return {annotations: tool.hints, id: tool.displayId, listed: isListed, summary: tool.summary, tool: isListed ? tool.name : null}
}
