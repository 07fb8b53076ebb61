import {fileURLToPath} from 'node:url'

import type {Execution} from '../records/idempotency-store.js'
import type {CallEnvironment} from './call-environment.js'
import type {Redact} from './redact.js'

import {type CommandTool, PLUGIN_NAME} from '../catalog/registry.js'
import {ArgvError, buildArgv, commandLineProblem} from './argv.js'
import {runChild} from './child-process.js'
import {errorResult, stripAnsi, toToolResult} from './tool-result.js'
import {checkWorkdir} from './workdir.js'

const ORPHAN_GUARD = fileURLToPath(new URL('orphan-guard.cjs', import.meta.url))

/** A command silent for this long still gets a progress notification (when the client asked for progress). */
const PROGRESS_TICK_MS = 5000
/** The longest stderr line a progress message carries. */
const MAX_PROGRESS_LINE = 1000

function clipLine(line: string): string {
  return line.length <= MAX_PROGRESS_LINE ? line : `${line.slice(0, MAX_PROGRESS_LINE - 1)}…`
}

export interface Execute {
  childVars: Record<string, string | undefined>
  progress?: (message: string) => void
  redact: Redact
  signal?: AbortSignal
}

export interface Ran extends Execution {
  cwd?: string
  durationMs?: number
  exitCode?: null | number
}

function quote(arg: string): string {
  return /^[\w./:=@%+-]+$/.test(arg) ? arg : JSON.stringify(arg)
}

/**
 * One command in a child process (a warm worker when one is ready): cwd checked, argv built, a concurrency slot
 * taken, progress streamed, the outcome mapped and redacted. `ran` is false when nothing was started (bad input,
 * busy), so a retry may run.
 */
export async function executeCommand(tool: CommandTool, input: Record<string, unknown>, env: CallEnvironment, how: Execute): Promise<Ran> {
  const notRun = (message: string): Ran => ({ran: false, result: errorResult(how.redact(`${message} Nothing was run.`))})
  const requested = typeof input.cwd === 'string' ? input.cwd : undefined
  const workdir = requested === undefined ? {dir: await env.workdir.get(), ok: true as const} : await checkWorkdir(requested)
  if (!workdir.ok) return notRun(workdir.message)

  let argv: string[]
  try {
    argv = buildArgv(tool.input.params, input, tool.json, tool.input.flagTokens)
  } catch (error) {
    if (error instanceof ArgvError) return notRun(error.message)
    throw error
  }

  const tooLong = commandLineProblem([process.execPath, env.binScript, tool.id, ...argv], how.childVars)
  if (tooLong) return notRun(`${tooLong} Pass less in one call (a file the command reads, fewer values).`)

  const slot = env.limiter.acquire(how.signal)
  if (!slot) return notRun(`Busy: ${env.limiter.maxRunning} commands are running and ${env.limiter.maxQueued} are waiting; try again shortly.`)
  const release = await slot.catch(() => undefined)
  if (!release) return notRun('Cancelled while waiting for a free slot.')
  const prestarted = env.workers.take({argv: [tool.id, ...argv], cwd: workdir.dir, env: how.childVars})
  const started = Date.now()
  const {progress} = how
  const ticker = progress && setInterval(() => progress(`still running (${Math.round((Date.now() - started) / 1000)} s)`), PROGRESS_TICK_MS)
  let outcome
  try {
    outcome = await runChild({
      // The guard ends the command should the server die without stopping it (orphan-guard.cts).
      args: ['--require', ORPHAN_GUARD, env.binScript, tool.id, ...argv],
      cwd: workdir.dir,
      env: how.childVars,
      file: process.execPath,
      groups: env.groups,
      maxOutputBytes: env.settings.maxOutputBytes,
      // Redacted whole, then cut: a cut made first could leave part of a long secret in the message.
      onStderrLine: progress && ((line) => progress(clipLine(how.redact(stripAnsi(line))))),
      prestarted,
      signal: how.signal,
      timeoutMs: tool.timeoutMs,
    })
  } finally {
    clearInterval(ticker)
    release()
    // Refill only now: warming a worker while the command runs would compete with it for the CPU.
    if (prestarted) env.workers.fill()
  }

  // Secrets come out of each argument before it is quoted, so no escaped form of one is left behind.
  const shown = argv.map((arg) => how.redact(arg))
  const commandLine = [env.config.bin, tool.displayId, ...shown].map((a, i) => (i < 2 ? a : quote(a))).join(' ')
  const result = how.redact(toToolResult(outcome, {argv: shown, commandLine, cwd: workdir.dir, id: tool.id, json: tool.json}, tool.timeoutMs))
  // Whether a prewarmed worker ran it (diagnostics and benchmarks; the output is the same either way).
  result._meta = {[`${PLUGIN_NAME}/run`]: {warm: prestarted !== undefined}}
  return {cwd: workdir.dir, durationMs: outcome.durationMs, exitCode: outcome.exitCode ?? null, ran: !outcome.spawnError, result}
}
