import type {Settings} from '../../settings/settings.js'
import type {CommandTool, Registry, SkipKind} from '../catalog/registry.js'

import {ConfigError, type Profile} from '../../settings/author-config.js'
import {idOrTopicPattern} from '../../settings/id-globs.js'
import {fitListing, listingBytes} from './listing.js'
import {closeMatches} from './suggest.js'

// Which commands the server offers, and how: the capability boundary (what no caller may reach), the typed band (the
// commands listed as tools of their own) chosen within the host's tool-count and tools/list byte budgets, and the
// reason every other command is not listed.

/** Why a command is not in tools/list. Everything but `gateway` is also outside the capability boundary. */
export type NotListedReason =
  | 'excluded by author config'
  | 'excluded by flag'
  | 'excluded by profile'
  | 'hidden'
  | 'just-in-time plugin stub'
  | 'manages the CLI itself'
  | 'no schema representation'
  | 'outside the typed band (reachable through run_command)'
  | 'read-only mode'
  | 'the MCP server itself'

export interface NotListed {
  detail?: string
  id: string
  reason: NotListedReason
}

/** Why a command in reach is not listed as a tool of its own. */
export const GATEWAY_REASON: NotListedReason = 'outside the typed band (reachable through run_command)'

/** How the typed band was chosen. */
export type BandSource = 'all commands fit' | 'author default profile' | 'default selection' | 'profile flag' | 'tools flag'

/**
 * What this server exposes, decided once: the typed band (listed as tools), the gateway band (reachable through
 * run_command only) and everything else with its reason. `executable` (typed ∪ gateway) is the capability
 * boundary: every execution path refuses a command outside it with the same answer as an unknown command.
 */
export interface Projection {
  band: readonly CommandTool[]
  bandBytes: number
  bandSource: BandSource
  executable: ReadonlyMap<string, CommandTool>
  gateway: readonly CommandTool[]
  /** The commands of the band, for asking whether one is listed as a tool. */
  inBand: ReadonlySet<CommandTool>
  /** maxBytes bounds the whole tools/list: the built-in tools' entries (reservedBytes) and the band's. */
  limits: {maxBytes: number; maxTools: number; reservedBytes: number}
  /** `detail` says more where the reason alone does not (why a command manages the CLI itself). */
  notListed: readonly NotListed[]
  profile: null | string
  readOnly: boolean
  /** The person or the author chose the band (--tools, a profile): known without fitting it. */
  selected: boolean
}

/** The capability boundary alone: which commands any path may run, whatever the band. */
export type Boundary = Pick<Projection, 'executable'>

const SKIP_REASONS: Record<SkipKind, NotListedReason> = {
  author: 'excluded by author config',
  hidden: 'hidden',
  jit: 'just-in-time plugin stub',
  'no-schema': 'no schema representation',
  own: 'the MCP server itself',
  'self-management': 'manages the CLI itself',
}

/** Whether an id matches any of the globs, by id or by topic (see idOrTopicPattern); the globs compiled once. */
function globMatcher(globs: readonly string[] = []): (id: string) => boolean {
  const patterns = globs.map((glob) => idOrTopicPattern(glob))
  return (id) => patterns.some((pattern) => pattern.test(id))
}

function resolveProfile(settings: Settings): {name: null | string; profile?: Profile; source?: BandSource} {
  const {profiles = {}, defaultProfile} = settings.author
  const asked = settings.projection.profile
  if (asked !== undefined) {
    const profile = profiles[asked]
    if (!profile) {
      const known = Object.keys(profiles)
      throw new ConfigError(`No MCP profile named "${asked}". ${known.length > 0 ? `Profiles: ${known.join(', ')}.` : 'This CLI defines none (package.json oclif.mcp.profiles).'}`)
    }

    return {name: asked, profile, source: 'profile flag'}
  }

  if (settings.projection.tools) return {name: null}
  return defaultProfile ? {name: defaultProfile, profile: profiles[defaultProfile], source: 'author default profile'} : {name: null}
}

/**
 * The default band for a CLI too large to list whole: read-only commands first, then commands of the largest
 * top-level topics, then shallower ids, then by id. Deterministic, and it favours the look-around commands an
 * agent needs first; everything else stays reachable through find_commands and run_command.
 */
export function defaultOrder(tools: readonly CommandTool[]): CommandTool[] {
  const topicSize = new Map<string, number>()
  const root = (t: CommandTool) => t.id.split(':')[0]
  for (const tool of tools) topicSize.set(root(tool), (topicSize.get(root(tool)) ?? 0) + 1)
  const keyed = tools.map((t) => ({key: [t.hints.readOnlyHint ? 0 : 1, -(topicSize.get(root(t)) ?? 0), t.id.split(':').length] as const, tool: t}))
  keyed.sort(({key: x, tool: a}, {key: y, tool: b}) => x[0] - y[0] || x[1] - y[1] || x[2] - y[2] || (a.id < b.id ? -1 : 1))
  return keyed.map(({tool}) => tool)
}

/** The most command tools a host that defers tools loads up front, and the most bytes their entries may take. */
const FIRST_LOADED = {bytes: 12 * 1024, tools: 8}

/**
 * The commands a host that defers its tools loads up front (`anthropic/alwaysLoad`): the first of the band in the
 * default order (read-only first, the largest topics), as many as fit FIRST_LOADED. The rest waits for the host's
 * own search, find_commands and run_command, which load up front too (host-meta.ts).
 */
export function firstLoaded(projection: Pick<Projection, 'band'>): Set<CommandTool> {
  return new Set(fitListing(defaultOrder(projection.band), FIRST_LOADED.tools, FIRST_LOADED.bytes).band)
}

/**
 * The projection, as a pipeline: registry → drop --exclude / profile exclusions → drop mutating commands in
 * read-only mode (the boundary) → choose the band: --tools, else the profile, else the author's default profile,
 * else every command if they all fit, else the default order → fit the band to the tool and byte budgets.
 * `reserved` is what the rest of tools/list takes (the built-in tools, which are made from this projection's boundary,
 * so it is asked only when the band is fitted): the band gets the byte budget less that.
 */
export function project(registry: Registry, settings: Settings, reserved: () => number = () => 0): Projection {
  const {exclude, maxTools} = settings.projection
  let reservedBytes: number | undefined
  const reservation = () => (reservedBytes ??= reserved())
  const {name, profile, source} = resolveProfile(settings)
  const readOnly = settings.projection.readOnly || Boolean(profile?.readOnly)
  const notListed: NotListed[] = registry.skipped.map((s) => ({
    id: s.id,
    reason: SKIP_REASONS[s.kind],
    ...(s.kind === 'self-management' || s.kind === 'no-schema' ? {detail: s.reason} : {}),
  }))

  const excluded = globMatcher(exclude)
  const profileExcluded = globMatcher(profile?.exclude)
  const boundary: CommandTool[] = []
  for (const tool of registry.tools) {
    if (excluded(tool.id)) notListed.push({id: tool.id, reason: 'excluded by flag'})
    else if (profileExcluded(tool.id)) notListed.push({id: tool.id, reason: 'excluded by profile'})
    else if (readOnly && !tool.hints.readOnlyHint) notListed.push({id: tool.id, reason: 'read-only mode'})
    else boundary.push(tool)
  }

  const selector = settings.projection.tools ?? profile?.include
  // The band is fitted on first use (tools/list, a built-in that names it): fitting builds the schemas of the
  // commands it weighs, which a server's first answer (initialize, server/discover) does not need.
  let chosen: {band: CommandTool[]; bandSource: BandSource; bytes: number; gateway: CommandTool[]; inBand: Set<CommandTool>; notListed: NotListed[]} | undefined
  const choose = () => {
    if (chosen) return chosen
    const maxBytes = Math.max(0, settings.projection.maxBytes - reservation())
    const allBytes = !selector && boundary.length <= maxTools ? boundary.reduce((sum, t) => sum + listingBytes(t), 0) : Infinity
    let bandSource: BandSource
    let fitted: {band: readonly CommandTool[]; bytes: number}
    if (selector) {
      const selected = globMatcher(selector)
      fitted = fitListing(
        boundary.filter((t) => selected(t.id)),
        maxTools,
        maxBytes,
      )
      bandSource = settings.projection.tools ? 'tools flag' : source!
    } else if (allBytes <= maxBytes) {
      fitted = {band: boundary, bytes: allBytes}
      bandSource = 'all commands fit'
    } else {
      fitted = fitListing(defaultOrder(boundary), maxTools, maxBytes)
      bandSource = 'default selection'
    }

    const inBand = new Set(fitted.band)
    const gateway = boundary.filter((t) => !inBand.has(t))
    const outside = gateway.map((tool): NotListed => ({id: tool.id, reason: GATEWAY_REASON}))
    const all = [...notListed, ...outside].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    chosen = {band: [...fitted.band].sort((a, b) => (a.id < b.id ? -1 : 1)), bandSource, bytes: fitted.bytes, gateway, inBand, notListed: all}
    return chosen
  }

  return {
    get band() {
      return choose().band
    },
    get bandBytes() {
      return choose().bytes
    },
    get bandSource() {
      return choose().bandSource
    },
    executable: new Map(boundary.map((t) => [t.id, t])),
    get gateway() {
      return choose().gateway
    },
    get inBand() {
      return choose().inBand
    },
    get limits() {
      return {maxBytes: settings.projection.maxBytes, maxTools, reservedBytes: reservation()}
    },
    get notListed() {
      return choose().notListed
    },
    profile: name,
    readOnly,
    selected: selector !== undefined,
  }
}

/**
 * Whether what a run left (a job, a kept output) may be seen by a request: one that may only read (--read-only, an
 * OAuth read scope) sees only runs of read-only commands, as if the others did not exist; every other request all.
 */
export function visibleRun(boundary: Boundary, readOnly: boolean, command: string | undefined): boolean {
  return !readOnly || (command !== undefined && findExecutable(boundary, command)?.hints.readOnlyHint === true)
}

/** A command inside the capability boundary, by id (`apps:create` or `apps create`), tool name or alias. */
export function findExecutable(projection: Boundary, name: string): CommandTool | undefined {
  const wanted = name.trim()
  const id = wanted.replaceAll(/\s+/g, ':')
  const byId = projection.executable.get(id)
  if (byId) return byId
  for (const tool of projection.executable.values()) if (tool.name === wanted) return tool
  // An alias, as describe_command reports it (`tasks rm`) or with colons.
  for (const tool of projection.executable.values()) if (tool.command.aliases?.some((alias) => alias.replaceAll(/\s+/g, ':') === id)) return tool
  return undefined
}

/**
 * The one answer for a command that is unknown or outside the boundary (hidden, excluded, read-only mode): the two
 * cannot be told apart. Suggestions come from inside the boundary only.
 */
export function unknownCommandMessage(projection: Boundary, name: string): string {
  const near = closeMatches(name, [...projection.executable.values()].map((t) => t.displayId))
  return `No command "${name}".${near.length > 0 ? ` Did you mean: ${near.join(', ')}?` : ' Use find_commands or list_commands to see what there is.'}`
}
