import {isMap, parseDocument} from 'yaml'

import {ClientConfigError, type MergeResult} from './config-file-update.js'

// Goose keeps its extensions in YAML (config.yaml). The file is edited as a YAML document (the `yaml` library keeps
// comments, key order and the other entries): only the keys this command writes, in the entry of our own name, are set.

const sameValue = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b)

/**
 * Puts the server `name` with `entry`'s keys into the mapping at `serversPath` of a YAML text: each of those keys set,
 * the keys in `drop` that the entry does not set removed (another transport's), its other keys kept; or the entry added. Refuses, with a ClientConfigError, text that is not YAML (a key
 * given twice included) and a path through something that is not a mapping.
 */
export function mergeYamlServer(text: string, serversPath: readonly string[], name: string, entry: Record<string, unknown>, drop: readonly string[] = []): MergeResult {
  const document = parseDocument(text)
  const [problem] = document.errors
  if (problem) throw new ClientConfigError('UNPARSABLE_CLIENT_CONFIG', `it is not YAML this command can read (${problem.message.split('\n')[0]})`)
  const where = [...serversPath, name]
  for (let depth = 0; depth <= where.length; depth++) {
    const node = depth === 0 ? document.contents : document.getIn(where.slice(0, depth), true)
    if (node !== null && node !== undefined && !isMap(node)) {
      const what = depth === 0 ? 'its top level' : where.slice(0, depth).join('.')
      throw new ClientConfigError('UNSAFE_CLIENT_CONFIG', `${what} is not a mapping`)
    }
  }

  const existing = document.getIn(where, true)
  const before = isMap(existing) ? (existing.toJSON() as Record<string, unknown>) : undefined
  const dropped = before ? drop.filter((key) => key in before && !(key in entry)) : []
  if (before && dropped.length === 0 && Object.entries(entry).every(([key, value]) => sameValue(before[key], value))) return {status: 'unchanged', text}
  for (const key of dropped) document.deleteIn([...where, key])
  for (const [key, value] of Object.entries(entry)) document.setIn([...where, key], value)
  return {status: before ? 'updated' : 'added', text: document.toString()}
}
