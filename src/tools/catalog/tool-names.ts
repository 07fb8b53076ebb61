import {MAX_TOOL_NAME} from '../../settings/server-options.js'
import {shortHash} from './fingerprint.js'

/** Names the server's own tools take; a command whose name would clash gets a hashed suffix instead. */
export const BUILTIN_TOOL_NAMES = [
  'cli_info',
  'list_commands',
  'describe_command',
  'search_docs',
  'read_doc',
  'describe_capabilities',
  'find_commands',
  'run_command',
  'job_status',
  'cancel_job',
  'read_output',
] as const

/** A built-in tool's name: one of BUILTIN_TOOL_NAMES, so no built-in can take a name a command might get. */
export type BuiltinName = (typeof BUILTIN_TOOL_NAMES)[number]

export {MAX_TOOL_NAME, MIN_TOOL_NAME} from '../../settings/server-options.js'

/** `apps:create` → `apps_create`; anything outside `[A-Za-z0-9_-]` becomes `_`. */
export function sanitizeToolName(id: string): string {
  const name = id
    .replaceAll(/[^A-Za-z0-9_-]+/g, '_')
    .replaceAll(/_+/g, '_')
    .replaceAll(/^[_-]+|[_-]+$/g, '')
  return name || 'command'
}

function withSuffix(base: string, suffix: string, max: number): string {
  const room = max - suffix.length - 1
  return `${base.slice(0, room).replace(/[_-]+$/, '')}_${suffix}`
}

/**
 * Tool names for command ids: deterministic, unique, at most `max` characters.
 * A name that is too long, collides with another command's, or with a reserved (built-in) name gets a short hash
 * of the command id appended, so the same id always gets the same name whatever else the CLI contains.
 */
export function assignToolNames(ids: readonly string[], reserved: ReadonlySet<string> = new Set(), max = MAX_TOOL_NAME): Map<string, string> {
  const base = new Map(ids.map((id) => [id, sanitizeToolName(id)]))
  const uses = new Map<string, number>()
  for (const name of base.values()) uses.set(name, (uses.get(name) ?? 0) + 1)

  const names = new Map<string, string>()
  for (const [id, name] of base) {
    const clash = (uses.get(name) ?? 0) > 1 || reserved.has(name) || name.length > max
    names.set(id, clash ? withSuffix(name, shortHash(id), max) : name)
  }

  return names
}
