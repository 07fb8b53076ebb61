// What the unit tests of the built-in tools (test/tools/builtins) share: the example CLI's config and plans made as a
// server makes them, the scope the factories take, and a call made as the SDK makes it (the input parsed by the tool's
// own schema first, then the handler).
import type {CallToolResult} from '@modelcontextprotocol/server'

import {Config} from '@oclif/core'
import {join} from 'node:path'

import type {ServerFlags} from '../../src/settings/settings.js'
import type {BuiltinScope, BuiltinTool, HostListing} from '../../src/tools/builtins/builtin-tool.js'
import type {CommandTool} from '../../src/tools/catalog/registry.js'
import type {BuiltinName} from '../../src/tools/catalog/tool-names.js'
import type {CallEnvironment} from '../../src/tools/execution/call-environment.js'
import type {CallContext} from '../../src/tools/execution/pipeline.js'

import {buildServerPlan, PROTOCOL_REVISIONS, type ServerPlan} from '../../src/mcp/plan.js'
import {type AuthorConfig, parseAuthorConfig} from '../../src/settings/author-config.js'
import {resolveSettings} from '../../src/settings/settings.js'
import {ROOT} from './taskbox.js'

export const TASKBOX_ROOT = join(ROOT, 'examples/taskbox')

/** The example CLI's oclif config, loaded as its bin script loads it. */
export function loadTaskbox(): Promise<Config> {
  return Config.load(TASKBOX_ROOT)
}

/** The author's `oclif.mcp` section of the example CLI, with `more` keys over it. */
export function taskboxAuthor(config: Config, more: Partial<AuthorConfig> = {}): AuthorConfig {
  const own = (config.pjson.oclif as {mcp?: Record<string, unknown>}).mcp ?? {}
  return parseAuthorConfig({...own, ...more})
}

/**
 * The plan a taskbox server of these flags serves (no prewarmed workers: every command starts cold, and nothing runs
 * before a call). The audit log is off unless asked for, so no test writes to the real data dir of the CLI.
 */
export function taskboxPlan(config: Config, flags: ServerFlags = {}, author: Partial<AuthorConfig> = {}): ServerPlan {
  return buildServerPlan(config, resolveSettings(taskboxAuthor(config, author), {audit: false, workers: 0, ...flags}))
}

/** The scope the plan made its built-ins from. */
export function scopeOf(plan: ServerPlan): BuiltinScope {
  return {config: plan.config, docs: plan.docs, listingOf: (host) => plan.viewFor(host), projection: plan.projection, revisions: PROTOCOL_REVISIONS}
}

/** A built-in of the plan, by name. */
export function builtinOf(plan: ServerPlan, name: BuiltinName): BuiltinTool {
  const found = plan.callable.find((entry) => entry.kind === 'builtin' && entry.tool.name === name)
  if (!found) throw new Error(`the plan has no built-in ${name}`)
  return found.tool as BuiltinTool
}

/** A command of the plan's boundary, by id. */
export function commandOf(plan: ServerPlan, id: string): CommandTool {
  const found = plan.projection.executable.get(id)
  if (!found) throw new Error(`the plan has no command ${id} in reach`)
  return found
}

/** A host's listing made by hand: exactly these commands listed as tools (the seam list/find/describe read `listed` from). */
export function listingOfCommands(commands: readonly CommandTool[]): HostListing {
  return {commands: new Set(commands), notListed: [], tools: commands.map((tool) => ({tool: {name: tool.name}}))}
}

/**
 * A call environment no tool that runs nothing may touch: any property read fails the call, so a tool that answers
 * proves it answered from its scope alone.
 */
export const NO_ENVIRONMENT = new Proxy({} as CallEnvironment, {
  get(_, key) {
    throw new Error(`the call environment was used (${String(key)})`)
  },
})

/**
 * Calls a built-in as the server does: the SDK validates the input against the tool's schema (and refuses the call
 * when it does not fit), then the handler answers with the call's context and the server's call environment.
 */
export async function callBuiltin(tool: BuiltinTool, input: Record<string, unknown> = {}, context: CallContext = {}, env: CallEnvironment = NO_ENVIRONMENT): Promise<CallToolResult> {
  const parsed = tool.schema.safeParse(input)
  if (!parsed.success) throw new Error(`${tool.name} refuses ${JSON.stringify(input)}: ${parsed.error.message}`)
  const answer = await tool.handler(parsed.data as Record<string, unknown>, context, env)
  if (!('content' in answer)) throw new Error(`${tool.name} asked for input instead of answering`)
  return answer as CallToolResult
}

/** Whether the tool's schema takes this input (what the SDK checks before the handler runs). */
export function accepts(tool: BuiltinTool, input: unknown): boolean {
  return tool.schema.safeParse(input).success
}

/** The structured content of a result. */
export function dataOf(result: CallToolResult): Record<string, unknown> {
  return (result.structuredContent ?? {}) as Record<string, unknown>
}

/** The text of every text block of a result, joined. */
export function textsOf(result: CallToolResult): string {
  return result.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('\n')
}

/**
 * A jsonResult's text split in its summary line and the data fenced after it (builtin-tool.ts): the model reads the
 * same data in the text as in structuredContent.
 */
export function fencedOf(result: CallToolResult): {data: unknown; summary: string} {
  const match = /^([^\n]*)\n\n```json\n([\s\S]*)\n```$/.exec(textsOf(result))
  if (!match) throw new Error(`not a summary and fenced JSON: ${textsOf(result).slice(0, 200)}`)
  return {data: JSON.parse(match[2]), summary: match[1]}
}
