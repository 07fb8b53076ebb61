import type {AgentHost} from '../../settings/agent-hosts.js'
import type {ExposureChoice} from '../../settings/settings.js'
import type {CommandTool} from '../catalog/registry.js'
import type {Projection} from './projection.js'

import {defaultOrder} from './projection.js'

// Which commands a host gets as tools of their own. The typed band (within --max-tools and --max-bytes, the rest
// through find_commands and run_command) was made for a host that puts every tool before its model. A host that
// defers its tools behind a search of its own (Claude Code, Codex: settings/agent-hosts.ts) shows its model names or
// nothing until it searches, so it is served every command in reach, for its search to find; a host that caps its
// tools gets the band within its cap.

export type Exposure = 'band' | 'search'

/**
 * How this host is served: the person's or author's choice, else by the host's kind — unless a band was chosen
 * (`--tools`, a profile): then that is what every host is listed.
 */
export function exposureFor(host: AgentHost, choice: ExposureChoice, selected = false): Exposure {
  if (choice !== 'auto') return choice
  return host.tools === 'deferred' && !selected ? 'search' : 'band'
}

/**
 * The command tools this host lists, in id order: every command in reach for `search`; for `band`, the band, within
 * the host's cap (`builtins` tools take part of it) keeping the band's first in its default order.
 */
export function hostCommands(projection: Pick<Projection, 'band' | 'executable' | 'selected'>, host: AgentHost, choice: ExposureChoice, builtins: number): CommandTool[] {
  const byId = (a: CommandTool, b: CommandTool) => (a.id < b.id ? -1 : 1)
  if (exposureFor(host, choice, projection.selected) === 'search') return [...projection.executable.values()].sort(byId)
  const room = host.toolCap === undefined ? Infinity : Math.max(0, host.toolCap - builtins)
  if (projection.band.length <= room) return [...projection.band]
  return defaultOrder(projection.band).slice(0, room).sort(byId)
}
