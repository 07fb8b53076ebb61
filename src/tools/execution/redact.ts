import {isSecretField, isSecretName} from '../catalog/secret-names.js'

// Secret values (of flags, args and environment variables whose names say they hold one) must never reach a result,
// an error message, a log line, a progress message or an audit record: they are replaced wherever they appear in text
// the server sends or writes.

/** Shorter values are too likely to occur by chance ("1", "true") to be replaced everywhere. */
const MIN_SECRET_LENGTH = 4
/**
 * The shortest part of a secret's base64 replaced on its own. 6 characters carry 36 bits of the secret, no fewer
 * than the shortest raw value replaced (4 bytes, 32 bits); shorter parts would turn up by chance in large base64
 * outputs (4 characters, 24 bits: once in every 16 MiB of base64, for each of the 6 parts of each secret), and
 * replacing them would corrupt those. So a secret of 5 bytes or more is hidden at every alignment, and one of 4 bytes
 * only where its encoding starts a group of 3 (whole, as its other forms are).
 */
const MIN_CORE_LENGTH = 6
/**
 * The shortest form looked for wrapped across lines. Renderers wrap long values (tokens, keys), not values that fit
 * any column; and the shorter a value, the likelier the short cells of unrelated rows spell it ("12" above "34").
 */
const MIN_WRAPPED_LENGTH = 8
/**
 * Cells past the 64th of a line are not read for wrapped values: no table that wraps a value is that wide, and a line
 * of thousands of `|` (ASCII art, a separator) would otherwise cost a column each.
 */
const MAX_COLUMNS = 64
export const REDACTED = '[REDACTED]'

/**
 * Variables the shell keeps that read like secrets and are not: PWD and OLDPWD are directories (the "pwd" of a
 * password among secret words), and a host that sets PWD to the project would otherwise see every path in it blanked.
 */
const SHELL_DIRECTORIES = new Set(['OLDPWD', 'PWD'])

/** Values of the environment's secret-named variables. */
export function secretEnvValues(env: Readonly<Record<string, string | undefined>>): string[] {
  return Object.entries(env)
    .filter(([name, value]) => value !== undefined && isSecretName(name) && !SHELL_DIRECTORIES.has(name.toUpperCase()))
    .map(([, value]) => value!)
}

export type Redact = <T>(value: T) => T

/** The inside of a JSON string literal of `text`; with `ascii`, every non-ASCII character as \uXXXX (Python's default). */
function jsonInner(text: string, ascii = false): string {
  const inner = JSON.stringify(text).slice(1, -1)
  return ascii ? inner.replaceAll(/[^\x00-\x7F]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`) : inner
}

/**
 * The characters of the base64 of `bytes` after `skip` (0, 1 or 2) unknown bytes that depend on `bytes` alone: the
 * encoding of anything holding them at that offset in a group of 3 bytes (`user:` before a token in Basic auth, 5
 * bytes: offset 2) contains these. A character carries 6 bits, so the ones whose bits also hold the unknown bytes
 * before, or the unknown bytes or padding after, are left out: those starting before bit 8·skip, and those ending
 * past the last bit of `bytes`.
 */
function base64Core(bytes: Buffer, skip: number): string {
  const encoded = Buffer.concat([Buffer.alloc(skip), bytes]).toString('base64')
  return encoded.slice(Math.ceil((8 * skip) / 6), Math.floor((8 * (skip + bytes.length)) / 6))
}

const base64url = (base64: string) => base64.replaceAll('+', '-').replaceAll('/', '_')

/**
 * Every form a secret takes on its way out: as given; escaped inside a JSON string (once, twice — JSON text inside a
 * JSON string — and with non-ASCII escaped); inside a single-quoted shell word; URL-encoded; base64 and base64url,
 * whole and at each of the 3 byte alignments (after a prefix, as in `base64("user:" + token)`); and, for a secret of
 * several lines, each line on its own (stderr reaches progress messages one line at a time).
 */
export function secretForms(secret: string): string[] {
  const once = jsonInner(secret)
  const bytes = Buffer.from(secret)
  const cores = [0, 1, 2].map((skip) => base64Core(bytes, skip)).filter((core) => core.length >= MIN_CORE_LENGTH)
  const forms = [
    secret,
    once,
    jsonInner(once),
    jsonInner(secret, true),
    secret.replaceAll("'", String.raw`'\''`),
    encodeURIComponent(secret),
    bytes.toString('base64').replace(/=+$/, ''),
    bytes.toString('base64url'),
    ...cores,
    ...cores.map((core) => base64url(core)),
    ...secret.split(/\r?\n|\r/),
  ]
  return forms.filter((form) => form.length >= MIN_SECRET_LENGTH)
}

// A renderer that wraps a long value puts its pieces on consecutive lines, at the end of one and the start of the
// next, or, in a table, in the same cell of consecutive rows (with padding and borders between them). So each column
// of cells (split at vertical borders; a line without borders is one cell) is read as one text: the cells of
// consecutive lines, without their padding, joined. A form found there across lines is redacted piece by piece. The
// pieces may be of any length (the last piece of a wrapped value can be one character): it is the whole form, in
// order, in one column of consecutive lines, that must be there, which unrelated text is about as unlikely to spell
// as to hold the form outright. Linear: each character is in one column, and each form is looked for once in each.
// Only cells that may continue one another are joined (the last character of one and the first of the next follow
// one another in some form): the others cannot hold a piece of a wrapped form, and most lines cost no copy.

/** The vertical borders of a table: `|`, `│`, `┃`, `║`. */
const BORDER = /[|│┃║]/g
/** Whitespace (a test of the code for ASCII: it runs on every line of megabytes of output). */
const isPadding = (code: number) => code === 0x20 || (code >= 0x09 && code <= 0x0d) || (code > 0x7f && /\s/.test(String.fromCharCode(code)))
/** Two characters (UTF-16 code units) one after the other, as one number. */
const joint = (first: number, second: number) => first * 0x10000 + second

/** Every pair of characters that follow one another in one of the forms. */
function jointsOf(forms: readonly string[]): Set<number> {
  const joints = new Set<number>()
  for (const form of forms) for (let i = 1; i < form.length; i++) joints.add(joint(form.charCodeAt(i - 1), form.charCodeAt(i)))
  return joints
}

/** A stretch of the text in a column: where it starts in the column and in the text, and its length. */
interface Stretch {
  at: number
  from: number
  length: number
}

/** The runs of cells of one column that continue one another, joined, the runs apart ("\n", in no form looked for). */
interface Column {
  /** The last cell seen in the column: its line, where it is in the text, whether it is in the column yet. */
  last: {end: number; joined: boolean; line: number; start: number}
  parts: string[]
  size: number
  stretches: Stretch[]
}

function keep(text: string, column: Column, start: number, end: number): void {
  column.stretches.push({at: column.size, from: start, length: end - start})
  column.parts.push(text.slice(start, end))
  column.size += end - start
}

function columnsOf(text: string, joints: ReadonlySet<number>): Column[] {
  const columns: Column[] = []
  const add = (line: number, index: number, start: number, end: number) => {
    if (index >= MAX_COLUMNS) return
    while (start < end && isPadding(text.charCodeAt(start))) start++
    while (end > start && isPadding(text.charCodeAt(end - 1))) end--
    if (start === end) return
    const column = columns[index]
    if (!column) {
      columns[index] = {last: {end, joined: false, line, start}, parts: [], size: 0, stretches: []}
      return
    }

    const {last} = column
    const joins = last.line === line - 1 && joints.has(joint(text.charCodeAt(last.end - 1), text.charCodeAt(start)))
    if (joins && !last.joined) {
      // A new run, apart from the one before.
      if (column.size > 0) {
        column.parts.push('\n')
        column.size++
      }

      keep(text, column, last.start, last.end)
    }

    if (joins) keep(text, column, start, end)
    last.end = end
    last.joined = joins
    last.line = line
    last.start = start
  }

  // Lines and borders are found by indexOf and a regular expression (native scans), each moving forward only.
  const borders = new RegExp(BORDER)
  const nextBorder = (from: number) => {
    borders.lastIndex = from
    return borders.exec(text)?.index ?? text.length
  }

  let border = nextBorder(0)
  for (let line = 0, start = 0; start <= text.length; line++) {
    const eol = text.indexOf('\n', start)
    const end = eol === -1 ? text.length : eol
    let index = 0
    for (; border < end; border = nextBorder(border + 1)) {
      add(line, index++, start, border)
      start = border + 1
    }

    add(line, index, start, end)
    start = end + 1
  }

  return columns.filter((column) => column !== undefined && column.stretches.length > 0)
}

/** Adds to `ranges` where the characters `at`..`at + length` of a column are in the text: one range a line. */
function inText(stretches: Stretch[], at: number, length: number, ranges: [number, number][]): void {
  let low = 0
  let high = stretches.length
  while (low < high) {
    const middle = (low + high) >> 1
    if (stretches[middle].at + stretches[middle].length <= at) low = middle + 1
    else high = middle
  }

  for (let i = low; i < stretches.length && stretches[i].at < at + length; i++) {
    const stretch = stretches[i]
    const start = Math.max(at, stretch.at)
    const end = Math.min(at + length, stretch.at + stretch.length)
    ranges.push([stretch.from + start - stretch.at, stretch.from + end - stretch.at])
  }
}

/** Where `form` is in `text` (one occurrence after another, as replaceAll finds them). */
function occurrences(text: string, form: string): [number, number][] {
  const found: [number, number][] = []
  for (let at = text.indexOf(form); at !== -1; at = text.indexOf(form, at + form.length)) found.push([at, at + form.length])
  return found
}

/** Every piece of a form wrapped across lines. */
function wrappedPieces(text: string, forms: readonly string[], joints: ReadonlySet<number>): [number, number][] {
  const pieces: [number, number][] = []
  for (const column of columnsOf(text, joints)) {
    const joined = column.parts.join('')
    for (const form of forms) for (const [at] of occurrences(joined, form)) inText(column.stretches, at, form.length, pieces)
  }

  return pieces
}

/**
 * `text` with each of the ranges replaced by REDACTED, ranges that overlap as one: all are found in the text as it
 * came, then replaced in one pass, so the forms of a secret that overlap one another (or another secret) are hidden
 * whole, and a 4 MiB output is copied once, not once for every form found in it.
 */
function redactRanges(text: string, ranges: [number, number][]): string {
  ranges.sort((a, b) => a[0] - b[0])
  let out = ''
  let done = 0
  for (let i = 0; i < ranges.length; ) {
    const from = ranges[i][0]
    let to = ranges[i][1]
    for (i++; i < ranges.length && ranges[i][0] < to; i++) to = Math.max(to, ranges[i][1])
    out += text.slice(done, from) + REDACTED
    done = to
  }

  return out + text.slice(done)
}

/** Values that say nothing secret: left as they are in a secret-named field. */
const PLAIN_VALUE = /^(?:|true|false|null|none|undefined|\[REDACTED\]|\*+|<[^>]*>|\(?not set\)?|-)$/i
/** A JSON member with a string value: `"apiSecret": "…"`. */
const JSON_MEMBER = /"([^"\\\n]{1,64})"(\s*:\s*)"((?:[^"\\\n]|\\.)*)"/g
/** A `name: value` or `name=value` line (YAML, .env, oclif's own key-value output), its value to the end of the line. */
const NAME_VALUE = /^([ \t]*(?:[-*][ \t]+)?["']?)([A-Za-z_][\w.-]{0,63})(["']?[ \t]*[:=][ \t]*)(\S[^\n]*?)([ \t]*)$/gm
/** Cells of a table row: separated by two spaces or more, or by a border. */
const CELL = /[^\s│|┃║](?:[^│|┃║\n]*?[^\s│|┃║])?(?=\s{2,}|\s*[│|┃║]|\s*$)/g

/** A table's secret-named columns (by the header's cells) blanked on the rows under it, up to a blank line. */
function redactTableColumns(text: string): string {
  if (!/\S {2,}\S|[│|┃║]/.test(text)) return text
  const lines = text.split('\n')
  let spans: [number, number][] = []
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]
    if (line.trim() === '') {
      spans = []
      continue
    }

    if (spans.length > 0) {
      let out = line
      // Right to left, so a replacement of another length leaves the columns to its left where they were.
      for (const [start, end] of [...spans].reverse()) {
        const cell = out.slice(start, end)
        if (cell.trim() !== '' && !PLAIN_VALUE.test(cell.trim())) out = out.slice(0, start) + cell.replace(/\S(?:.*\S)?/, REDACTED) + out.slice(end)
      }

      lines[i] = out
      continue
    }

    const cells = [...line.matchAll(CELL)]
    if (cells.length < 2) continue
    const secret = cells.flatMap((cell, n) => (isSecretField(cell[0].trim()) && !/\s/.test(cell[0].trim()) ? [n] : []))
    if (secret.length === 0) continue
    spans = secret.map((n) => [cells[n].index, n + 1 < cells.length ? cells[n + 1].index : Number.MAX_SAFE_INTEGER])
  }

  return lines.join('\n')
}

/**
 * Values of secret-named fields in what a command prints, whatever it is: a JSON member (`"apiSecret": "…"`), a
 * `name: value` or `NAME=value` line, a table's secret-named column. Credentials a command reads from its own store
 * (`vonage config`, `prism me:token`) are values nobody named to the server, so they are recognised by their field.
 */
export function redactSecretFields(text: string): string {
  if (!/pass|secret|token|key|credential|bearer|pwd/i.test(text)) return text
  let out = text.replaceAll(JSON_MEMBER, (whole, name: string, colon: string, value: string) => (isSecretField(name) && !PLAIN_VALUE.test(value) ? `"${name}"${colon}"${REDACTED}"` : whole))
  out = out.replaceAll(NAME_VALUE, (whole, lead: string, name: string, sep: string, value: string, tail: string) => {
    const bare = value.replace(/^["']|["'],?$/g, '')
    return isSecretField(name) && !PLAIN_VALUE.test(bare) && !value.startsWith('{') && !value.startsWith('[') ? `${lead}${name}${sep}${REDACTED}${tail}` : whole
  })
  return redactTableColumns(out)
}

/**
 * Replaces every form of the given secrets (secretForms) in strings and object keys, at any depth of a JSON-like
 * value, and the pieces of one wrapped across lines; and the values of secret-named fields a command prints
 * (redactSecretFields; in a JSON-like value, the string under a secret-named key). Applied to raw values before
 * anything is quoted or serialised, and the escaped forms catch what a command serialised itself.
 */
export function redactor(secrets: readonly string[]): Redact {
  const raw = secrets.filter((s) => s.length >= MIN_SECRET_LENGTH)
  const values = [...new Set(raw.flatMap((secret) => secretForms(secret)))]
  const wrappable = values.filter((form) => form.length >= MIN_WRAPPED_LENGTH && !form.includes('\n'))
  const joints = jointsOf(wrappable)
  const text = (s: string) => {
    const wrapped = wrappable.length > 0 && s.includes('\n') ? wrappedPieces(s, wrappable, joints) : []
    const ranges = [...values.flatMap((form) => occurrences(s, form)), ...wrapped]
    return redactSecretFields(ranges.length === 0 ? s : redactRanges(s, ranges))
  }

  const deep = (value: unknown): unknown => {
    if (typeof value === 'string') return text(value)
    if (Array.isArray(value)) return value.map((item) => deep(item))
    if (value && typeof value === 'object') {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [text(k), typeof v === 'string' && isSecretField(k) && !PLAIN_VALUE.test(v) ? REDACTED : deep(v)]))
    }

    return value
  }

  return <T>(value: T) => deep(value) as T
}
