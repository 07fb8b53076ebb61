import {isDeepStrictEqual} from 'node:util'

import {ClientConfigError, type MergeResult} from './config-file.js'

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value)

/** The indentation the file already uses (two spaces when it shows none). */
function indentOf(text: string): number | string {
  const found = /^([ \t]+)"/m.exec(text)
  return found ? found[1] : 2
}

/**
 * Puts one server entry into a client's JSON config text under `serversKey` (`mcpServers`, or `servers` for VS
 * Code). Other servers and every other key stay as they are; an entry already under this name keeps the keys this
 * command does not set (`env`, `disabled`, …). A file that is not a JSON object (comments included) is refused.
 */
export function mergeJsonServer(text: string, serversKey: string, name: string, entry: Record<string, unknown>): MergeResult {
  let root: unknown = {}
  if (text.trim() !== '') {
    try {
      root = JSON.parse(text)
    } catch (error) {
      throw new ClientConfigError('UNPARSABLE_CLIENT_CONFIG', `it is not plain JSON (${(error as Error).message})`)
    }
  }

  if (!isObject(root)) throw new ClientConfigError('UNPARSABLE_CLIENT_CONFIG', 'it does not hold a JSON object')
  const servers = root[serversKey] ?? {}
  if (!isObject(servers)) throw new ClientConfigError('UNPARSABLE_CLIENT_CONFIG', `its "${serversKey}" is not an object`)
  const previous = servers[name]
  if (previous !== undefined && !isObject(previous)) throw new ClientConfigError('UNPARSABLE_CLIENT_CONFIG', `its "${serversKey}.${name}" is not an object`)
  const next = {...previous, ...entry}
  if (isDeepStrictEqual(previous, next)) return {status: 'unchanged', text}
  const merged = {...root, [serversKey]: {...servers, [name]: next}}
  return {status: previous ? 'updated' : 'added', text: `${JSON.stringify(merged, null, indentOf(text))}\n`}
}
