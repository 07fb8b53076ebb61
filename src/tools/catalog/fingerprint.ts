import {createHash} from 'node:crypto'

// Stable fingerprints of JSON-like values: canonicalJson, then shortHash.

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map((item) => sortKeys(item))
  if (value === null || typeof value !== 'object') return value
  const record = value as Record<string, unknown>
  if (typeof record.toJSON === 'function') return sortKeys(record.toJSON())
  return Object.fromEntries(Object.keys(record).sort().map((key) => [key, sortKeys(record[key])]))
}

/** JSON with object keys sorted at every depth: equal arguments give equal text whatever their key order. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value)) ?? 'null'
}

/** The first `length` hex digits of the text's SHA-256. */
export function shortHash(text: string, length = 6): string {
  return createHash('sha256').update(text).digest('hex').slice(0, length)
}
