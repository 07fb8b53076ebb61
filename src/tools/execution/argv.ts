import type {FlagTokens, Param} from '../catalog/input-schema.js'
import {CodedError} from '../../error-codes.js'

export class ArgvError extends CodedError {
  constructor(message: string) {
    super('INVALID_ARGUMENTS', message)
  }
}

function scalar(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value)
}

/**
 * oclif's parser reads a flag value that is itself one of the command's flags (`--message=--upper`, or `-u…` when a
 * flag has the char `u`) as a missing value and fails with "Flag --message expects a value": such a value cannot
 * reach the command. Said before anything runs, so the model knows why and what to do instead.
 */
function checkPassable(name: string, value: string, tokens: FlagTokens | undefined): void {
  if (!tokens) return
  const taken = value.startsWith('--') ? tokens.long.has(value.slice(2)) : value.startsWith('-') && value.length > 1 && tokens.short.has(value[1])
  if (!taken) return
  const as = value.startsWith('--') ? value : `-${value[1]}`
  throw new ArgvError(`--${name} cannot be ${JSON.stringify(value)}: oclif reads a value that looks like one of this command's flags (${as}) as a missing value, so the command would fail with "Flag --${name} expects a value". Nothing was run. Change the value (a leading space or other character), or pass it another way the command offers.`)
}

/** One entry of a command line; a secret one says which value it carries, and the flag's variable if it has one. */
interface Entry {
  secret?: {env?: string; value: string}
  text: string
}

function entries(params: readonly Param[], input: Readonly<Record<string, unknown>>, json: boolean, tokens?: FlagTokens): Entry[] {
  const flags: Entry[] = []
  const positionals: Entry[] = []
  let missingArg: string | undefined

  for (const param of params) {
    const value = input[param.property]
    if (param.kind === 'flag') {
      if (value === undefined) continue
      if (param.type === 'boolean') {
        if (value === true) flags.push({text: `--${param.name}`})
        else if (param.allowNo) flags.push({text: `--no-${param.name}`})
        continue
      }

      const items = param.multiple ? (value as unknown[]) : [value]
      for (const item of items) {
        const text = scalar(item)
        checkPassable(param.name, text, tokens)
        // A lone value of a flag the command also reads from its variable can go there; a repeated one cannot.
        const env = param.multiple ? undefined : param.env
        flags.push({secret: param.secret && text !== '' ? {env, value: text} : undefined, text: `--${param.name}=${text}`})
      }
    } else if (param.kind === 'arg') {
      if (value === undefined) {
        missingArg ??= param.property
        continue
      }

      if (missingArg) throw new ArgvError(`"${param.property}" was given but "${missingArg}", which comes before it, was not.`)
      const text = scalar(value)
      positionals.push({secret: param.secret && text !== '' ? {value: text} : undefined, text})
    } else if (value !== undefined) {
      if (missingArg && (value as unknown[]).length > 0) {
        throw new ArgvError(`"${param.property}" was given but "${missingArg}", which comes before it, was not.`)
      }

      positionals.push(...(value as unknown[]).map((item) => ({text: scalar(item)})))
    }
  }

  if (json) flags.push({text: '--json'})
  return positionals.length > 0 ? [...flags, {text: '--'}, ...positionals] : flags
}

/**
 * Tool input → the command line after the command id, as the command receives it. Flags are passed as
 * `--name=value`, so a value can never be read as another flag; `--` ends the flags, and every positional comes
 * after it.
 */
export function buildArgv(params: readonly Param[], input: Readonly<Record<string, unknown>>, json: boolean, tokens?: FlagTokens): string[] {
  return entries(params, input, json, tokens).map((entry) => entry.text)
}

/** What stands on a process's command line in place of a secret value. */
export const SECRET_PLACEHOLDER = '[secret]'

/** A command line whose secret values reach the command without standing in any process's arguments. */
export interface ConcealedArgv {
  /** The command line after the command id as processes show it: each secret value replaced by SECRET_PLACEHOLDER. */
  argv: string[]
  /** Secret flag values passed in the flag's own environment variable, which the command reads when the flag is absent. */
  env: Record<string, string>
  /** The command line as the command receives it, every value in place (buildArgv's): what a result shows, redacted. */
  plain: string[]
  /** The entries of `argv` (by index) that hold a placeholder, and the whole entry the command must get there instead. */
  secrets: [index: number, entry: string][]
}

/**
 * The command line with its secrets kept off it: every local user can read a process's arguments (`ps`,
 * /proc/PID/cmdline) for as long as it runs, while its environment and its pipes are its user's alone. A secret flag
 * that has an environment variable goes there (the command reads it exactly as if it were given); any other secret
 * value is replaced by a placeholder, and the real entry reaches the command by a channel only it reads (a cold run's
 * preload reads it from an inherited pipe, a worker from its IPC channel: secret-argv.cts, worker-entry.ts) and is put
 * into its `process.argv` before the CLI parses it.
 */
export function concealedArgv(params: readonly Param[], input: Readonly<Record<string, unknown>>, json: boolean, tokens?: FlagTokens): ConcealedArgv {
  const argv: string[] = []
  const env: Record<string, string> = {}
  const secrets: [number, string][] = []
  const all = entries(params, input, json, tokens)
  for (const {secret, text} of all) {
    if (secret?.env !== undefined && !(secret.env in env)) {
      env[secret.env] = secret.value
      continue
    }

    if (secret) {
      secrets.push([argv.length, text])
      argv.push(text.slice(0, text.length - secret.value.length) + SECRET_PLACEHOLDER)
      continue
    }

    argv.push(text)
  }

  return {argv, env, plain: all.map((entry) => entry.text), secrets}
}

/** Linux: one argument may hold at most 32 pages, 131,072 bytes with its NUL (MAX_ARG_STRLEN); other systems have no such limit. */
const MAX_ARG_BYTES = process.platform === 'linux' ? 131_071 : Number.POSITIVE_INFINITY
/**
 * The arguments and the environment together, as the kernel counts them (each string with its NUL, and a pointer to
 * it): a conservative 1 MiB, inside Linux's ARG_MAX (a quarter of the stack limit, usually 2 MiB) and macOS's 1 MiB.
 * Windows limits the command line alone, to 32,767 characters.
 */
const MAX_TOTAL_BYTES = process.platform === 'win32' ? 32_767 : 1024 * 1024

/**
 * Why this command line cannot be started (E2BIG), or undefined when it can: checked before anything runs, so a
 * prewarmed worker (which receives its arguments over IPC and has no such limit) and a cold spawn answer alike.
 */
export function commandLineProblem(argv: readonly string[], env: Readonly<Record<string, string | undefined>>): string | undefined {
  for (const arg of argv) {
    const bytes = Buffer.byteLength(arg)
    if (bytes > MAX_ARG_BYTES) {
      const name = /^--[^=]+/.exec(arg)?.[0] ?? 'a positional argument'
      return `${name} is ${bytes.toLocaleString('en')} bytes long, and one command-line argument can hold at most ${MAX_ARG_BYTES.toLocaleString('en')} on this system.`
    }
  }

  const strings = process.platform === 'win32' ? argv : [...argv, ...Object.entries(env).flatMap(([k, v]) => (v === undefined ? [] : [`${k}=${v}`]))]
  const total = strings.reduce((sum, text) => sum + Buffer.byteLength(text) + 1 + (process.platform === 'win32' ? 0 : 8), 0)
  if (total <= MAX_TOTAL_BYTES) return undefined
  return `The command line and environment would take ${total.toLocaleString('en')} bytes, and at most ${MAX_TOTAL_BYTES.toLocaleString('en')} fit on this system.`
}
