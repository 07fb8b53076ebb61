import type {ToolAnnotationSettings} from '../config.js'

export interface Hints {
  destructiveHint: boolean
  idempotentHint: boolean
  openWorldHint: boolean
  readOnlyHint: boolean
  title?: string
}

export type HintSource = 'author' | 'default' | 'topic' | 'verb'

/** What the MCP specification tells clients to assume when a tool says nothing: the conservative reading. */
export const SPEC_DEFAULTS: Hints = {destructiveHint: true, idempotentHint: false, openWorldHint: true, readOnlyHint: false}
const READ_ONLY: Hints = {destructiveHint: false, idempotentHint: true, openWorldHint: true, readOnlyHint: true}

const READ_VERBS = new Set([
  'cat', 'check', 'count', 'describe', 'diff', 'display', 'doctor', 'explain', 'find', 'get', 'help', 'history', 'info',
  'inspect', 'list', 'log', 'logs', 'ls', 'preview', 'print', 'query', 'read', 'report', 'search', 'show', 'stat',
  'stats', 'status', 'tail', 'validate', 'version', 'view', 'which', 'whoami',
])
const DESTRUCTIVE_VERBS = new Set([
  'clear', 'delete', 'destroy', 'drop', 'erase', 'kill', 'overwrite', 'prune', 'purge', 'remove', 'reset', 'revoke',
  'rm', 'rollback', 'truncate', 'uninstall', 'unset', 'wipe',
])
const WRITE_VERBS = new Set([
  'add', 'apply', 'assign', 'attach', 'build', 'cancel', 'clone', 'commit', 'copy', 'create', 'deploy',
  'disable', 'done', 'edit', 'enable', 'export', 'generate', 'import', 'init', 'install', 'link', 'login', 'logout',
  'mark', 'merge', 'move', 'new', 'open', 'promote', 'publish', 'push', 'rename', 'restart', 'retrieve', 'run', 'scale',
  'set', 'start', 'stop', 'sync', 'tag', 'unlink', 'update', 'upgrade', 'upload', 'write',
])
/** Verbs whose second run with the same arguments changes nothing more. */
const IDEMPOTENT_VERBS = new Set(['disable', 'done', 'enable', 'mark', 'set', 'unset'])

/**
 * Hints from the command id's verb. The id's words (split on `:`, space and `-`) are read from last to first and the
 * first known verb decides: `project:deploy:report` reads as `report` (read-only), `org:delete:scratch` as `delete`.
 */
export function hintsFromId(id: string): Hints | undefined {
  const words = id.toLowerCase().split(/[:\s-]+/).reverse()
  for (const word of words) {
    if (READ_VERBS.has(word)) return {...READ_ONLY}
    if (DESTRUCTIVE_VERBS.has(word)) return {...SPEC_DEFAULTS, idempotentHint: IDEMPOTENT_VERBS.has(word)}
    if (WRITE_VERBS.has(word)) return {...SPEC_DEFAULTS, destructiveHint: false, idempotentHint: IDEMPOTENT_VERBS.has(word)}
  }

  return undefined
}

/**
 * Annotations for one command: the author's settings (package.json patterns, then the command's static `mcp`
 * property, each overriding the one before) on top of the verb rule, on top of the topic rule (a command named
 * after a topic, like `apps` above `apps:create`, is that topic's listing when no verb says otherwise), on top of
 * the spec's conservative defaults.
 */
export function resolveHints(
  id: string,
  authorLayers: readonly (ToolAnnotationSettings | undefined)[],
  isTopicIndex = false,
): {hints: Hints; source: HintSource} {
  const fromVerb = hintsFromId(id)
  let hints: Hints = {...(fromVerb ?? (isTopicIndex ? READ_ONLY : SPEC_DEFAULTS))}
  let source: HintSource = fromVerb ? 'verb' : isTopicIndex ? 'topic' : 'default'
  for (const given of authorLayers) {
    // A key set to undefined (`readOnlyHint: cond ? true : undefined`) says nothing; it must not blank the hint below.
    const layer = Object.fromEntries(Object.entries(given ?? {}).filter(([, value]) => value !== undefined)) as ToolAnnotationSettings
    if (Object.keys(layer).length === 0) continue
    source = 'author'
    // An author who marks a command read-only means it destroys nothing, even if its verb says otherwise.
    if (layer.readOnlyHint === true) hints = {...hints, destructiveHint: false, idempotentHint: true}
    hints = {...hints, ...layer}
  }

  if (hints.readOnlyHint) hints.destructiveHint = false
  return {hints, source}
}
