import {ClientConfigError, type MergeResult} from './config-file-update.js'

/**
 * Codex keeps its servers in TOML (`[mcp_servers.<name>]`). Rather than depend on a TOML library, this module reads
 * just enough of the file to find statements and where they start and end, then replaces only the `command` and
 * `args` keys of our own table (or appends the table). Every other byte stays as written; anything it cannot read
 * with certainty is refused.
 */

type Statement =
  | {array: boolean; first: number; kind: 'table'; last: number; path: string[]}
  | {first: number; key: string[]; kind: 'pair'; last: number; table: string[]}

const BARE = /^[\w-]+/

/** A TOML basic string; JSON's escapes are TOML's, except DEL, which TOML wants escaped too. */
export function tomlString(text: string): string {
  return JSON.stringify(text).replaceAll('\u007F', String.raw`\u007F`)
}

function tomlKey(key: string): string {
  return /^[\w-]+$/.test(key) ? key : tomlString(key)
}

const tomlArray = (values: readonly string[]) => `[${values.map((v) => tomlString(v)).join(', ')}]`

/** The keys of a server's table: strings and arrays of strings (`command`, `args`, `env_vars`; `url`, `bearer_token_env_var`). */
export type TomlEntry = Record<string, readonly string[] | string>

/** The keys of a server Codex starts, and those of one it reaches at a URL: Codex refuses a table that mixes them. */
const STDIO_KEYS = ['command', 'args', 'env', 'env_vars', 'cwd']
const HTTP_KEYS = ['url', 'bearer_token_env_var', 'http_headers', 'env_http_headers']
const TRANSPORT_KEYS = [...STDIO_KEYS, ...HTTP_KEYS]

/** The table of this server, as it is written into config.toml. */
export function tomlTable(name: string, entry: TomlEntry): string {
  const value = (v: readonly string[] | string) => (typeof v === 'string' ? tomlString(v) : tomlArray(v))
  const keys = [...TRANSPORT_KEYS.filter((key) => key in entry), ...Object.keys(entry).filter((key) => !TRANSPORT_KEYS.includes(key))]
  return [`[mcp_servers.${tomlKey(name)}]`, ...keys.map((key) => `${tomlKey(key)} = ${value(entry[key])}`), ''].join('\n')
}

/** A dotted key at `start`: its parts (quotes removed) and where it ends. */
function readKey(line: string, start: number): {end: number; path: string[]} | undefined {
  const path: string[] = []
  let i = start
  for (;;) {
    while (line[i] === ' ' || line[i] === '\t') i++
    const rest = line.slice(i)
    const bare = BARE.exec(rest)
    const quoted = /^"(?:[^"\\]|\\.)*"/.exec(rest) ?? /^'[^']*'/.exec(rest)
    if (bare) path.push(bare[0])
    else if (quoted?.[0].startsWith("'")) path.push(quoted[0].slice(1, -1))
    else if (quoted) {
      try {
        path.push(JSON.parse(quoted[0]) as string)
      } catch {
        return undefined // a TOML escape JSON does not know (\U0001F600): not ours to guess
      }
    } else return undefined
    i += (bare ?? quoted)![0].length
    while (line[i] === ' ' || line[i] === '\t') i++
    if (line[i] !== '.') return {end: i, path}
    i++
  }
}

/** Index of the line where a value starting at (`line`, `column`) ends: strings, arrays and inline tables may span lines. */
function valueEnd(lines: readonly string[], line: number, column: number): number {
  let depth = 0
  let quote: '"' | '"""' | "'" | "'''" | undefined
  for (let n = line; n < lines.length; n++) {
    const text = lines[n]
    for (let i = n === line ? column : 0; i < text.length; i++) {
      const char = text[i]
      if (quote) {
        if (char === '\\' && quote.startsWith('"')) i++
        else if (text.startsWith(quote, i)) {
          i += quote.length - 1
          quote = undefined
        }
      } else if (char === '#') break
      else if (text.startsWith('"""', i) || text.startsWith("'''", i)) {
        quote = text.slice(i, i + 3) as '"""' | "'''"
        i += 2
      } else if (char === '"' || char === "'") quote = char
      else if (char === '[' || char === '{') depth++
      else if (char === ']' || char === '}') depth--
    }

    if (quote === '"' || quote === "'") throw new ClientConfigError('UNPARSABLE_CLIENT_CONFIG', `an unterminated string on line ${n + 1}`)
    if (!quote && depth <= 0) return n
  }

  throw new ClientConfigError('UNPARSABLE_CLIENT_CONFIG', `a value starting on line ${line + 1} never ends`)
}

function scan(lines: readonly string[]): Statement[] {
  const statements: Statement[] = []
  let table: string[] = []
  for (let n = 0; n < lines.length; n++) {
    const text = lines[n]
    const trimmed = text.trim()
    if (trimmed === '' || trimmed.startsWith('#')) continue
    if (trimmed.startsWith('[')) {
      const array = trimmed.startsWith('[[')
      const key = readKey(trimmed, array ? 2 : 1)
      const close = array ? ']]' : ']'
      if (!key || !trimmed.startsWith(close, key.end) || !/^\s*(?:#.*)?$/.test(trimmed.slice(key.end + close.length))) {
        throw new ClientConfigError('UNPARSABLE_CLIENT_CONFIG', `a table header it cannot read on line ${n + 1}`)
      }

      table = key.path
      statements.push({array, first: n, kind: 'table', last: n, path: key.path})
      continue
    }

    const key = readKey(text, 0)
    if (!key || text[key.end] !== '=') throw new ClientConfigError('UNPARSABLE_CLIENT_CONFIG', `a line it cannot read (line ${n + 1})`)
    const last = valueEnd(lines, n, key.end + 1)
    statements.push({first: n, key: key.path, kind: 'pair', last, table})
    n = last
  }

  return statements
}

const startsWith = (path: readonly string[], prefix: readonly string[]) => prefix.every((part, i) => path[i] === part)

/**
 * Puts `[mcp_servers.<name>]` with the entry's keys (a launch's `command` and `args`, and `env_vars` when given; or a
 * `url` and its token's variable) into a config.toml text: in place of those keys, and of the other transport's, when
 * the table exists (its other keys, sub-tables and comments stay), else appended. Refuses, with a ClientConfigError, a
 * file it cannot read and a server defined in a form it cannot safely edit (dotted keys or an inline table elsewhere,
 * an array of tables, the table twice).
 */
export function upsertTomlServer(text: string, name: string, entry: TomlEntry): MergeResult {
  const eol = text.includes('\r\n') ? '\r\n' : '\n'
  const lines = text.split(/\r?\n/)
  const statements = scan(lines)
  const own = ['mcp_servers', name]
  let header: Extract<Statement, {kind: 'table'}> | undefined
  for (const statement of statements) {
    const path = statement.kind === 'table' ? statement.path : [...statement.table, ...statement.key]
    const inOwnTable = statement.kind === 'pair' && startsWith(statement.table, own)
    const unsafe = 'is defined in a form this command cannot safely replace'
    if (statement.kind === 'table' && startsWith(path, own) && statement.array) {
      throw new ClientConfigError('UNSAFE_CLIENT_CONFIG', `[[${own.join('.')}…]] on line ${statement.first + 1} ${unsafe}`)
    }

    if (statement.kind === 'table' && path.length === 2 && startsWith(path, own)) {
      if (header) throw new ClientConfigError('UNSAFE_CLIENT_CONFIG', `the table [mcp_servers.${name}] appears twice (lines ${header.first + 1} and ${statement.first + 1})`)
      header = statement
    }

    if (statement.kind === 'pair' && !inOwnTable && (startsWith(path, own) || startsWith(own, path))) {
      throw new ClientConfigError('UNSAFE_CLIENT_CONFIG', `the key ${path.join('.')} on line ${statement.first + 1} ${unsafe}`)
    }
  }

  const table = tomlTable(name, entry).trimEnd().split('\n')
  // The keys this command writes, and the other transport's, which Codex would refuse beside them (a server started
  // keeps its hand-written env_vars, env and cwd when none are given).
  const remote = 'url' in entry
  const managed = [...new Set([...Object.keys(entry), ...(remote ? STDIO_KEYS : HTTP_KEYS)])]
  if (remote) {
    const started = statements.find((s) => s.kind === 'table' && s.path.length > 2 && startsWith(s.path, own) && STDIO_KEYS.includes(s.path[2]))
    if (started?.kind === 'table') throw new ClientConfigError('UNSAFE_CLIENT_CONFIG', `[${started.path.join('.')}] on line ${started.first + 1} belongs to a server Codex starts, and Codex refuses it on one it reaches at a URL: remove it first`)
  }
  if (!header) {
    const body = text.replace(/(?:\r?\n)*$/, '')
    return {status: 'added', text: `${body}${body ? eol + eol : ''}${table.join(eol)}${eol}`}
  }

  const {first} = header
  const end = statements.find((s) => s.kind === 'table' && s.first > first)?.first ?? lines.length
  const replaced = statements.filter(
    (s): s is Extract<Statement, {kind: 'pair'}> => s.kind === 'pair' && s.first > first && s.first < end && s.key.length === 1 && managed.includes(s.key[0]),
  )
  const dropped = new Set(replaced.flatMap((s) => Array.from({length: s.last - s.first + 1}, (_, i) => s.first + i)))
  const before = replaced.map((s) => lines.slice(s.first, s.last + 1).join('\n').trim()).sort()
  if (before.join('\n') === table.slice(1).sort().join('\n')) return {status: 'unchanged', text}
  const kept = lines.flatMap((line, n) => (n === first ? [line, ...table.slice(1)] : dropped.has(n) ? [] : [line]))
  return {status: 'updated', text: kept.join(eol)}
}
