import {randomBytes} from 'node:crypto'

import type {OutputStream, SharedRecords} from './state-store.js'

// Whole outputs kept after a result was cut to the model's budget (and every job's output, while it runs and after),
// so they can be read in pages (read_output) or as a resource. Bounded: past the total, the oldest finished output goes.


/** One run's output as the model may read it: terminal codes out, secrets redacted. */
export interface KeptOutput {
  /** The command it came from (its id as the boundary names it: a read-only request sees only read-only commands'). */
  readonly command?: string
  /** The command line it came from, for listing. */
  readonly commandLine: string
  readonly id: string
  /** Still growing (a job that runs): never evicted while it is. */
  readonly live: boolean
  /** Whose run it was (an OAuth token's subject): nobody else may read it. */
  readonly principal?: string
  /** Characters held now. */
  readonly size: number
  text(stream: OutputStream): string
}

/** Characters of output kept in all, by default (two streams of a run, and a finished job's result, count together). */
export const DEFAULT_KEPT_CHARS = 64 * 1024 * 1024

/** A size for a message: whole MiB, or KiB below one. */
export function shownSize(units: number): string {
  return units >= 1024 * 1024 ? `${Math.round(units / 1024 / 1024)} MiB` : `${Math.round(units / 1024)} KiB`
}

/** An id nobody can guess: 72 random bits, URL- and URI-safe. */
export function newOutputId(): string {
  return randomBytes(9).toString('base64url')
}

/** Whose run an output is, and of which command (see KeptOutput). */
export interface OutputFacts {
  command?: string
  /** Characters kept with it beside the streams (a finished job's own result), which count towards the bounds. */
  held?: number
  principal?: string
}

/** The output of a finished run, fixed. */
export function finishedOutput(id: string, commandLine: string, streams: Record<OutputStream, string>, {command, held = 0, principal}: OutputFacts = {}): KeptOutput {
  return {
    ...(command === undefined ? {} : {command}),
    commandLine,
    id,
    live: false,
    ...(principal === undefined ? {} : {principal}),
    size: streams.stdout.length + streams.stderr.length + held,
    text: (stream) => streams[stream],
  }
}

/** How much the store keeps: in all, and of each person's (an OAuth subject's) runs. */
export interface KeptLimits {
  /** Characters in all. */
  maxChars?: number
  /** Characters of one person's runs (calls without a person, as without OAuth, are not limited beyond the total). */
  perPersonChars?: number
}

/**
 * Kept outputs by id, oldest first; one per server (the call environment owns it). Bounded in all and per person:
 * past a person's share, their own oldest finished output goes; past the total, the oldest finished output of whoever
 * holds the most, so nobody's runs push out the outputs of someone who holds less. With a shared store, the outputs
 * of cut results are also written there, and an id this process does not hold is looked up there (another replica's).
 */
export class OutputStore {
  readonly maxChars: number
  readonly perPersonChars: number
  private readonly dropped = new Set<(output: KeptOutput) => void>()
  private readonly outputs = new Map<string, KeptOutput>()

  constructor(
    limits: KeptLimits = {},
    private readonly shared?: SharedRecords,
  ) {
    this.maxChars = limits.maxChars ?? DEFAULT_KEPT_CHARS
    this.perPersonChars = Math.min(limits.perPersonChars ?? this.maxChars, this.maxChars)
  }

  /**
   * The output of `id` as `principal` may see it (someone else's is not there for them), from this process or the
   * shared store; throws when the shared store cannot be reached.
   */
  async find(id: string, principal?: string): Promise<KeptOutput | undefined> {
    const own = this.outputs.get(id)
    if (own || !this.shared) return own?.principal === principal ? own : undefined
    const found = await this.shared.readOutput(id)
    if (!found || found.principal !== principal) return undefined
    return finishedOutput(id, found.commandLine, found.streams, found)
  }

  get(id: string): KeptOutput | undefined {
    return this.outputs.get(id)
  }

  /**
   * Keeps `output` (replacing one of the same id, as a finished job's fixed output replaces its live one); `share`
   * also writes a finished one to the shared store (a failure there is said on stderr: this process still has it).
   * Settles once that write has (it never rejects): a result naming the output is answered after it, so another
   * replica asked for it next finds it.
   */
  keep(output: KeptOutput, {share = false} = {}): Promise<void> {
    this.outputs.delete(output.id)
    // Larger than a bound on its own: not kept, and nothing else goes to make room for it.
    if (!output.live && output.size > (output.principal === undefined ? this.maxChars : this.perPersonChars)) {
      for (const listener of this.dropped) listener(output)
      return Promise.resolve()
    }

    this.outputs.set(output.id, output)
    this.evict(output.principal)
    if (share && this.shared && !output.live && this.outputs.has(output.id)) {
      const streams = {stderr: output.text('stderr'), stdout: output.text('stdout')}
      const {shown} = this.shared
      return this.shared.keepOutput(output.id, output.commandLine, streams, output.principal, output.command).then((kept) => {
        if (!kept) process.stderr.write(`[mcp] output ${output.id} is not kept in ${shown} (its quota is reached): only this replica can read it.\n`)
      }, (error: unknown) => {
        process.stderr.write(`[mcp] could not keep output ${output.id} in ${this.shared!.shown}: ${error instanceof Error ? error.message : String(error)}\n`)
      })
    }

    return Promise.resolve()
  }

  /** Calls `listener` with each output the bounds push out (a job's table forgets the result it held with it). */
  onDrop(listener: (output: KeptOutput) => void): void {
    this.dropped.add(listener)
  }

  /** Characters held now: in all, or of one person's runs. */
  size(principal?: null | string): number {
    let total = 0
    for (const output of this.outputs.values()) if (principal === null || output.principal === principal) total += output.size
    return total
  }

  private drop(output: KeptOutput): void {
    this.outputs.delete(output.id)
    for (const listener of this.dropped) listener(output)
  }

  /**
   * Past `principal`'s share, drops their oldest finished outputs; past the total, the oldest finished output of the
   * person holding the most. Running jobs' outputs are never dropped (their number and size are bounded by the
   * command limiter and --max-output).
   */
  private evict(principal: string | undefined): void {
    if (principal !== undefined) {
      let mine = this.size(principal)
      for (const output of [...this.outputs.values()]) {
        if (mine <= this.perPersonChars) break
        if (output.live || output.principal !== principal) continue
        this.drop(output)
        mine -= output.size
      }
    }

    let total = this.size(null)
    while (total > this.maxChars) {
      const held = new Map<string | undefined, number>()
      for (const output of this.outputs.values()) if (!output.live) held.set(output.principal, (held.get(output.principal) ?? 0) + output.size)
      if (held.size === 0) return
      const [most] = [...held].sort((a, b) => b[1] - a[1])[0]
      const oldest = [...this.outputs.values()].find((output) => !output.live && output.principal === most)!
      this.drop(oldest)
      total -= oldest.size
    }
  }
}
