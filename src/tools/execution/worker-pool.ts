import type {ResultPromise} from 'execa'

import {readFileSync} from 'node:fs'
import {tmpdir} from 'node:os'

import type {WarmModules} from './warm-modules.js'

import {ownFile} from '../../host/own-files.js'
import {CHILD_OPTIONS, loadExeca, type Prestarted} from './child-process.js'
import {killTree} from './process-tree.cjs'

/** A worker that has not said it is ready by then is given up on. */
const WARM_TIMEOUT_MS = 60_000
/** An idle worker larger than this is not kept (and the pool stops making more). */
const MAX_IDLE_RSS_BYTES = 1024 * 1024 * 1024
/** After this many workers in a row die or misbehave before being used, the pool turns itself off. */
const MAX_FAILURES = 3

interface Worker {
  child: ResultPromise
  early: Prestarted['early']
  ready: boolean
  stopCollecting: () => void
}

export interface PoolOptions {
  bin: string
  env: Record<string, string | undefined>
  root: string
  size: number
  /** The modules a worker imports ahead, given the ids of the commands called lately (newest first). */
  warm?: (recent: readonly string[]) => WarmModules
}

/** How many of the commands called lately a worker is told of. */
const RECENT = 8

function rssOf(pid: number): number {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
    return match ? Number(match[1]) * 1024 : 0
  } catch {
    return 0
  }
}

/**
 * Prewarmed one-shot workers (see worker-entry.ts). At most `size` idle workers at a time, started at once and
 * refilled after a call completes (never during one: on two cores warming would slow the call). Each serves one
 * call and exits. A worker is told which modules to import while it waits: the hooks, the commands called lately,
 * then the others `warm` names. `take()` returns nothing when no worker is ready, and the caller spawns cold, which stays the
 * fallback for good when workers keep failing.
 */
export class WorkerPool {
  /** Workers start only in a server that allows them (not in `mcp call`, whose process ends with its one call). */
  private allowed = false
  private closed = false
  private failures = 0
  private readonly idle = new Set<Worker>()
  /** Command ids of the latest calls, newest first: the likeliest next ones. */
  private readonly recent: string[] = []
  private starting = 0

  constructor(private readonly options: PoolOptions) {}

  get enabled(): boolean {
    return this.allowed && !this.closed && this.options.size > 0 && this.failures < MAX_FAILURES
  }

  /** Lets fill() start workers from now on. */
  allow(): void {
    this.allowed = true
  }

  /** Workers waiting for a call (ready or still warming). */
  get size(): number {
    return this.idle.size + this.starting
  }

  /** Starts workers until `size` are idle. */
  fill(): void {
    while (this.enabled && this.size < this.options.size) {
      this.starting++
      void this.spawn()
        .catch(() => this.failures++)
        .finally(() => this.starting--)
    }
  }

  /**
   * A ready worker bound to one call (argv[0] is the command id; `secrets` are the entries of the worker's
   * process.argv that its command line shows as placeholders), or undefined (spawn cold instead).
   */
  take(call: {argv: string[]; cwd: string; env: Record<string, string | undefined>; prompts?: string; secrets?: [number, string][]}): Prestarted | undefined {
    const [id] = call.argv
    if (id !== undefined) this.recent.splice(0, this.recent.length, ...[id, ...this.recent.filter((r) => r !== id)].slice(0, RECENT))
    const worker = [...this.idle].find((w) => w.ready && w.child.exitCode === null && w.child.connected)
    if (!worker) return undefined
    this.idle.delete(worker)
    worker.stopCollecting()
    return {begin: () => worker.child.send(call), child: worker.child, early: worker.early}
  }

  /** Kills every idle worker; no more are made. */
  close(): void {
    this.closed = true
    for (const {child} of this.idle) if (child.pid !== undefined) killTree(child.pid, 'SIGKILL')
    this.idle.clear()
  }

  private async spawn(): Promise<void> {
    const execa = await loadExeca()
    if (!this.enabled) return
    const child = execa(process.execPath, [ownFile('tools/execution/worker-entry.js'), this.options.root, this.options.bin], {
      ...CHILD_OPTIONS,
      cwd: tmpdir(),
      env: this.options.env,
      ipc: true,
      serialization: 'json',
    })
    const early = {stderr: [] as Buffer[], stdout: [] as Buffer[]}
    const onStdout = (chunk: Buffer) => early.stdout.push(chunk)
    const onStderr = (chunk: Buffer) => early.stderr.push(chunk)
    child.stdout?.on('data', onStdout)
    child.stderr?.on('data', onStderr)
    const give = setTimeout(() => fail(), WARM_TIMEOUT_MS).unref()
    const worker: Worker = {
      child,
      early,
      ready: false,
      stopCollecting() {
        clearTimeout(give)
        child.stdout?.off('data', onStdout)
        child.stderr?.off('data', onStderr)
      },
    }
    const fail = () => {
      if (!this.idle.delete(worker)) return
      worker.stopCollecting()
      if (child.pid !== undefined) killTree(child.pid, 'SIGKILL')
      this.failures++
    }

    child.once('message', (message: {ready?: boolean}) => {
      if (!message?.ready || (child.pid !== undefined && rssOf(child.pid) > MAX_IDLE_RSS_BYTES)) return fail()
      worker.ready = true
      this.failures = 0
    })
    // A worker that ends before it is used has failed (an error in the CLI, or it was killed).
    child.on('exit', () => fail())
    // What to import ahead; the worker says it is ready once it has the hooks.
    child.send({warm: this.options.warm?.(this.recent) ?? {commands: [], hooks: []}})
    child.catch(() => {})
    this.idle.add(worker)
  }
}
