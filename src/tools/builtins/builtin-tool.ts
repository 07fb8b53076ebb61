import type * as z from 'zod'

import type {Hints} from '../catalog/hints.js'
import type {CallContext} from '../execution/pipeline.js'
import type {ToolResult} from '../execution/tool-result.js'

/** A tool answered in-process from the CLI's metadata; always read-only. */
export interface BuiltinTool {
  description: string
  handler: (input: Record<string, unknown>, context: CallContext) => Promise<ToolResult> | ToolResult
  /** Defaults to BUILTIN_HINTS (read-only, closed world); a built-in that can change things says so. */
  hints?: Hints
  name: string
  schema: z.ZodObject
  title: string
}

export const BUILTIN_HINTS: Hints = {destructiveHint: false, idempotentHint: true, openWorldHint: false, readOnlyHint: true}

/** A built-in tool's annotations, as tools/list and `mcp tools` give them. */
export function builtinAnnotations(tool: BuiltinTool): Hints & {title: string} {
  return {...(tool.hints ?? BUILTIN_HINTS), title: tool.title}
}

/** A one-line summary for the model, the data fenced as JSON, and the same data as structuredContent. */
export function jsonResult(summary: string, data: Record<string, unknown>): ToolResult {
  return {
    content: [{text: `${summary}\n\n\`\`\`json\n${JSON.stringify(data, null, 2)}\n\`\`\``, type: 'text'}],
    structuredContent: data,
  }
}
