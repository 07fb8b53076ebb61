import type {Config} from '@oclif/core'

import {join} from 'node:path'

import type {Settings} from '../config.js'
import type {CommandTool} from './registry.js'

import {ArgvError, buildArgv} from './argv.js'
import {CommandLimiter} from './limiter.js'
import {childEnv, hostBinScript} from './child-env.js'
import {stripAnsi, type ToolResult, toToolResult} from './result.js'
import {runCommand} from './runner.js'
import {checkWorkdir, type DefaultWorkdir} from './workdir.js'
import {type Execution, IdempotencyStore} from './idempotency.js'
import {WorkerPool} from './worker-pool.js'

/** What running a command tool needs besides its input; built once per server process. */
export interface CallEnvironment {
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

export function errorResult(message: string): ToolResult {
  return {content: [{text: message, type: 'text'}], isError: true}
}

function quote(arg: string): string {
  return /^[\w./:=@%+-]+$/.test(arg) ? arg : JSON.stringify(arg)
}

/**
 * Runs one command tool and maps the outcome to a tool result; never throws for a bad call. With an
 * `idempotencyKey`, a retry with the same key and arguments gets the first run's recorded result instead.
 */
export async function callCommandTool(tool: CommandTool, input: Record<string, unknown>, env: CallEnvironment, context: CallContext = {}): Promise<ToolResult> {
  const {idempotencyKey: key, ...args} = input
  if (typeof key !== 'string') return (await executeCommand(tool, args, env, context)).result
  const outcome = await env.idempotency.run(tool.id, key, args, () => executeCommand(tool, args, env, context))
  switch (outcome.status) {
    case 'refused': {
      return {...errorResult(`${outcome.message} Nothing was run.`), structuredContent: {code: `IDEMPOTENCY_${outcome.reason.toUpperCase().replace('-', '_')}`}}
    }

    case 'replayed': {
      const note = `Replayed: this is the result recorded at ${outcome.recordedAt} for idempotencyKey "${key}"; the command did not run again.`
      return {...outcome.result, content: [...outcome.result.content, {text: note, type: 'text'}], _meta: {[META_KEY]: {recordedAt: outcome.recordedAt, replayed: true}}}
    }

    default: {
      if (!outcome.storageError) return outcome.result
      const warning = `The command ran, but its result could not be recorded for idempotencyKey "${key}": ${outcome.storageError}`
      return {...outcome.result, content: [...outcome.result.content, {text: warning, type: 'text'}], _meta: {[META_KEY]: {storageError: outcome.storageError}}}
    }
  }
}

const META_KEY = 'oclif-plugin-mcp/idempotency'
/** A command silent for this long still gets a progress notification (when the client asked for progress). */
const PROGRESS_TICK_MS = 5000

/** What a call brings besides its arguments: cancellation, and where progress goes when the client wants it. */
export interface CallContext {
  progress?: (message: string) => void
  signal?: AbortSignal
}

/** One command in a child process. `ran` is false when nothing was started (bad input, busy), so a retry may run. */
async function executeCommand(tool: CommandTool, input: Record<string, unknown>, env: CallEnvironment, {progress, signal}: CallContext): Promise<Execution> {
  const notRun = (message: string): Execution => ({ran: false, result: errorResult(`${message} Nothing was run.`)})
  const requested = typeof input.cwd === 'string' ? input.cwd : undefined
  const workdir = requested === undefined ? {dir: await env.workdir.get(), ok: true as const} : await checkWorkdir(requested)
  if (!workdir.ok) return notRun(workdir.message)

  let argv: string[]
  try {
    argv = buildArgv(tool.input.params, input, tool.json)
  } catch (error) {
    if (error instanceof ArgvError) return notRun(error.message)
    throw error
  }

  const slot = env.limiter.acquire(signal)
  if (!slot) return notRun(`Busy: ${env.limiter.maxRunning} commands are running and ${env.limiter.maxQueued} are waiting; try again shortly.`)
  const release = await slot.catch(() => undefined)
  if (!release) return notRun('Cancelled while waiting for a free slot.')
  const childVars = childEnv(env.config, tool.env)
  const prestarted = env.workers.take({argv: [tool.id, ...argv], cwd: workdir.dir, env: childVars})
  const started = Date.now()
  const ticker = progress && setInterval(() => progress(`still running (${Math.round((Date.now() - started) / 1000)} s)`), PROGRESS_TICK_MS)
  let outcome
  try {
    outcome = await runCommand({
      args: [env.binScript, tool.id, ...argv],
      cwd: workdir.dir,
      env: childVars,
      file: process.execPath,
      maxOutputBytes: env.settings.maxOutputBytes,
      onStderrLine: progress && ((line) => progress(stripAnsi(line))),
      prestarted,
      signal,
      timeoutMs: tool.timeoutMs,
    })
  } finally {
    clearInterval(ticker)
    release()
    // Refill only now: warming a worker while the command runs would compete with it for the CPU.
    if (prestarted) env.workers.fill()
  }

  const commandLine = [env.config.bin, tool.displayId, ...argv].map((a, i) => (i < 2 ? a : quote(a))).join(' ')
  const result = toToolResult(outcome, {argv, commandLine, cwd: workdir.dir, id: tool.id, json: tool.json}, tool.timeoutMs)
  // Whether a prewarmed worker ran it (diagnostics and benchmarks; the output is the same either way).
  result._meta = {'oclif-plugin-mcp/run': {warm: prestarted !== undefined}}
  return {ran: !outcome.spawnError, result}
}
