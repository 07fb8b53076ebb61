import type {Command} from '@oclif/core'
import * as z from 'zod'

import {CALL_INPUT_NAMES} from './call-inputs.js'
import {isSecretName, SECRET_TEXT} from './secret-names.js'
import {CodedError} from '../../error-codes.js'

/** How one property of a tool's input maps back onto the command line. */
export type Param =
  | {
      allowNo: boolean
      /** The environment variable the command reads this flag from when it is not on its command line. */
      env?: string
      kind: 'flag'
      multiple: boolean
      name: string
      property: string
      secret: boolean
      type: 'boolean' | 'option'
    }
  | {kind: 'arg'; name: string; property: string; secret: boolean}
  | {kind: 'rest'; property: string}

/** What oclif's parser takes as one of this command's flags when it stands where a value should (see argv.ts). */
export interface FlagTokens {
  /** Names after `--`: every flag, its aliases, `no-<name>` of a boolean flag that allows it. */
  long: ReadonlySet<string>
  /** Characters after `-`: every flag's char and char aliases. */
  short: ReadonlySet<string>
}

export interface ToolInput {
  flagTokens: FlagTokens
  params: Param[]
  /**
   * Built on first use: constructing zod schemas is most of a large CLI's registry cost (about 0.5 s for Heroku's
   * 356 commands), and most commands are never listed, described or run in a session.
   */
  readonly schema: z.ZodObject
}

export interface SchemaOptions {
  /** Signatures (see flagSignature) of flags shared by so many commands that their full text is noise. */
  commonFlags: ReadonlySet<string>
  /** Flag names the CLI author asked to leave out of every tool. */
  omitFlags: ReadonlySet<string>
  /** Required flags the CLI author says the CLI fills itself (`oclif.mcp.optionalFlags`). */
  optionalFlags?: ReadonlySet<string>
  /** Flag names the author marked as holding secrets (besides those whose name or env var says so). */
  secretFlags: ReadonlySet<string>
  /** Properties the server adds to every tool (e.g. `cwd`); a flag or arg with one of these names is renamed. */
  serverShape: Record<string, z.ZodType>
}

/**
 * Flags oclif itself adds or that only print and exit, decided by what the flag is, not its name alone: oclif's
 * `--json` (the command's enableJsonFlag, or a flag in oclif's GLOBAL group; the server passes it itself), and a
 * boolean `--help` or `--version` (Flags.help(), Flags.version(): they print and exit). A command's own `--version`
 * option (`instances:update --version 3`) or its own boolean `--json` is an input like any other.
 */
function oclifOwned(flag: Command.Flag.Cached, command: Command.Cached | undefined): boolean {
  if (flag.name === 'json') return command === undefined || Boolean(command.enableJsonFlag) || flag.helpGroup === 'GLOBAL'
  return (flag.name === 'help' || flag.name === 'version') && flag.type === 'boolean'
}
const INTERACTIVE_FLAGS = new Set(['interactive', 'prompt'])
const COMMON_DESCRIPTION_LENGTH = 80
/** The most values one array argument may hold (a command line could not carry many more anyway). */
export const MAX_ITEMS = 1000

/**
 * Arguments MCP hosts add to every tool call of their own accord, whatever the tool's schema says: taken out before
 * validation, so strict schemas still refuse every other unknown key.
 * - `wait_for_previous`: Gemini CLI adds it to every tool's schema, tells its model to set it, and forwards it.
 */
export const HOST_INJECTED_KEYS: readonly string[] = ['wait_for_previous']

/** Tool arguments without the keys hosts inject (HOST_INJECTED_KEYS); anything else is passed on untouched. */
export function withoutHostKeys(value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value
  if (!HOST_INJECTED_KEYS.some((key) => Object.hasOwn(value, key))) return value
  return Object.fromEntries(Object.entries(value).filter(([key]) => !HOST_INJECTED_KEYS.includes(key)))
}

/** A command whose inputs have no faithful JSON Schema: it is left out (and reported), never offered vaguely. */
export class SchemaError extends CodedError {
  constructor(message: string) {
    super('NO_SCHEMA_REPRESENTATION', message)
  }
}

const SAFE_INTEGER_BOUNDS: Record<string, number> = {maximum: Number.MAX_SAFE_INTEGER, minimum: Number.MIN_SAFE_INTEGER}

/** zod's JSON Schema for a tool input, without the safe-integer bounds zod adds to every integer (noise to a model). */
export function toJsonSchema(schema: z.ZodType, target: 'draft-07' | 'draft-2020-12' = 'draft-2020-12'): Record<string, unknown> {
  let byTarget = converted.get(schema)
  if (!byTarget) converted.set(schema, (byTarget = new Map()))
  let json = byTarget.get(target)
  if (!json) {
    const raw = JSON.stringify(z.toJSONSchema(schema, {io: 'input', target}), (key, value: unknown) => {
      if (SAFE_INTEGER_BOUNDS[key] === value) return undefined
      // An open record says so plainly (`true`), rather than with a schema that constrains nothing (`{}`).
      if (key === 'additionalProperties' && value && typeof value === 'object' && Object.keys(value).length === 0) return true
      return value
    })
    json = JSON.parse(raw) as Record<string, unknown>
    byTarget.set(target, json)
  }

  return json
}

/** Converted once per schema and target: the projection measures, the server lists, describe_command shows. */
const converted = new WeakMap<z.ZodType, Map<string, Record<string, unknown>>>()

export function flagSignature(flag: Command.Flag.Cached): string {
  return `${flag.name}\u0000${flag.type}\u0000${flag.summary ?? flag.description ?? ''}`
}

/** Whether a visible flag of `command` becomes part of the tool input (see the "Flags rules" in docs/tools.md). */
export function isExposedFlag(flag: Command.Flag.Cached, omit: ReadonlySet<string>, command?: Command.Cached): boolean {
  if (flag.hidden || flag.deprecated || oclifOwned(flag, command) || omit.has(flag.name)) return false
  return !(flag.type === 'boolean' && INTERACTIVE_FLAGS.has(flag.name))
}

/**
 * What an argv entry can carry unchanged: no NUL (it ends a C string) and no unpaired UTF-16 surrogate (argv is
 * UTF-8, so Node would pass U+FFFD in its place and the command would get another value than the one given).
 */
const passable = (value: string) => !value.includes('\u0000') && !/\p{Surrogate}/u.test(value)
// Leaf schemas are immutable and shared: every flag would otherwise build its own (zod construction is not cheap).
const TEXT = z.string().refine(passable, 'must not contain NUL characters or unpaired surrogates')
const INTEGER = z.number().int()
const NUMBER = z.number()
const BOOLEAN = z.boolean()

/** oclif keeps no type for integer flags in the manifest; a numeric default or a numeric help value gives them away. */
function looksNumeric(flag: Command.Flag.Cached & {type: 'option'}): 'integer' | 'number' | undefined {
  const sample = Array.isArray(flag.default) ? flag.default[0] : flag.default
  if (typeof sample === 'number') return Number.isInteger(sample) ? 'integer' : 'number'
  if (flag.helpValue && /^<?(n|num|number|int|integer|count|seconds|minutes|ms|\d+)>?$/i.test(String(flag.helpValue))) return 'integer'
  return undefined
}

function valueSchema(options: readonly string[] | undefined, numeric?: 'integer' | 'number'): z.ZodType {
  if (options && options.length > 0) return z.enum(options as [string, ...string[]])
  if (numeric === 'integer') return INTEGER
  if (numeric === 'number') return NUMBER
  return TEXT
}

function list(names: readonly (string | {name: string})[] | undefined): string {
  return (names ?? []).map((n) => `--${typeof n === 'string' ? n : n.name}`).join(', ')
}

function relationNotes(flag: Command.Flag.Cached): string[] {
  const notes: string[] = []
  if (flag.type === 'boolean' && flag.allowNo) notes.push(`false sends --no-${flag.name}.`)
  if (flag.exclusive?.length) notes.push(`Cannot be used with ${list(flag.exclusive)}.`)
  if (flag.exactlyOne?.length) notes.push(`Give exactly one of ${list(flag.exactlyOne)}.`)
  if (flag.dependsOn?.length) notes.push(`Requires ${list(flag.dependsOn)}.`)
  for (const relation of flag.relationships ?? []) {
    const words = {all: 'all of', none: 'none of', only: 'only', some: 'at least one of'}[relation.type]
    notes.push(`Needs ${words} ${list(relation.flags)}.`)
  }

  if (flag.env) notes.push(`Defaults to $${flag.env}.`)
  return notes
}

/** Text as a sentence of its own, so what is appended after it does not run on from it. */
function sentence(text: string): string {
  return text === '' || /[.!?:;…)]$/.test(text) ? text : `${text}.`
}

/**
 * The description of a flag many commands share, cut to its first sentence, plus any sentence that says when it is
 * required or what it defaults to ("Not required if the `target-org` configuration variable is already set."), at
 * most COMMON_DESCRIPTION_LENGTH characters of the rest.
 */
function commonText(text: string): string {
  if (text.length <= COMMON_DESCRIPTION_LENGTH) return text
  const [first, ...rest] = text.split(/(?<=[.!?])\s+/)
  const kept = [first, ...rest.filter((s) => /\b(?:required|default)/i.test(s))].join(' ')
  return kept.length <= COMMON_DESCRIPTION_LENGTH * 2 ? kept : `${kept.slice(0, COMMON_DESCRIPTION_LENGTH * 2 - 1).trimEnd()}…`
}

/** A flag or arg as the manifest keeps what it says about defaults. */
type Defaulted = {default?: unknown; hasDynamicHelp?: boolean; noCacheDefault?: boolean; required?: boolean}

/**
 * oclif marks some flags required yet gives them a default the command works out itself — `--target-org` from the
 * CLI's configuration: no value in the manifest, but `noCacheDefault` or `hasDynamicHelp` (a default computed when it
 * runs) — or a plain default: the command runs without them, so the schema does not require them.
 */
function hasDefault(item: Defaulted): boolean {
  return item.default !== undefined || item.noCacheDefault === true || item.hasDynamicHelp === true
}

function defaultNote(item: Defaulted): string[] {
  if (!item.required || !hasDefault(item)) return []
  return [item.default === undefined ? 'Leave it out to use the default the command finds itself (for example in its configuration).' : 'Leave it out to use the default.']
}

/** Whether a flag holds a secret: by the author's list, its name or its variable's in any spelling, or its text. */
export function isSecretFlag(flag: Command.Flag.Cached, options: Pick<SchemaOptions, 'secretFlags'>): boolean {
  if (options.secretFlags.has(flag.name) || isSecretName(flag.name) || (typeof flag.env === 'string' && isSecretName(flag.env))) return true
  return flag.type === 'option' && SECRET_TEXT.test((flag.summary ?? flag.description ?? '').trim())
}

/** A description that says the CLI takes the value from its login when it is not given ("saved by `rdme login`"). */
const FROM_LOGIN = /\b(?:login|log in|logged[- ]in|signed[- ]in)\b/i

/**
 * Why a flag oclif marks required may be left out, because the CLI fills it itself: its declared environment variable
 * (`RDME_API_KEY`), a description that says it comes from the CLI's login, or the author's `optionalFlags`.
 */
function filledByTheCli(flag: Command.Flag.Cached, options: SchemaOptions): string | undefined {
  if (!flag.required || flag.type !== 'option') return undefined
  if (typeof flag.env === 'string' && flag.env !== '') return `Leave it out when $${flag.env} is set where the server runs.`
  if (FROM_LOGIN.test(`${flag.summary ?? ''} ${flag.description ?? ''}`)) return 'Leave it out to use what the CLI keeps from its login.'
  if (options.optionalFlags?.has(flag.name)) return 'Leave it out to let the CLI fill it in itself.'
  return undefined
}

function flagDescription(flag: Command.Flag.Cached, common: boolean, filled?: string): string {
  let base = (flag.summary ?? flag.description ?? '').replaceAll(/\s+/g, ' ').trim()
  if (common) base = commonText(base)
  // A common flag keeps only the notes that change how to call it.
  const notes = common ? relationNotes(flag).filter((n) => n.startsWith('false sends')) : relationNotes(flag)
  return [sentence(base), ...defaultNote(flag), ...(filled && !hasDefault(flag) ? [filled] : []), ...notes].filter(Boolean).join(' ')
}

function withMeta(schema: z.ZodType, description: string, defaultValue: unknown, required: boolean): z.ZodType {
  let result = description ? schema.describe(description) : schema
  // The default is advertised, never filled in: the command computes its own default, which may be dynamic.
  if (defaultValue !== undefined && typeof defaultValue !== 'function') result = result.meta({default: defaultValue})
  return required ? result : result.optional()
}

function checkRepresentable(name: string, type: unknown, choices: unknown): void {
  if (type !== 'boolean' && type !== 'option' && type !== 'arg') throw new SchemaError(`flag --${name} has type "${String(type)}", which has no JSON Schema form`)
  if (choices !== undefined && (!Array.isArray(choices) || choices.length === 0 || choices.some((c) => typeof c !== 'string'))) {
    throw new SchemaError(`${type === 'arg' ? 'argument ' : 'flag --'}${name} has options that are not a list of strings`)
  }
}

function flagSchema(flag: Command.Flag.Cached, options: SchemaOptions): z.ZodType {
  const common = options.commonFlags.has(flagSignature(flag))
  if (flag.type === 'boolean') return withMeta(BOOLEAN, flagDescription(flag, common), flag.default, false)
  const item = valueSchema(flag.options, looksNumeric(flag))
  const schema = flag.multiple ? z.array(item).min(1).max(MAX_ITEMS) : item
  // A secret with a variable of its own is better set there, where the server runs: then it never passes the model.
  const filledByCli = filledByTheCli(flag, options)
  const filled = filledByCli ?? (isSecretFlag(flag, options) && typeof flag.env === 'string' && flag.env !== '' ? `Better left out: set $${flag.env} where the server runs, so the secret never passes through the model.` : undefined)
  return withMeta(schema, flagDescription(flag, common, filled), flag.default, Boolean(flag.required) && !hasDefault(flag) && !filledByCli)
}

function argSchema(arg: Command.Arg.Cached): z.ZodType {
  const description = [sentence((arg.description ?? '').replaceAll(/\s+/g, ' ').trim()), ...defaultNote(arg)].filter(Boolean).join(' ')
  return withMeta(valueSchema(arg.options), description, arg.default, Boolean(arg.required) && !hasDefault(arg))
}

/**
 * A property name every host accepts: Claude Code drops a whole tool whose input has a property outside
 * `^[A-Za-z0-9_.-]{1,64}$` (heroku's `service:plan` arg, zapier's `key-value pairs...`), so other characters become
 * `_` and the name is cut to leave room for a suffix. The command still gets the value: argv maps by the flag's own
 * name, or by position.
 */
function propertyName(name: string): string {
  return name.replaceAll(/[^A-Za-z0-9_.-]/g, '_').slice(0, 56) || 'value'
}

function freeName(given: string, suffix: string, taken: Set<string>): string {
  const wanted = propertyName(given)
  let name = taken.has(wanted) ? `${wanted}_${suffix}` : wanted
  for (let i = 2; taken.has(name); i++) name = `${wanted}_${suffix}${i}`
  taken.add(name)
  return name
}

function flagTokensOf(command: Command.Cached): FlagTokens {
  const long = new Set<string>()
  const short = new Set<string>()
  for (const flag of Object.values(command.flags ?? {})) {
    for (const name of [flag.name, ...(flag.aliases ?? [])]) {
      long.add(name)
      if (flag.type === 'boolean' && flag.allowNo) long.add(`no-${name}`)
    }

    for (const char of [flag.char, ...(flag.charAliases ?? [])]) if (char) short.add(char)
  }

  return {long, short}
}

/**
 * A strict object schema for one command: its visible flags, then its positional args in order, then (for
 * commands that accept extra arguments) `extra_args`. Returns how each property maps back to the command line.
 */
export function buildToolInput(command: Command.Cached, options: SchemaOptions): ToolInput {
  const taken = new Set(CALL_INPUT_NAMES)
  // What cannot be represented is found now (the command is skipped); the schemas themselves are built on first use.
  const builders: [property: string, build: () => z.ZodType][] = []
  const params: Param[] = []

  for (const flag of Object.values(command.flags ?? {})) {
    if (!isExposedFlag(flag, options.omitFlags, command)) continue
    checkRepresentable(flag.name, flag.type, flag.type === 'option' ? flag.options : undefined)
    const property = freeName(flag.name, 'flag', taken)
    builders.push([property, () => flagSchema(flag, options)])
    params.push({
      allowNo: flag.type === 'boolean' && Boolean(flag.allowNo),
      ...(typeof flag.env === 'string' && flag.env !== '' ? {env: flag.env} : {}),
      kind: 'flag',
      multiple: flag.type === 'option' && Boolean(flag.multiple),
      name: flag.name,
      property,
      secret: isSecretFlag(flag, options),
      type: flag.type,
    })
  }

  for (const arg of Object.values(command.args ?? {})) {
    if (arg.hidden) continue
    checkRepresentable(arg.name, 'arg', arg.options)
    const property = freeName(arg.name, 'arg', taken)
    builders.push([property, () => argSchema(arg)])
    params.push({kind: 'arg', name: arg.name, property, secret: isSecretName(arg.name)})
  }

  if (command.strict === false) {
    const property = freeName('extra_args', 'rest', taken)
    builders.push([property, () => z.array(TEXT).max(MAX_ITEMS).describe('More positional arguments, passed after the ones above.').optional()])
    params.push({kind: 'rest', property})
  }

  let schema: undefined | z.ZodObject
  return {
    flagTokens: flagTokensOf(command),
    params,
    get schema() {
      schema ??= z.strictObject({...Object.fromEntries(builders.map(([property, build]) => [property, build()])), ...options.serverShape})
      return schema
    },
  }
}
