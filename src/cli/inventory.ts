import type {ToolHints} from '../tools/catalog/hints.js'
import type {BandSource, NotListedReason} from '../tools/exposure/projection.js'
import type {ServerPlan} from '../mcp/plan.js'

import {agentHostOf} from '../settings/agent-hosts.js'

/** One entry of tools/list, in the order the server registers it. */
export interface InventoryTool {
  annotations: ToolHints
  /** The command the tool runs (as people type it); null for a built-in tool. */
  command: null | string
  kind: 'builtin' | 'command'
  name: string
}

/** A command inside the capability boundary: listed as a tool, or reachable through run_command only. */
export interface InventoryCommand {
  annotations: ToolHints
  /** What decided the annotations, in words (see classifyCommand). */
  evidence: string[]
  id: string
  listed: boolean
  /** Its tool name when listed; null when only run_command reaches it. */
  tool: null | string
  /** Flags left out of a read-only command's input because they would change something. */
  withheldFlags?: string[]
}

/** What a server started with the same flags exposes: read off the plan, never recomputed. */
export interface Inventory {
  commands: InventoryCommand[]
  limits: {maxBytes: number; maxTools: number}
  /** The exact tool names tools/list carries, in order. */
  listed: string[]
  notListed: {command: string; detail?: string; reason: NotListedReason}[]
  profile: {name: null | string; source: BandSource}
  readOnly: boolean
  tools: InventoryTool[]
  totals: {
    builtinTools: number
    commandTools: number
    gatewayCommands: number
    notListed: Partial<Record<NotListedReason, number>>
    reachableCommands: number
    toolsListed: number
    typedBandBytes: number
  }
}

/** What a server of this plan lists for the host its --client names (a host no request names, without it). */
export function takeInventory(plan: ServerPlan): Inventory {
  const {projection} = plan
  const view = plan.viewFor(agentHostOf(undefined, plan.settings.agentHost))
  const listedCommands = view.commands
  const tools = view.tools.map(
    ({kind, tool}): InventoryTool => ({annotations: tool.hints, command: kind === 'builtin' ? null : tool.displayId, kind, name: tool.name}),
  )
  const commands = [...projection.executable.values()]
    .sort((a, b) => (a.id < b.id ? -1 : 1))
    .map((t): InventoryCommand => ({
      annotations: t.hints,
      evidence: t.hintEvidence,
      id: t.displayId,
      listed: listedCommands.has(t),
      tool: listedCommands.has(t) ? t.name : null,
      ...(t.withheldFlags.length > 0 ? {withheldFlags: t.withheldFlags.map((w) => w.name)} : {}),
    }))
  const notListed: Inventory['totals']['notListed'] = {}
  for (const {reason} of view.notListed) notListed[reason] = (notListed[reason] ?? 0) + 1
  return {
    commands,
    limits: projection.limits,
    listed: tools.map((t) => t.name),
    notListed: view.notListed.map(({detail, id, reason}) => ({command: id, reason, ...(detail ? {detail} : {})})),
    profile: {name: projection.profile, source: projection.bandSource},
    readOnly: projection.readOnly,
    tools,
    totals: {
      builtinTools: tools.filter((t) => t.kind === 'builtin').length,
      commandTools: listedCommands.size,
      gatewayCommands: projection.executable.size - listedCommands.size,
      notListed,
      reachableCommands: projection.executable.size,
      toolsListed: tools.length,
      typedBandBytes: projection.bandBytes,
    },
  }
}

/** Hints in a few characters: `ro`/`rw`, then `destructive`, `idempotent`, `open-world` when set. */
export function compactHints(hints: ToolHints): string {
  return [
    hints.readOnlyHint ? 'ro' : 'rw',
    ...(hints.destructiveHint ? ['destructive'] : []),
    ...(hints.idempotentHint ? ['idempotent'] : []),
    ...(hints.openWorldHint ? ['open-world'] : []),
  ].join(' ')
}

function table(headers: readonly string[], rows: readonly (readonly string[])[]): string[] {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)))
  const line = (cells: readonly string[]) => cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]))).join('  ')
  return [line(headers), line(widths.map((w) => '─'.repeat(w))), ...rows.map((r) => line(r))]
}

/**
 * For people: one row per listed tool and per command reachable only through run_command, then the totals.
 * EXPOSED says how each is reached: `built-in`, `listed` (a typed tool) or `run_command` (the gateway).
 */
export function formatInventory(inventory: Inventory): string {
  const rows = [
    ...inventory.tools.map((t) => [t.name, t.command ?? '—', compactHints(t.annotations), t.kind === 'builtin' ? 'built-in' : 'listed']),
    ...inventory.commands.filter((c) => !c.listed).map((c) => ['—', c.id, compactHints(c.annotations), 'run_command']),
  ]
  const {limits, totals} = inventory
  const reasons = Object.entries(totals.notListed)
    .filter(([reason]) => reason !== 'outside the typed band (reachable through run_command)')
    .map(([reason, count]) => `${reason}: ${count}`)
  const profile = inventory.profile.name ? `profile ${inventory.profile.name} (${inventory.profile.source})` : inventory.profile.source
  return [
    ...table(['TOOL', 'COMMAND', 'HINTS', 'EXPOSED'], rows),
    '',
    `Tools listed:        ${totals.toolsListed} (${totals.builtinTools} built-in, ${totals.commandTools} command tools)`,
    `Typed band:          ${totals.typedBandBytes} bytes (limits: ${limits.maxTools} tools, ${limits.maxBytes} bytes; ${profile})`,
    `Reachable commands:  ${totals.reachableCommands} (${totals.commandTools} listed, ${totals.gatewayCommands} through run_command)`,
    `Not reachable:       ${reasons.length > 0 ? reasons.join(', ') : 'none'}`,
    `Mode:                ${inventory.readOnly ? 'read-only' : 'read-write'}`,
    'HINTS: ro read-only, rw may change state; destructive, idempotent, open-world as the tool declares.',
  ].join('\n')
}
