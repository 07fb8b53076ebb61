import type {Config} from '@oclif/core'
import {SUPPORTED_PROTOCOL_VERSIONS} from '@modelcontextprotocol/server'

import type {AgentHost} from '../settings/agent-hosts.js'
import type {ExposureChoice, Settings} from '../settings/settings.js'
import type {BuiltinTool} from '../tools/builtins/builtin-tool.js'
import type {CommandTool, Registry} from '../tools/catalog/registry.js'
import type {NotListed, Projection} from '../tools/exposure/projection.js'

import {cliInfoTool} from '../tools/builtins/cli-info.js'
import {describeCapabilitiesTool} from '../tools/builtins/describe-capabilities.js'
import {describeCommandTool} from '../tools/builtins/describe-command.js'
import {docsIndex, type DocsIndex, docsTools} from '../tools/builtins/docs.js'
import {findCommandsTool} from '../tools/builtins/find-commands.js'
import {cancelJobTool, jobStatusTool} from '../tools/builtins/jobs.js'
import {listCommandsTool} from '../tools/builtins/list-commands.js'
import {readOutputTool} from '../tools/builtins/read-output.js'
import {runCommandTool} from '../tools/builtins/run-command.js'
import {buildRegistry} from '../tools/catalog/registry.js'
import {type CallEnvironment, createCallEnvironment} from '../tools/execution/call-environment.js'
import {UNKNOWN_HOST} from '../settings/agent-hosts.js'
import {hostCommands} from '../tools/exposure/host-exposure.js'
import {entryBytes, LISTING_ENVELOPE_BYTES} from '../tools/exposure/listing.js'
import {GATEWAY_REASON, project} from '../tools/exposure/projection.js'
import {type PlannedPrompt, planPrompts} from './prompts.js'
import {agentInstructions, type AgentInstructions} from './instructions.js'

// The composition root: from the host's config and the settings, the registry, the projection, the call environment
// and the precomputed tools/list of one server (buildServerPlan). The factory registers from it.

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

/** Everything the factory reads; built once per process, shared by every server instance and transport. */
export interface ServerPlan {
  /** What calls run with; its dispose() ends everything the server's calls leave running. */
  call: CallEnvironment
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
}

/**
 * The composition root: the registry from the CLI's metadata, the projection of it this server exposes, the call
 * environment, the built-in tools and the tools/list order. Nothing runs and nothing is started yet.
 */
export function buildServerPlan(config: Config, settings: Settings, shared?: Pick<ServerPlan, 'call' | 'docs' | 'registry'>): ServerPlan {
  const registry = shared?.registry ?? buildRegistry(config, settings)
  // The byte budget bounds the whole tools/list. The built-in tools' entries do not depend on which commands are in
  // the band (only on the boundary, the same for any band), so they are measured against the band that ignores
  // them; the band is then fitted to what they leave, and the built-ins are made again for the projection they report.
  const unreserved = project(registry, settings)
  // Warm workers import the listed commands ahead: the band's, fitted by the time a worker starts (after a call).
  let listedIds = (): readonly string[] => []
  const call = shared?.call ?? createCallEnvironment(config, settings, unreserved, () => listedIds())
  const docs = shared?.docs ?? docsIndex(config, settings.author.docs ?? [])
  // The built-ins ask, when called, what the caller's host lists: the views are made once the final projection is.
  let views: HostViews | undefined
  const builtinsFor = (projection: Projection): BuiltinTool[] => [
    describeCapabilitiesTool(projection, (host) => views!.of(host)),
    cliInfoTool(config, projection, PROTOCOL_REVISIONS, (host) => views!.of(host).commands),
    listCommandsTool(config, projection, (host) => views!.of(host).commands),
    describeCommandTool(config, projection, (host) => views!.of(host).commands),
    findCommandsTool(config, projection, (host) => views!.of(host).commands),
    runCommandTool(config, projection, call),
    jobStatusTool(call),
    cancelJobTool(call),
    readOutputTool(call),
    ...docsTools(config, docs),
  ]
  const reserved = builtinsFor(unreserved).reduce((sum, tool) => sum + entryBytes(tool, tool.schema), LISTING_ENVELOPE_BYTES)
  const projection = project(registry, settings, reserved)
  if (!shared) listedIds = () => projection.band.map((tool) => tool.id)
  const builtins = builtinsFor(projection)
  views = hostViews(projection, builtins, settings.projection.exposure)
  const byId = [...projection.executable.values()].sort((a, b) => (a.id < b.id ? -1 : 1))
  const made = views
  return {
    call,
    callable: [...builtins.map((tool) => ({kind: 'builtin' as const, tool})), ...byId.map((tool) => ({kind: 'command' as const, tool}))],
    commandsFor: (host) => made.of(host).commands,
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
    viewFor: (host) => made.of(host),
  }
}

/**
 * The same server narrowed to its read-only commands, as `--read-only` would make it: what a request whose OAuth
 * token carries only the read scope is served (its tools/list, typed tools, run_command, references and prompts).
 * It shares the registry, the docs and the call environment (workers, jobs, limits) with the full plan.
 */
export function readOnlyPlan(plan: ServerPlan): ServerPlan {
  if (plan.projection.readOnly) return plan
  const {config, settings} = plan.call
  return buildServerPlan(config, {...settings, projection: {...settings.projection, readOnly: true}}, plan)
}
