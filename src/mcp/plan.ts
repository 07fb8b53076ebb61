import type {Command, Config} from '@oclif/core'

import {resolve} from 'node:path'

import {SUPPORTED_PROTOCOL_VERSIONS} from '@modelcontextprotocol/server'

import type {ListedTool, ServerPlan} from './factory.js'

import {agentInstructions} from './instructions.js'

import {ConfigError, parseAuthorConfig, resolveSettings, type ServerFlags, type Settings} from '../settings/settings.js'
import {commandBuiltins} from '../tools/builtins/command-info.js'
import {docsBuiltins} from '../tools/builtins/docs.js'
import {callEnvironment} from '../tools/execution/pipeline.js'
import {capabilitiesBuiltin} from '../tools/builtins/describe-capabilities.js'
import {gatewayBuiltins} from '../tools/builtins/gateway.js'
import {project} from '../tools/exposure/projection.js'
import {killRunningCommands} from '../tools/execution/child-process.js'
import {buildRegistry} from '../tools/catalog/registry.js'
import {DefaultWorkdir} from '../tools/execution/workdir.js'

/** The revisions the SDK serves: the 2026-07-28 (modern) era next to the 2025 (legacy) ones it lists. */
export const PROTOCOL_REVISIONS: readonly string[] = ['2026-07-28', ...SUPPORTED_PROTOCOL_VERSIONS]

/** Builds what every server instance of this process shares: registry, projection, tools, where commands run. */
export function buildServerPlan(config: Config, settings: Settings): {plan: ServerPlan; workdir: DefaultWorkdir} {
  const registry = buildRegistry(config, settings)
  const projection = project(registry, settings)
  const workdir = new DefaultWorkdir(settings.defaultCwd, config.bin)
  const call = callEnvironment(config, settings, projection, workdir)
  const listed: ListedTool[] = []
  const builtins = [
    capabilitiesBuiltin(projection, () => listed.map((entry) => entry.tool.name)),
    ...commandBuiltins(config, projection, PROTOCOL_REVISIONS),
    ...gatewayBuiltins(config, projection, call),
    ...docsBuiltins(config, settings.author.docs ?? []),
  ]
  listed.push(...builtins.map((tool) => ({kind: 'builtin' as const, tool})), ...projection.band.map((tool) => ({kind: 'command' as const, tool})))
  const plan: ServerPlan = {
    call,
    info: {name: config.bin, version: config.version, ...(settings.author.title ? {title: settings.author.title} : {})},
    instructions: agentInstructions(config, settings, projection),
    listed,
    projection,
    registry,
  }
  return {plan, workdir}
}

/**
 * Settings from the host's `oclif.mcp` section and the command's flags, then the plan. Throws ConfigError (naming
 * the bad key) when the author's settings are invalid.
 */
export function prepareServer(config: Config, flags: ServerFlags): PreparedServer {
  const author = parseAuthorConfig((config.pjson.oclif as {mcp?: unknown}).mcp)
  const settings = resolveSettings(author, {...flags, cwd: flags.cwd && resolve(flags.cwd)})
  const {plan, workdir} = buildServerPlan(config, settings)
  const stopCommands = () => {
    plan.call.workers.close()
    killRunningCommands()
  }

  const dispose = async () => {
    stopCommands()
    await workdir.dispose()
  }

  return {dispose, plan, settings, stopCommands, workdir}
}

export interface PreparedServer {
  /** The end of every server command: no idle worker, no running command, no private working directory left. */
  dispose(): Promise<void>
  plan: ServerPlan
  settings: Settings
  /** Kills idle workers and every running command (their calls end as killed). */
  stopCommands(): void
  workdir: DefaultWorkdir
}

/**
 * prepareServer for a command: invalid author settings end the command with their message (exit 2), nothing
 * half-started.
 */
export function prepareServerFor(command: Command, flags: ServerFlags): PreparedServer {
  try {
    return prepareServer(command.config, flags)
  } catch (error) {
    if (error instanceof ConfigError) command.error(error.message, {exit: 2})
    throw error
  }
}
