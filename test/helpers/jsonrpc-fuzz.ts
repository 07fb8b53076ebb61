import fc from 'fast-check'

/**
 * One hostile message. `body` is the exact text to send; `ID` in it (the JSON string "@@ID@@") is replaced by a
 * fresh request id when it is sent. `answered` says whether the message is a well-formed request (jsonrpc "2.0", a
 * string method, that id, params an object or absent), which must get an answer, result or error, with that id.
 */
export interface FuzzCase {
  answered: boolean
  body: string
  kind: string
}

export const ID = '"@@ID@@"'
const PROTO_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', '__defineGetter__', 'valueOf']
/** Stands in for a key that JSON.stringify cannot write from a plain object (`__proto__`), swapped in afterwards. */
const KEY_MARK = '@@KEY'

/** Read-only tools of `taskbox mcp stdio --read-only` and its built-ins, plus names that only look like tools. */
export const TOOL_NAMES = ['status', 'tasks_list', 'tasks_show', 'report_weekly', 'cli_info', 'list_commands', 'describe_command', 'find_commands', 'run_command', 'read_doc', 'search_docs', 'describe_capabilities']
const FIELD_NAMES = ['cwd', 'status', 'tag', 'limit', 'header', 'id', 'delay', 'idempotencyKey', 'command', 'query', 'cursor', 'topic', 'path', 'arguments', 'expectedDefinitionHash']
const METHODS = ['initialize', 'ping', 'tools/list', 'tools/call', 'notifications/initialized', 'notifications/cancelled', 'logging/setLevel', 'server/discover', 'resources/list', 'prompts/list', 'completion/complete']

const ODD = ['\u0000', '\ud800', '\udfff', '\ufeff', '\u202e', '\u200d', '\u2028', '\u2029', '\u0301'.repeat(50), '\uffff', '\u{10ffff}', '👩‍👩‍👧‍👦', 'ﷺ', '\r', '\t', '\u001b[31m', '%s%n', '../../etc/passwd']

export const oddString: fc.Arbitrary<string> = fc.oneof(
  fc.string({unit: 'binary', maxLength: 40}),
  fc.constantFrom(...ODD),
  fc.array(fc.constantFrom(...ODD), {maxLength: 6}).map((parts) => parts.join('x')),
)

function template(kind: string, name: string, args: unknown): Record<string, unknown> {
  switch (kind) {
    case 'initialize': {
      return {id: '@@ID@@', jsonrpc: '2.0', method: 'initialize', params: {capabilities: {}, clientInfo: {name: 'fuzz', version: '1'}, protocolVersion: '2025-11-25'}}
    }

    case 'list': {
      return {id: '@@ID@@', jsonrpc: '2.0', method: 'tools/list', params: {cursor: 'x'}}
    }

    default: {
      return {id: '@@ID@@', jsonrpc: '2.0', method: 'tools/call', params: {_meta: {progressToken: 1}, arguments: args, name}}
    }
  }
}

const templates = fc.tuple(fc.constantFrom('initialize', 'list', 'call'), fc.constantFrom(...TOOL_NAMES)).map(([kind, name]) => template(kind, name, {cwd: '/nonexistent-fuzz'}))

/** Every path to a value inside an object, e.g. ['params', 'clientInfo', 'name']. */
function paths(value: unknown, prefix: string[] = []): string[][] {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return [prefix]
  return [prefix, ...Object.entries(value).flatMap(([key, inner]) => paths(inner, [...prefix, key]))].filter((p) => p.length > 0)
}

function replaced(value: unknown, path: string[], replacement: unknown): unknown {
  if (path.length === 0) return replacement
  const copy = {...(value as Record<string, unknown>)}
  copy[path[0]] = replaced(copy[path[0]], path.slice(1), replacement)
  return copy
}

/**
 * Whether the server must answer this message: a well-formed MCP request (JSON-RPC 2.0 envelope, string method, the
 * placeholder id, params an object whose `_meta` is well-formed). Anything else is an Invalid Request.
 */
export function isWellFormedRequest(message: unknown): boolean {
  if (message === null || typeof message !== 'object' || Array.isArray(message)) return false
  const m = message as Record<string, unknown>
  const params = m.params
  const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v)
  if (m.jsonrpc !== '2.0' || m.id !== '@@ID@@' || typeof m.method !== 'string') return false
  if (params === undefined) return true
  if (!isObject(params)) return false
  // MCP's base request: `_meta`, when present, is an object whose progressToken is a string or an integer.
  if (params._meta === undefined) return true
  if (!isObject(params._meta)) return false
  const token = params._meta.progressToken
  return token === undefined || typeof token === 'string' || Number.isSafeInteger(token)
}

function fromMessage(kind: string, message: unknown): FuzzCase {
  const body = JSON.stringify(message) ?? 'undefined'
  return {answered: isWellFormedRequest(message), body: body.replaceAll(`"${KEY_MARK}`, '"'), kind}
}

/** A value of any JSON type, ids excepted (a random valid id could collide with another request's). */
const anyValue = fc.oneof(fc.jsonValue({maxDepth: 3}), fc.constantFrom(null, true, 0.5, -1, [], {}, '', 1e308))

/** Wrong types (and odd values) in every field of initialize, tools/list and tools/call; the id only gets non-ids. */
const wrongTypes = fc.tuple(templates, fc.nat(), anyValue).map(([message, index, value]) => {
  const all = paths(message)
  const path = all[index % all.length]
  const replacement = path.length === 1 && path[0] === 'id' && (typeof value === 'string' || Number.isInteger(value)) ? [value] : value
  return fromMessage('wrong-type', replaced(message, path, replacement))
})

function misspell(word: string, edit: number, at: number, char: string): string {
  const i = at % (word.length + 1)
  switch (edit % 4) {
    case 0: {
      return word.slice(0, i) + char + word.slice(i)
    }

    case 1: {
      return word.slice(0, i) + word.slice(i + 1)
    }

    case 2: {
      return word.toUpperCase()
    }

    default: {
      return word.slice(0, i) + char + word.slice(i + 1)
    }
  }
}

const methods = fc
  .oneof(
    fc.tuple(fc.constantFrom(...METHODS), fc.nat(), fc.nat(), fc.string({maxLength: 1, minLength: 1})).map(([m, e, a, c]) => misspell(m, e, a, c)),
    fc.constantFrom(...PROTO_KEYS, '', 'rpc.discover', 'tools/call/', '/tools/list', 'tools//list'),
    oddString,
  )
  .map((method) => fromMessage('method', {id: '@@ID@@', jsonrpc: '2.0', method, params: {}}))

const fieldName = fc.oneof(fc.constantFrom(...FIELD_NAMES), fc.constantFrom(...PROTO_KEYS).map((k) => KEY_MARK + k), oddString)
const badArguments = fc
  .tuple(fc.oneof(fc.constantFrom(...TOOL_NAMES), oddString), fc.dictionary(fieldName, anyValue, {maxKeys: 5}))
  .map(([name, args]) => fromMessage('tool-arguments', template('call', name, args)))

const unicode = fc
  .tuple(templates, fc.nat(), oddString)
  .map(([message, index, text]) => {
    const strings = paths(message).filter((p) => p.at(-1) !== 'id' && p.at(-1) !== 'jsonrpc')
    return fromMessage('unicode', replaced(message, strings[index % strings.length], text))
  })

const protoKeys = fc
  .tuple(templates, fc.constantFrom(...PROTO_KEYS), anyValue, fc.constantFrom(['params'], ['params', 'arguments'], ['params', '_meta'], ['params', 'clientInfo'], ['params', 'capabilities']))
  .map(([template, key, value, at]) => {
    const message = structuredClone(template)
    const target = at.reduce<Record<string, unknown> | undefined>((o, k) => (o?.[k] && typeof o[k] === 'object' ? (o[k] as Record<string, unknown>) : undefined), message)
    if (target) target[KEY_MARK + key] = value
    return fromMessage('proto-keys', message)
  })

const garbage = fc
  .oneof(
    fc.string({unit: 'binary', maxLength: 200}),
    fc.json({maxDepth: 4}),
    fc.constantFrom('', ' ', '{', '}', '[', 'null', '{"jsonrpc":', '{"jsonrpc":"2.0"}', '[{"jsonrpc":"2.0","method":"ping"}]', '\ufeff{}'),
  )
  .map((body) => ({answered: false, body, kind: 'garbage'}))

/** A well-formed request cut short: never valid JSON, as its closing brace is gone. */
const truncated = fc.tuple(templates, fc.nat()).map(([message, at]) => {
  const text = JSON.stringify(message)
  return {answered: false, body: text.slice(0, 1 + (at % (text.length - 1))), kind: 'truncated'}
})

const nestings = fc.tuple(fc.integer({max: 200_000, min: 1}), fc.constantFrom('[', '{"a":'), fc.constantFrom('arguments', 'cwd', 'meta', 'whole'))
const deep = nestings.map(([depth, open, where]): FuzzCase => {
  const close = open === '[' ? ']' : '}'
  const nested = open.repeat(depth) + (open === '[' ? '' : '1') + close.repeat(depth)
  const wrap = (inner: string) => `{"jsonrpc":"2.0","id":${ID},"method":"tools/call","params":${inner}}`
  switch (where) {
    case 'arguments': {
      return {answered: true, body: wrap(`{"name":"status","arguments":{"cwd":"/nonexistent-fuzz","x":${nested}}}`), kind: 'deep'}
    }

    case 'cwd': {
      return {answered: true, body: wrap(`{"name":"status","arguments":{"cwd":${nested}}}`), kind: 'deep'}
    }

    case 'meta': {
      return {answered: true, body: wrap(`{"name":"cli_info","arguments":{},"_meta":{"deep":${nested}}}`), kind: 'deep'}
    }

    default: {
      return {answered: false, body: nested, kind: 'deep'}
    }
  }
})

/** Huge strings inside well-formed requests (up to 3 MiB: under the HTTP body limit). */
const huge = fc.tuple(fc.integer({max: 3 * 1024 * 1024, min: 1024}), fc.constantFrom('cwd', 'name', 'client', 'method')).map(([size, where]): FuzzCase => {
  const big = 'é'.repeat(size / 2)
  const messages: Record<string, unknown> = {
    client: {...template('initialize', '', {}), params: {capabilities: {}, clientInfo: {name: big, version: big}, protocolVersion: '2025-11-25'}},
    cwd: template('call', 'status', {cwd: `/${big}`}),
    method: {id: '@@ID@@', jsonrpc: '2.0', method: big},
    name: template('call', big, {}),
  }
  return fromMessage('huge', messages[where])
})

/** Messages over the 4 MiB HTTP body limit (stdio has no such limit: they must still be answered there). */
export const oversized = fc.integer({max: 6 * 1024 * 1024, min: 4 * 1024 * 1024 + 1}).map((size) => fromMessage('oversized', template('call', 'status', {cwd: `/${'x'.repeat(size)}`})))

export const CASES = {badArguments, deep, garbage, huge, methods, protoKeys, truncated, unicode, wrongTypes}
