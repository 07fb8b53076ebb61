import type {Config} from '@oclif/core'

import {join} from 'node:path'

import type {Settings} from '../config.js'
import {type CommandTool, PLUGIN_NAME} from './registry.js'

import {AuditLog, type AuditRecord} from './audit.js'
import {childEnv, hostBinScript} from './child-env.js'
import {executeCommand, type Ran} from './execute.js'
import {IdempotencyStore} from './idempotency.js'
import {CommandLimiter} from './limiter.js'
import {errorResult, type ToolResult} from './result.js'
import {REDACTED, type Redact, redactor, secretEnvValues} from './secrets.js'
import {type DefaultWorkdir} from './workdir.js'
import {WorkerPool} from './worker-pool.js'

/** What running a command tool needs besides its input; built once per server process. */
export interface CallEnvironment {
  /** Undefined when auditing is off (--no-audit). */
  audit?: AuditLog
  binScript: string
  config: Config
  idempotency: IdempotencyStore
  limiter: CommandLimiter
  settings: Settings
  workdir: DefaultWorkdir
  workers: WorkerPool
}

export function callEnvironment(config: Config, settings: Settings, workdir: DefaultWorkdir): CallEnvironment {
  const binScript = hostBinScript(config)
  return {
    // In the CLI's data dir: the record of what was changed outlives caches.
    audit: settings.audit ? new AuditLog(join(config.dataDir, 'mcp-audit.jsonl')) : undefined,
    binScript,
    config,
    // In the CLI's cache dir, so a retry after a server restart still finds the first run's result.
    idempotency: new IdempotencyStore({dir: join(config.cacheDir, 'mcp-idempotency')}),
    limiter: new CommandLimiter(settings.maxConcurrency, settings.maxQueue),
    settings,
    workdir,
    workers: new WorkerPool({bin: binScript, env: childEnv(config, {}), root: config.root, size: settings.workers}),
  }
}

const META = PLUGIN_NAME

/** What a call brings besides its arguments: cancellation, progress, and who is calling (for the audit log). */
export interface CallContext {
  client?: {name?: string; version?: string}
  era?: 'legacy' | 'modern'
  progress?: (message: string) => void
  signal?: AbortSignal
}

/** The properties of a tool's secret parameters (flags and args that hold secrets). */
function secretProperties(tool: CommandTool): string[] {
  return tool.input.params.flatMap((p) => (p.kind !== 'rest' && p.secret ? [p.property] : []))
}

/** The call's arguments as the audit log keeps them: secret parameters blanked, secrets elsewhere redacted. */
function auditArguments(tool: CommandTool, args: Record<string, unknown>, redact: Redact): Record<string, unknown> {
  const secret = new Set(secretProperties(tool))
  return redact(Object.fromEntries(Object.entries(args).map(([k, v]) => [k, secret.has(k) ? REDACTED : v])))
}

/** The secret values a call involves: its secret parameters' values and the secret-named environment variables. */
function secretsOf(tool: CommandTool, args: Record<string, unknown>, childVars: Record<string, string | undefined>): string[] {
  const values = secretProperties(tool).flatMap((property) => [args[property]].flat())
  return [...values.filter((v): v is string => typeof v === 'string'), ...secretEnvValues(childVars)]
}

function withMeta(result: ToolResult, meta: Record<string, unknown>): ToolResult {
  return {...result, _meta: {...(result._meta as object | undefined), ...meta}}
}

function withNote(result: ToolResult, note: string, meta: Record<string, unknown>): ToolResult {
  return {...withMeta(result, meta), content: [...result.content, {text: note, type: 'text'}]}
}

/**
 * Runs one command tool and maps the outcome to a tool result; never throws for a bad call. With an
 * `idempotencyKey`, a retry with the same key and arguments gets the first run's recorded result instead. Secrets
 * are redacted from everything it returns or reports, and calls of tools that may change something are audited.
 */
export async function callCommandTool(tool: CommandTool, input: Record<string, unknown>, env: CallEnvironment, context: CallContext = {}): Promise<ToolResult> {
  const {idempotencyKey: key, ...args} = input
  const childVars = childEnv(env.config, tool.env)
  const redact = redactor(secretsOf(tool, args, childVars))
  const how = {childVars, progress: context.progress, redact, signal: context.signal}
  let ran: Ran
  let outcome: AuditRecord['outcome']
  if (typeof key === 'string') {
    let execution: Ran | undefined
    const recorded = await env.idempotency.run(tool.id, key, args, async () => (execution = await executeCommand(tool, args, env, how)))
    switch (recorded.status) {
      case 'refused': {
        const code = `IDEMPOTENCY_${recorded.reason.toUpperCase().replace('-', '_')}`
        ran = {ran: false, result: {...errorResult(`${recorded.message} Nothing was run.`), structuredContent: {code}}}
        outcome = 'refused'
        break
      }

      case 'replayed': {
        const note = `Replayed: this is the result recorded at ${recorded.recordedAt} for idempotencyKey "${key}"; the command did not run again.`
        ran = {ran: false, result: withNote(recorded.result, note, {[`${META}/idempotency`]: {recordedAt: recorded.recordedAt, replayed: true}})}
        outcome = 'replayed'
        break
      }

      default: {
        ran = execution ?? {ran: recorded.status === 'executed', result: recorded.result}
        if (recorded.storageError) {
          const what = ran.ran ? 'The command ran, but its result could not be recorded' : 'The command did not run, and its claim could not be released'
          const warning = `${what} for idempotencyKey "${key}": ${recorded.storageError}`
          ran = {...ran, result: withNote(ran.result, warning, {[`${META}/idempotency`]: {storageError: recorded.storageError}})}
        }

        outcome = ran.ran ? 'ran' : 'not-run'
      }
    }
  } else {
    ran = await executeCommand(tool, args, env, how)
    outcome = ran.ran ? 'ran' : 'not-run'
  }

  if (!env.audit || tool.hints.readOnlyHint) return ran.result
  const failure = await env.audit.append({
    arguments: auditArguments(tool, input, redact),
    client: context.client ?? null,
    command: tool.id,
    cwd: ran.cwd ?? null,
    durationMs: ran.durationMs ?? null,
    era: context.era ?? null,
    exitCode: ran.exitCode ?? null,
    outcome,
    time: new Date().toISOString(),
    tool: tool.name,
  })
  if (!failure) return ran.result
  process.stderr.write(`[mcp] could not write the audit log ${env.audit.file}: ${failure}\n`)
  return withMeta(ran.result, {[`${META}/audit`]: {error: failure, file: env.audit.file}})
}
