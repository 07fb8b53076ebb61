import {applyEdits, getNodeValue, modify, type Node, parseTree, type ParseError, printParseErrorCode} from 'jsonc-parser'

import {isDeepStrictEqual} from 'node:util'

import {ClientConfigError, type MergeResult} from './config-file-update.js'

/** How the file indents and ends its lines, so what is written in looks like what is there. */
interface Style {
  eol: string
  unit: string
}

function styleOf(text: string): Style {
  const indent = /^([ \t]+)["}\]/]/m.exec(text)?.[1]
  return {eol: text.includes('\r\n') ? '\r\n' : '\n', unit: indent?.startsWith('\t') ? '\t' : ' '.repeat(indent?.length || 2)}
}

function lineOf(text: string, offset: number): number {
  return text.slice(0, offset).split('\n').length
}

/** The whitespace that begins the line holding `offset`. */
function indentAt(text: string, offset: number): string {
  const start = text.lastIndexOf('\n', offset - 1) + 1
  return /^[ \t]*/.exec(text.slice(start))![0]
}

/** `value` as JSON laid out like the file, its continuation lines indented by `indent`. */
function render(value: unknown, indent: string, style: Style): string {
  return JSON.stringify(value, null, style.unit).split('\n').join(style.eol + indent)
}

interface Edit {
  content: string
  length: number
  offset: number
}

/** The value node of `key` in an object node; a key given twice is refused (which one a client reads is unsure). */
function propertyOf(object: Node, key: string, text: string, where: string): Node | undefined {
  const matches = (object.children ?? []).filter((property) => property.children?.[0]?.value === key)
  if (matches.length > 1) {
    throw new ClientConfigError('UNSAFE_CLIENT_CONFIG', `${where}"${key}" appears twice (lines ${matches.map((m) => lineOf(text, m.offset)).join(' and ')})`)
  }

  return matches[0]?.children?.[1]
}

/** A new `"key": value` at the end of an object node, after a trailing comma when the file uses one. */
function addProperty(object: Node, key: string, value: unknown, text: string, style: Style): Edit[] {
  const properties = object.children ?? []
  const close = object.offset + object.length - 1
  const last = properties.at(-1)
  if (!last) {
    const outer = indentAt(text, object.offset)
    const inner = outer + style.unit
    const content = `{${style.eol}${inner}${JSON.stringify(key)}: ${render(value, inner, style)}${style.eol}${outer}}`
    return [{content, length: object.length, offset: object.offset}]
  }

  const indent = indentAt(text, last.offset)
  const end = last.offset + last.length
  const trailing = /^\s*,/.exec(text.slice(end, close))
  const property = `${JSON.stringify(key)}: ${render(value, indent, style)}`
  const afterComma = trailing ? end + trailing[0].length : end
  if (!text.slice(object.offset, close).includes('\n')) {
    // An object on one line stays on one line (`{"a": 1}`).
    return [trailing ? {content: ` ${property},`, length: 0, offset: afterComma} : {content: `, ${property}`, length: 0, offset: end}]
  }

  // A new line of its own, after a comment that ends the last property's line (it stays with that property).
  const lineEnd = text.indexOf('\n', afterComma)
  const rest = text.slice(afterComma, lineEnd === -1 ? close : lineEnd)
  const at = /^\s*(?:\/\/.*|\/\*.*?\*\/\s*)?$/.test(rest) && lineEnd !== -1 && lineEnd < close ? lineEnd - (text[lineEnd - 1] === '\r' ? 1 : 0) : afterComma
  const line = `${style.eol}${indent}${property}${trailing ? ',' : ''}`
  return trailing ? [{content: line, length: 0, offset: at}] : [{content: ',', length: 0, offset: end}, {content: line, length: 0, offset: at}]
}

/** Applies edits from the end back, so each offset still points where it did; edits at one offset keep their order. */
function applyAll(text: string, edits: Edit[]): string {
  let out = text
  const ordered = edits.map((edit, i) => ({edit, i})).sort((a, b) => b.edit.offset - a.edit.offset || b.i - a.i)
  for (const {edit} of ordered) out = out.slice(0, edit.offset) + edit.content + out.slice(edit.offset + edit.length)
  return out
}

/**
 * Puts one server entry into a client's JSON or JSONC config text, in the object found by following `serversPath`
 * (`["mcpServers"]`; `["servers"]` for VS Code; `["projects", "/my/app", "mcpServers"]` for a Claude Code local server),
 * creating what is missing on the way. The text is edited in place: comments, formatting, key order and every value
 * it does not set stay byte for byte (a 20-digit number, `1e2`, another server). Only the keys of `entry` are written;
 * an entry already under this name keeps its other keys (`env`, `disabled`, …). Parsed with jsonc-parser; a text it
 * cannot read with certainty (not JSON, a key it must follow or edit given twice) is refused.
 */
export function mergeJsonServer(text: string, serversPath: readonly string[], name: string, entry: Record<string, unknown>, drop: readonly string[] = []): MergeResult {
  const cleared = withoutKeys(text, [...serversPath, name], drop.filter((key) => !(key in entry)))
  if (cleared !== text) {
    const merged = mergeJsonServer(cleared, serversPath, name, entry)
    return {status: 'updated', text: merged.text}
  }

  const base = text.trim() === '' ? '{}\n' : text
  const errors: ParseError[] = []
  const root = parseTree(base, errors, {allowEmptyContent: false, allowTrailingComma: true, disallowComments: false})
  if (errors.length > 0 || !root) {
    const [first] = errors
    const what = first ? `${printParseErrorCode(first.error)} on line ${lineOf(base, first.offset)}` : 'no JSON value'
    throw new ClientConfigError('UNPARSABLE_CLIENT_CONFIG', `it is not JSON it can read (${what})`)
  }

  if (root.type !== 'object') throw new ClientConfigError('UNPARSABLE_CLIENT_CONFIG', 'it does not hold a JSON object')
  const style = styleOf(base)
  // Down the path as far as it exists; the first missing key gets the rest of the path, with the entry inside.
  let object = root
  for (const [depth, key] of serversPath.entries()) {
    const where = serversPath.slice(0, depth).map((k) => `${JSON.stringify(k)}.`).join('')
    const child = propertyOf(object, key, base, where ? `in ${where.slice(0, -1)}, ` : '')
    if (!child) {
      const rest = serversPath.slice(depth + 1).reduceRight<Record<string, unknown>>((inner, k) => ({[k]: inner}), {[name]: entry})
      return {status: 'added', text: finish(applyAll(base, addProperty(object, key, rest, base, style)), style)}
    }

    if (child.type !== 'object') throw new ClientConfigError('UNPARSABLE_CLIENT_CONFIG', `its "${serversPath.slice(0, depth + 1).join('.')}" is not an object`)
    object = child
  }

  const at = serversPath.join('.')
  const previous = propertyOf(object, name, base, `in "${at}", `)
  if (!previous) return {status: 'added', text: finish(applyAll(base, addProperty(object, name, entry, base, style)), style)}
  if (previous.type !== 'object') throw new ClientConfigError('UNPARSABLE_CLIENT_CONFIG', `its "${at}.${name}" is not an object`)
  if ((previous.children ?? []).length === 0) {
    return {status: 'updated', text: finish(applyAll(base, [{content: render(entry, indentAt(base, previous.parent!.offset), style), length: previous.length, offset: previous.offset}]), style)}
  }

  const edits: Edit[] = []
  const missing: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(entry)) {
    const node = propertyOf(previous, key, base, `in "${at}.${name}", `)
    if (!node) missing[key] = value
    else if (!isDeepStrictEqual(getNodeValue(node), value)) edits.push({content: render(value, indentAt(base, node.parent!.offset), style), length: node.length, offset: node.offset})
  }

  // Keys the entry lacks go in together, after its last one, in the order this command gives them.
  const added = Object.entries(missing).map(([key, value]) => addProperty(previous, key, value, base, style))
  if (added.length > 0) {
    const [first, ...rest] = added
    const line = first.at(-1)!
    edits.push(...first.slice(0, -1), {...line, content: line.content + rest.map((e) => (e.length > 1 ? e[0].content + e[1].content : e[0].content)).join('')})
  }

  if (edits.length === 0) return {status: 'unchanged', text}
  return {status: 'updated', text: finish(applyAll(base, edits), style)}
}

/**
 * A JSON or JSONC text with `key` of its top-level object set to `value` (Gemini CLI's trustedFolders.json: a folder
 * and its trust), comments and every other key kept; refused, with a ClientConfigError, when it is not a JSON object.
 */
export function setJsonValue(text: string, key: string, value: unknown): MergeResult {
  const base = text.trim() === '' ? '{}\n' : text
  const errors: ParseError[] = []
  const root = parseTree(base, errors, {allowTrailingComma: true, disallowComments: false})
  if (errors.length > 0 || root?.type !== 'object') throw new ClientConfigError('UNPARSABLE_CLIENT_CONFIG', 'it does not hold a JSON object it can read')
  const current = root.children?.find((p) => p.children?.[0]?.value === key)?.children?.[1]
  if (current && isDeepStrictEqual(getNodeValue(current), value)) return {status: 'unchanged', text}
  const edited = applyEdits(base, modify(base, [key], value, {formattingOptions: styleOptions(styleOf(base))}))
  return {status: current ? 'updated' : 'added', text: finish(edited, styleOf(base))}
}

/**
 * The text without the keys `keys` of the object at `path` (another transport's keys of a server entry: `command`
 * and `args` where a `url` goes), the rest left as it is; the same text when there are none.
 */
function withoutKeys(text: string, path: readonly string[], keys: readonly string[]): string {
  if (keys.length === 0 || text.trim() === '') return text
  const root = parseTree(text, [], {allowTrailingComma: true, disallowComments: false})
  const entry = root && path.reduce<Node | undefined>((node, key) => node?.children?.find((p) => p.children?.[0]?.value === key)?.children?.[1], root)
  if (entry?.type !== 'object') return text
  let out = text
  for (const key of keys) {
    if (!entry.children?.some((p) => p.children?.[0]?.value === key)) continue
    out = applyEdits(out, modify(out, [...path, key], undefined, {formattingOptions: styleOptions(styleOf(out))}))
  }

  return out
}

const styleOptions = (style: Style) => ({eol: style.eol, insertSpaces: style.unit !== '\t', tabSize: style.unit === '\t' ? 1 : style.unit.length})

/** The edited text, ending with a line break as a config file does. */
function finish(text: string, style: Style): string {
  return text.endsWith('\n') ? text : `${text}${style.eol}`
}
