import type {Tool} from '@modelcontextprotocol/server'
import type * as z from 'zod'

import type {ToolAnnotations} from '../catalog/hints.js'
import type {CommandTool} from '../catalog/registry.js'

import {toJsonSchema} from '../catalog/input-schema.js'

// The tools/list byte budget: the one shape of an entry, its size in bytes, and fitting entries into the budget (the
// projection chooses which commands are candidates, in which order; the plan reserves the built-ins' bytes).

/** What tools/list shows of a tool, a command's or a built-in one. */
export interface Listable {
  annotations: ToolAnnotations
  description: string
  name: string
  title: string
}

function entry(tool: Listable, inputSchema: Record<string, unknown>, meta?: Record<string, unknown>): Tool {
  return {annotations: tool.annotations, description: tool.description, inputSchema: inputSchema as Tool['inputSchema'], name: tool.name, title: tool.title, ...(meta ? {_meta: meta} : {})}
}

/**
 * A tool's tools/list entry: the one shape the server lists (src/mcp/factory.ts) and the byte budget counts, made as
 * the SDK's own handler makes it (the same fields, `type: 'object'` at the root of the input schema), less the
 * schema's `$schema`: JSON Schema 2020-12 is MCP's default dialect, so naming it costs every tool 56 bytes for nothing.
 */
export function listingEntry(tool: Listable, schema: z.ZodObject, meta?: Record<string, unknown>): Tool {
  const {$schema: _dialect, ...json} = toJsonSchema(schema)
  return entry(tool, {type: 'object', ...json}, meta)
}

/** Bytes a command tool adds to tools/list. */
export function listingBytes(tool: CommandTool): number {
  return entryBytes(tool, tool.input.schema)
}

/** Bytes one entry adds to tools/list: its JSON and the comma before the next. */
export function entryBytes(tool: Listable, schema: z.ZodObject): number {
  return Buffer.byteLength(JSON.stringify(listingEntry(tool, schema))) + 1
}

/** The bytes of tools/list's result around its entries: `{"tools":[]}`. */
export const LISTING_ENVELOPE_BYTES = Buffer.byteLength(JSON.stringify({tools: []}))

/**
 * Never more than what the listing costs, found without building the tool's input schema: its flags and args named,
 * each with an empty schema. Tight enough that a band fitted under a byte budget does not build the schema of every
 * command it passes over (Heroku's 300 left-over commands cost 140 ms of start-up that way).
 */
export function listingFloor(tool: CommandTool): number {
  const properties = Object.fromEntries(tool.input.params.map((param) => [param.property, {}]))
  return Buffer.byteLength(JSON.stringify(entry(tool, {type: 'object', properties, additionalProperties: false}))) + 1
}

/** Takes candidates in order while they fit both budgets; one that does not fit is passed over, not a stop. */
export function fitListing(candidates: readonly CommandTool[], maxTools: number, maxBytes: number): {band: CommandTool[]; bytes: number} {
  const band: CommandTool[] = []
  let bytes = 0
  for (const tool of candidates) {
    if (band.length >= maxTools) break
    // Near the end of the budget most candidates cannot fit whatever their schema: skip those without building it.
    if (bytes + listingFloor(tool) > maxBytes) continue
    const size = listingBytes(tool)
    if (bytes + size > maxBytes) continue
    band.push(tool)
    bytes += size
  }

  return {band, bytes}
}
