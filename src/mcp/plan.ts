import type {Config} from '@oclif/core'
import {SUPPORTED_PROTOCOL_VERSIONS} from '@modelcontextprotocol/server'

import type {AgentHost} from '../settings/agent-hosts.js'
import type {ExposureChoice, Settings} from '../settings/settings.js'
import type {BuiltinTool} from '../tools/builtins/builtin-tool.js'
import type {CommandTool, Registry} from '../tools/catalog/registry.js'
import type {NotListed, Projection} from '../tools/exposure/projection.js'

import {builtinTools} from '../tools/builtins/all.js'
import {docsIndex, type DocsIndex} from '../tools/builtins/docs-index.js'
import {buildRegistry} from '../tools/catalog/registry.js'
import {UNKNOWN_HOST} from '../settings/agent-hosts.js'
import {hostCommands} from '../tools/exposure/host-exposure.js'
import {entryBytes, LISTING_ENVELOPE_BYTES} from '../tools/exposure/listing.js'
import {GATEWAY_REASON, project} from '../tools/exposure/projection.js'
import {type PlannedPrompt, planPrompts} from './prompts.js'
import {agentInstructions, type AgentInstructions} from './instructions.js'

// What a server serves, as data: from the host's config and the settings, the registry, the projection, the built-in
// tools and what each host is listed (buildServerPlan). It runs nothing: the servers pair it with a call environment
// (tools/execution/call-environment.ts, made by lifecycle.ts), and `mcp tools`, `mcp skill` and `mcp config` read it alone.

/** The revisions the SDK serves: the 2026-07-28 (modern) era next to the 2025 (legacy) ones it lists. */
export const PROTOCOL_REVISIONS: readonly string[] = ['2026-07-28', ...SUPPORTED_PROTOCOL_VERSIONS]

/** One entry of tools/list, in order. */
export type ListedTool = {kind: 'builtin'; tool: BuiltinTool} | {kind: 'command'; tool: CommandTool}

/** What one host is listed: its tool entries in order, its commands, and why each command in reach is not one of them. */
export interface HostView {
  commands: ReadonlySet<CommandTool>
  /** Outside the boundary (with its reason), and in reach but not listed for this host (through run_command). */
  notListed: readonly NotListed[]
  tools: readonly ListedTool[]
}

interface HostViews {
  of(host?: AgentHost): HostView
}

/** Per host (by its id: the inputs are fixed once the plan is made), its view, made on first use. */
function hostViews(projection: Projection, builtins: readonly BuiltinTool[], exposure: ExposureChoice): HostViews {
  const made = new Map<string, HostView>()
  return {
    of(host = UNKNOWN_HOST) {
      let view = made.get(host.id)
      if (!view) {
        const commands = hostCommands(projection, host, exposure, builtins.length)
        const listed = new Set(commands)
        const outside = projection.notListed.filter((entry) => entry.reason !== GATEWAY_REASON)
        const unlisted = [...projection.executable.values()].filter((tool) => !listed.has(tool)).map((tool): NotListed => ({id: tool.id, reason: GATEWAY_REASON}))
        view = {
          commands: listed,
          notListed: [...outside, ...unlisted].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)),
          tools: [...builtins.map((tool) => ({kind: 'builtin' as const, tool})), ...commands.map((tool) => ({kind: 'command' as const, tool}))],
        }
        made.set(host.id, view)
      }

      return view
    },
  }
}

/** What a server serves, built once per process and shared by every server instance and transport; pure data. */
export interface ServerPlan {
  config: Config
  /** The docs search_docs, read_doc and the docs resources serve. */
  docs: DocsIndex
  info: {name: string; title?: string; version: string}
  instructions: AgentInstructions
  /** What tools/list carries for a host no request names, in order (describe_capabilities reports these names). */
  listed: readonly ListedTool[]
  /** What tools/list carries for this host, in order: the built-ins, then its commands (host-exposure.ts). */
  listedFor(host?: AgentHost): readonly ListedTool[]
  /** The commands this host lists as tools of their own. */
  commandsFor(host?: AgentHost): ReadonlySet<CommandTool>
  /** What this host is listed, in full: its tools, its commands, and why each other command is not listed. */
  viewFor(host?: AgentHost): HostView
  /** Every tool a call may name: the built-ins and every command in reach (a host may list any of them). */
  callable: readonly ListedTool[]
  projection: Projection
  /** The author's prompts (oclif.mcp.prompts), compiled. */
  prompts: readonly PlannedPrompt[]
  registry: Registry
  settings: Settings
}

/**
 * The registry from the CLI's metadata, the projection of it this server exposes, the built-in tools and the
 * tools/list order. The byte budget bounds the whole tools/list: the built-ins' entries are measured once (they
 * depend on the boundary, never on the band) and the band is fitted to what they leave, when it is first needed.
 */
export function buildServerPlan(config: Config, settings: Settings, shared?: Pick<ServerPlan, 'docs' | 'registry'>): ServerPlan {
  const registry = shared?.registry ?? buildRegistry(config, settings)
  const docs = shared?.docs ?? docsIndex(config, settings.author.docs ?? [])
  let builtins: readonly BuiltinTool[] = []
  const projection = project(registry, settings, () => builtins.reduce((sum, tool) => sum + entryBytes(tool, tool.schema), LISTING_ENVELOPE_BYTES))
  // The built-ins ask, when called, what the caller's host lists: the views are made once the built-ins are.
  let views: HostViews | undefined
  builtins = builtinTools({config, docs, listingOf: (host) => views!.of(host), projection, revisions: PROTOCOL_REVISIONS})
  views = hostViews(projection, builtins, settings.projection.exposure)
  const byId = [...projection.executable.values()].sort((a, b) => (a.id < b.id ? -1 : 1))
  const made = views
  return {
    callable: [...builtins.map((tool) => ({kind: 'builtin' as const, tool})), ...byId.map((tool) => ({kind: 'command' as const, tool}))],
    commandsFor: (host) => made.of(host).commands,
    config,
    docs,
    info: {name: config.bin, version: config.version, ...(settings.author.title ? {title: settings.author.title} : {})},
    instructions: agentInstructions(config, settings, projection),
    // A getter: what a host no request names is listed is worked out when first asked (tools/list, mcp tools), not
    // before the server's first answer (it fits the band).
    get listed() {
      return made.of().tools
    },
    listedFor: (host) => made.of(host).tools,
    projection,
    prompts: planPrompts(config, settings.author.prompts, projection),
    registry,
    settings,
    viewFor: (host) => made.of(host),
  }
}

/**
 * The same server narrowed to its read-only commands, as `--read-only` would make it: what a request whose OAuth
 * token carries only the read scope is served (its tools/list, typed tools, run_command, references and prompts).
 * It shares the registry and the docs with the full plan (and the servers run both with one call environment).
 */
export function readOnlyPlan(plan: ServerPlan): ServerPlan {
  if (plan.projection.readOnly) return plan
  const {config, settings} = plan
  return buildServerPlan(config, {...settings, projection: {...settings.projection, readOnly: true}}, plan)
}
