import {type Command, type Config, toStandardizedId} from '@oclif/core'

import type {Settings} from '../../settings/settings.js'

import {jsonErrorsKeepMessage} from '../../host/core-version.js'
import {displayId} from '../../host/spelling.js'
import {type CommandSettings, ConfigError, parseCommandSettings} from '../../settings/author-config.js'
import {idPattern} from '../../settings/id-globs.js'
import {callInputs} from './call-inputs.js'
import {commandSummary, renderedDetails, renderTemplate, toolDescription, topicIds} from './help-text.js'
import {type HintSource, resolveHints, toolAnnotations, type ToolAnnotations, type ToolHints, writingFlagReason} from './hints.js'
import {buildToolInput, flagSignature, isExposedFlag, SchemaError, type SchemaOptions, type ToolInput} from './input-schema.js'
import {projectCodeReason, runsGivenInputReason} from './project-code.js'
import {selfManagementReason} from './self-management.js'
import {assignToolNames, BUILTIN_TOOL_NAMES} from './tool-names.js'

/** This package's name as oclif records it on the commands it contributes. */
export const PLUGIN_NAME = 'oclif-plugin-mcp'
export interface CommandTool {
  /** What a client sees in tools/list: the hints plus the title. */
  annotations: ToolAnnotations
  command: Command.Cached
  description: string
  displayId: string
  env: Record<string, string>
  /** In words, what decided the hints (see classifyCommand). */
  hintEvidence: string[]
  /** How long a call waits for the command before it goes on as a job (never longer than timeoutMs). */
  foregroundMs: number
  hintSource: HintSource
  /** The annotations without the title: what list_commands, find_commands and `mcp tools` show. */
  hints: ToolHints
  id: string
  input: ToolInput
  /** The command takes `--json` (oclif's enableJsonFlag): its output becomes structuredContent. */
  json: boolean
  name: string
  summary: string
  /** How long the command may run in all, as a job included. */
  timeoutMs: number
  title: string
  topic: string
  /** Flags of a read-only command left out of its input because they would change something. */
  withheldFlags: {name: string; reason: string}[]
}

/** Why a command is not a tool at all. */
export type SkipKind = 'author' | 'hidden' | 'jit' | 'no-schema' | 'own' | 'self-management'

export interface Registry {
  byId: ReadonlyMap<string, CommandTool>
  byName: ReadonlyMap<string, CommandTool>
  /** Commands left out on purpose, with the reason. */
  skipped: {id: string; kind: SkipKind; reason: string}[]
  tools: readonly CommandTool[]
}

/** Flags carried by at least this many commands, and by a quarter of them, get a one-line description. */
const COMMON_FLAG_MIN = 10

/** oclif files an alias under its `:` spelling, while `aliases` keeps it as written (`data fetch` in a space-separated CLI). */
function isAliasEntry(command: Command.Cached, config: Config): boolean {
  return (command.aliases ?? []).some((alias) => toStandardizedId(alias, config) === command.id)
}

function skipReason(command: Command.Cached, settings: CommandSettings, config: Config, allowedSelf: (id: string) => boolean): {kind: SkipKind; reason: string} | undefined {
  if (command.pluginName === PLUGIN_NAME) return {kind: 'own', reason: 'the MCP server itself'}
  if (command.pluginType === 'jit') return {kind: 'jit', reason: 'just-in-time plugin stub (running it would install a plugin)'}
  if (command.hidden) return {kind: 'hidden', reason: 'hidden'}
  if (settings.exclude) return {kind: 'author', reason: 'excluded by the CLI author'}
  const self = allowedSelf(command.id) ? undefined : selfManagementReason(command, commandSummary(command, config))
  if (self) return {kind: 'self-management', reason: `manages the CLI itself: ${self} (an author can expose it with oclif.mcp.allowSelfManagement)`}
  return undefined
}

function commonFlagSignatures(commands: readonly Command.Cached[], omit: ReadonlySet<string>): Set<string> {
  const counts = new Map<string, number>()
  for (const command of commands) {
    for (const flag of Object.values(command.flags ?? {})) {
      if (!isExposedFlag(flag, omit, command)) continue
      const signature = flagSignature(flag)
      counts.set(signature, (counts.get(signature) ?? 0) + 1)
    }
  }

  const threshold = Math.max(COMMON_FLAG_MIN, commands.length / 4)
  return new Set([...counts].filter(([, n]) => n >= threshold).map(([signature]) => signature))
}

/** The author's `oclif.mcp.commands` patterns, compiled once, in order. */
type AuthorPatterns = readonly (readonly [RegExp, CommandSettings])[]

/** The author's settings for one command: matching package.json patterns in order, then the static `mcp` property. */
function settingsLayers(command: Command.Cached, patterns: AuthorPatterns): CommandSettings[] {
  const matching = patterns.filter(([pattern]) => pattern.test(command.id)).map(([, value]) => value)
  const ownProperty = (command as Command.Cached & {mcp?: unknown}).mcp
  return ownProperty === undefined ? matching : [...matching, parseCommandSettings(ownProperty, command.id)]
}

/** A command kept for the registry, with the author's settings layers for it and their merge. */
interface Chosen {
  command: Command.Cached
  layers: CommandSettings[]
  merged: CommandSettings
}

function describeCommandTool(
  {command, layers, merged}: Chosen,
  config: Config,
  settings: Settings,
  schemaOptions: Omit<SchemaOptions, 'serverShape'>,
  inputs: ReturnType<typeof callInputs>,
  topics: ReadonlySet<string>,
  jsonOk: boolean,
): Omit<CommandTool, 'name'> {
  const shownId = displayId(command.id, config)
  const summary = commandSummary(command, config)
  const authorHints = layers.map((l) => l.annotations)
  const exposedFlags = Object.values(command.flags ?? {}).filter((flag) => isExposedFlag(flag, schemaOptions.omitFlags, command))
  const writing = exposedFlags.flatMap((flag) => {
    const reason = writingFlagReason({...flag, summary: flag.summary && renderTemplate(flag.summary, config, command)})
    return reason ? [{flag, reason}] : []
  })
  const details = renderedDetails(command, config)
  const argumentNames = Object.values(command.args ?? {}).map((arg) => arg.name)
  const resolved = resolveHints({argumentNames, details, id: command.id, isTopicIndex: topics.has(command.id), summary, writingFlags: writing.length > 0}, authorHints)
  let {hints} = resolved
  const evidence = [...resolved.evidence]
  // A reading verb is not enough when the command runs the project's own code first (its build, install, scripts).
  const runsCode = hints.readOnlyHint && resolved.source !== 'author' && projectCodeReason({flags: Object.values(command.flags ?? {}), text: `${summary}\n${details}`})
  // Nor when what it runs is whatever it is given (an arbitrary query, a script, a request of any method).
  const runsInput = hints.readOnlyHint && resolved.source !== 'author' && !runsCode && runsGivenInputReason({flags: Object.values(command.flags ?? {}), text: `${summary}\n${details}`})
  if (runsCode || runsInput) {
    evidence.push((runsCode || runsInput) as string)
    hints = {...hints, destructiveHint: false, idempotentHint: false, readOnlyHint: false}
  }
  // A read-only command keeps its label whatever the model passes: flags that would change something are left out.
  let withheld: {name: string; reason: string}[] = []
  if (hints.readOnlyHint) {
    const required = writing.find(({flag}) => flag.required)
    if (required && resolved.source !== 'author') {
      // A flag that cannot be left out and that writes: the command writes.
      evidence.push(`required flag --${required.flag.name} writes: ${required.reason}`)
      hints = {...hints, destructiveHint: false, idempotentHint: false, readOnlyHint: false}
    } else {
      withheld = writing.filter(({flag}) => !flag.required).map(({flag, reason}) => ({name: flag.name, reason}))
    }
  }

  const omitFlags = withheld.length > 0 ? new Set([...schemaOptions.omitFlags, ...withheld.map((w) => w.name)]) : schemaOptions.omitFlags
  const options = {...schemaOptions, omitFlags, serverShape: hints.readOnlyHint ? inputs.reading : inputs.writing}
  const {title: authorTitle, ...flags} = hints
  const title = authorTitle ?? `${config.bin} ${shownId}`
  const timeoutMs = merged.timeout ? merged.timeout * 1000 : settings.timeoutMs
  return {
    annotations: toolAnnotations(flags, title),
    command,
    description: toolDescription(command, config, summary, details),
    displayId: shownId,
    env: {...settings.author.env, ...Object.assign({}, ...layers.map((l) => l.env))},
    foregroundMs: Math.min(merged.foreground ? merged.foreground * 1000 : settings.foregroundMs, timeoutMs),
    hintEvidence: evidence,
    hintSource: resolved.source,
    hints: flags,
    id: command.id,
    input: buildToolInput(command, options),
    // On hosts whose --json errors lose their message, commands answer in text: the model must read why they failed.
    json: Boolean(command.enableJsonFlag) && jsonOk,
    summary,
    timeoutMs,
    title,
    topic: command.id.includes(':') ? command.id.slice(0, command.id.lastIndexOf(':')) : '',
    withheldFlags: withheld,
  }
}

/**
 * One tool per canonical command, from manifest metadata only (no command class is loaded).
 * Drops alias entries, hidden commands, JIT stubs, this plugin's own commands and what the author excludes.
 */
export function buildRegistry(config: Config, settings: Settings): Registry {
  const skipped: Registry['skipped'] = []
  const chosen: Chosen[] = []
  const seen = new Set<string>()
  const patterns: AuthorPatterns = Object.entries(settings.author.commands ?? {}).map(([glob, value]) => [idPattern(glob), value] as const)
  const allowed = (settings.author.allowSelfManagement ?? []).map((glob) => idPattern(glob))
  const allowedSelf = (id: string) => allowed.some((pattern) => pattern.test(id))
  for (const command of config.commands) {
    if (isAliasEntry(command, config) || seen.has(command.id)) continue
    seen.add(command.id)
    const layers = settingsLayers(command, patterns)
    const merged = Object.assign({}, ...layers) as CommandSettings
    const skip = skipReason(command, merged, config, allowedSelf)
    if (skip) skipped.push({id: command.id, ...skip})
    else chosen.push({command, layers, merged})
  }

  chosen.sort((a, b) => (a.command.id < b.command.id ? -1 : 1))
  const omitFlags = new Set(settings.author.omitFlags ?? [])
  const schemaOptions = {
    commonFlags: commonFlagSignatures(
      chosen.map((c) => c.command),
      omitFlags,
    ),
    omitFlags,
    optionalFlags: new Set(settings.author.optionalFlags ?? []),
    secretFlags: new Set(settings.author.secretFlags ?? []),
  }
  const inputs = callInputs(settings)
  const topics = topicIds(chosen.map(({command}) => command.id))
  const jsonOk = jsonErrorsKeepMessage(config)
  const built: Omit<CommandTool, 'name'>[] = []
  for (const entry of chosen) {
    try {
      built.push(describeCommandTool(entry, config, settings, schemaOptions, inputs, topics, jsonOk))
    } catch (error) {
      if (error instanceof ConfigError) throw error
      // One command we cannot describe faithfully must not take the other tools (or the server) down.
      const reason = error instanceof SchemaError ? error.message : `unreadable metadata: ${error instanceof Error ? error.message : String(error)}`
      skipped.push({id: entry.command.id, kind: 'no-schema', reason})
    }
  }

  const names = assignToolNames(
    built.map((t) => t.id),
    new Set(BUILTIN_TOOL_NAMES),
    settings.projection.maxToolName,
  )
  const tools = built.map((tool): CommandTool => ({...tool, name: names.get(tool.id)!}))

  return {
    byId: new Map(tools.map((t) => [t.id, t])),
    byName: new Map(tools.map((t) => [t.name, t])),
    skipped,
    tools,
  }
}
