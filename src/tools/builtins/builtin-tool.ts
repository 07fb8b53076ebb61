import type {CallToolResult} from '@modelcontextprotocol/server'
import type {Config} from '@oclif/core'
import type * as z from 'zod'

import type {ToolAnnotations, ToolHints} from '../catalog/hints.js'
import type {CommandTool} from '../catalog/registry.js'
import type {BuiltinName} from '../catalog/tool-names.js'
import type {CallEnvironment} from '../execution/call-environment.js'
import type {CallAnswer, CallContext} from '../execution/pipeline.js'
import type {NotListed, Projection} from '../exposure/projection.js'
import type {AgentHost} from '../../settings/agent-hosts.js'
import type {DocsIndex} from './docs-index.js'

import {toolAnnotations} from '../catalog/hints.js'

/** What a built-in tool is made of; see builtinTool. */
export interface BuiltinSpec {
  description: string
  /** `env`: what calls run with (the server's call environment); the tool itself is made without one. */
  handler: (input: Record<string, unknown>, context: CallContext, env: CallEnvironment) => CallAnswer | Promise<CallAnswer>
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

/** What one host is listed: its tools (by name), the commands among them, and why every other command is not listed. */
export interface HostListing {
  commands: ReadonlySet<CommandTool>
  notListed: readonly NotListed[]
  tools: readonly {tool: {name: string}}[]
}

/**
 * What every built-in tool is made from (the same for all of them): the CLI, the projection the server exposes, what
 * each host is listed (tools/exposure/host-exposure.ts; asked when a tool is called, not when it is made), the docs
 * index, and the protocol revisions served. Nothing in it runs anything: a call's handler gets the call environment.
 */
export interface BuiltinScope {
  config: Config
  docs: DocsIndex
  listingOf: (host?: AgentHost) => HostListing
  projection: Projection
  revisions: readonly string[]
}

/** The one signature of the built-in tools' factories. */
export type BuiltinFactory = (scope: BuiltinScope) => BuiltinTool

/** A command as list_commands and find_commands show it: whether the caller's host lists it as a tool, and under which name. */
export function commandEntry(tool: CommandTool, listed: ReadonlySet<CommandTool>) {
  const isListed = listed.has(tool)
  return {annotations: tool.hints, id: tool.displayId, listed: isListed, summary: tool.summary, tool: isListed ? tool.name : null}
}
