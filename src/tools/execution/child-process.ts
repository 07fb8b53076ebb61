import type {ResultPromise} from 'execa'

import {performance} from 'node:perf_hooks'
import {StringDecoder} from 'node:string_decoder'

import {killTree} from './process-tree.cjs'

// Running one command in a child process (fresh or a warm worker): its process group, output capture with caps,
// timeout and cancellation by signal, and the outcome. What runs and with which argv is execute-command.ts's business.

/** A process already running (a warm worker) that starts the command when `begin` is called. */
export interface Prestarted {
  begin(): void
  child: ResultPromise
  /** What the process wrote before it was handed over (it is part of the command's output). */
  early: {stderr: Buffer[]; stdout: Buffer[]}
}

export interface RunRequest {
  args: readonly string[]
  cwd: string
  /** The complete environment of the child (nothing else is inherited). */
  env: Record<string, string | undefined>
  file: string
  /** Where the running command is kept track of until it ends (the server's, so its shutdown ends it). */
  groups: ProcessGroups
  /** Where stdout and stderr are captured, when the caller reads them while the command runs (a job). */
  capture?: {stderr: CapturedStream; stdout: CapturedStream}
  maxOutputBytes: number
  /** Each complete line the command writes to stderr, as it comes (for progress). */
  onStderrLine?: (line: string) => void
  /** Run in this already-started process instead of spawning `file args`. */
  prestarted?: Prestarted
  /** Written to the new process's file descriptor 3, a pipe only it gets, then closed (secret-argv.cts reads it). */
  secrets?: string
  signal?: AbortSignal
  timeoutMs: number
}

export interface RunOutcome {
  cancelled: boolean
  durationMs: number
  exitCode: number | undefined
  /** Set when the process could not be started at all. */
  spawnError?: string
  /** The signal that ended the process, if one did. */
  signal: string | undefined
  stderr: string
  stderrDropped: number
  stdout: string
  stdoutDropped: number
  timedOut: boolean
}

/** After SIGTERM, how long a process group gets before SIGKILL. */
const KILL_GRACE_MS = 500
/** After the child exits, how long its pipes may stay open (held by a runaway grandchild) before we stop reading. */
const PIPE_DRAIN_MS = 1000

/**
 * How every command process starts, cold or prewarmed (worker-pool.ts): its own process group (so a timeout kills
 * what it started too), streamed output, closed stdin, exactly the environment given, killed if we exit. On Windows
 * not detached: there that means a console of its own (a window per command), and a child that is not detached is
 * ended by the system when the server's process goes, however it goes; no window is shown either way.
 */
export const CHILD_OPTIONS = {
  buffer: false,
  cleanup: true,
  detached: process.platform !== 'win32',
  extendEnv: false,
  reject: false,
  stderr: 'pipe',
  stdin: 'ignore',
  stdout: 'pipe',
  windowsHide: true,
} as const


/** The process groups of the commands one server runs now, so that its shutdown can end them all. */
export class ProcessGroups {
  private readonly leaders = new Set<number>()

  /** Commands running now. */
  get size(): number {
    return this.leaders.size
  }

  add(pid: number): void {
    this.leaders.add(pid)
  }

  delete(pid: number): void {
    this.leaders.delete(pid)
  }

  /** Ends every command still running, and everything each one started. */
  killAll(signal: NodeJS.Signals = 'SIGKILL'): void {
    for (const pid of this.leaders) killTree(pid, signal)
  }
}

let execaModule: Promise<typeof import('execa')> | undefined
/** execa is imported on first use: a server should answer `initialize` before it pays for that import. */
export async function loadExeca(): Promise<(typeof import('execa'))['execa']> {
  execaModule ??= import('execa')
  return (await execaModule).execa
}

/**
 * Starts `file args` as CHILD_OPTIONS says, with `secrets` (when given) on file descriptor 3. Not async: what execa
 * returns is itself a promise (of the ended process), which an async function would wait for.
 */
function spawnChild(execa: Awaited<ReturnType<typeof loadExeca>>, request: RunRequest): ResultPromise {
  const options = {...CHILD_OPTIONS, cwd: request.cwd, env: request.env}
  if (request.secrets === undefined) return execa(request.file, request.args, options)
  const {stderr, stdin, stdout, ...rest} = options
  // The extra descriptor changes execa's type of `stdio`, which nothing here reads.
  return execa(request.file, request.args, {...rest, stdio: [stdin, stdout, stderr, new TextEncoder().encode(request.secrets)]}) as unknown as ResultPromise
}

/** Keeps the first `max` bytes of a stream and counts the rest; readable while the stream still flows. */
export class CapturedStream {
  private chunks: Buffer[] = []
  dropped = 0
  private size = 0

  constructor(private readonly max: number) {}

  /** Bytes kept so far. */
  get bytes(): number {
    return this.size
  }

  push(chunk: Buffer): void {
    const room = this.max - this.size
    if (room > 0) {
      const kept = chunk.subarray(0, room)
      this.chunks.push(kept)
      this.size += kept.length
    }

    this.dropped += Math.max(0, chunk.length - Math.max(room, 0))
  }

  text(): string {
    if (this.chunks.length > 1) this.chunks = [Buffer.concat(this.chunks)]
    return this.chunks[0]?.toString('utf8') ?? ''
  }
}

/** A line is cut here (a command that writes megabytes without a newline must not grow it without bound). */
const MAX_LINE = 64 * 1024

/**
 * Calls `each` with every complete line of a byte stream, whole up to MAX_LINE: the consumer redacts before it
 * shortens, so no cut can split a secret.
 */
function lineSplitter(each: (line: string) => void): (chunk: Buffer) => void {
  let partial = ''
  const decoder = new StringDecoder('utf8')
  return (chunk) => {
    const parts = (partial + decoder.write(chunk)).split(/\r?\n|\r/)
    partial = parts.pop()!.slice(0, MAX_LINE)
    for (const line of parts) if (line.trim()) each(line.slice(0, MAX_LINE))
  }
}

/**
 * Runs one command as a child process in its own process group: argv array (no shell), stdin closed, output capped,
 * and the whole group killed on timeout, on cancellation, and once the child has exited (so nothing it started
 * outlives the call).
 */
export async function runChild(request: RunRequest): Promise<RunOutcome> {
  const started = performance.now()
  const stdout = request.capture?.stdout ?? new CapturedStream(request.maxOutputBytes)
  const stderr = request.capture?.stderr ?? new CapturedStream(request.maxOutputBytes)
  let timedOut = false
  let cancelled = false

  const child = request.prestarted?.child ?? spawnChild(await loadExeca(), request)
  const pid = child.pid
  const timers: NodeJS.Timeout[] = []
  const stop = (reason: 'cancel' | 'timeout') => {
    if (pid === undefined) return
    if (reason === 'timeout') timedOut = true
    else cancelled = true
    killTree(pid, 'SIGTERM')
    timers.push(setTimeout(() => killTree(pid, 'SIGKILL'), KILL_GRACE_MS))
  }

  const onAbort = () => stop('cancel')
  if (pid !== undefined) {
    request.groups.add(pid)
    timers.push(setTimeout(() => stop('timeout'), request.timeoutMs))
    if (request.signal?.aborted) onAbort()
    else request.signal?.addEventListener('abort', onAbort, {once: true})
    child.on('exit', () => {
      killTree(pid, 'SIGKILL')
      timers.push(
        setTimeout(() => {
          child.stdout?.destroy()
          child.stderr?.destroy()
        }, PIPE_DRAIN_MS),
      )
    })
  }

  const lines = request.onStderrLine && lineSplitter(request.onStderrLine)
  const onStdout = (chunk: Buffer) => stdout.push(chunk)
  const onStderr = (chunk: Buffer) => {
    stderr.push(chunk)
    lines?.(chunk)
  }

  if (request.prestarted) {
    for (const chunk of request.prestarted.early.stdout) onStdout(chunk)
    for (const chunk of request.prestarted.early.stderr) onStderr(chunk)
  }

  child.stdout?.on('data', onStdout)
  child.stderr?.on('data', onStderr)
  request.prestarted?.begin()

  try {
    const result = await child
    const spawnFailed = pid === undefined || (result.failed && result.exitCode === undefined && !result.signal)
    return {
      cancelled,
      durationMs: Math.round(performance.now() - started),
      exitCode: result.exitCode,
      signal: result.signal,
      spawnError: spawnFailed ? (result.cause instanceof Error ? result.cause.message : result.shortMessage) : undefined,
      stderr: stderr.text(),
      stderrDropped: stderr.dropped,
      stdout: stdout.text(),
      stdoutDropped: stdout.dropped,
      timedOut,
    }
  } finally {
    for (const timer of timers) clearTimeout(timer)
    request.signal?.removeEventListener('abort', onAbort)
    if (pid !== undefined) request.groups.delete(pid)
  }
}
