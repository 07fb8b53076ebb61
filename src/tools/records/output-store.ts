import {randomBytes} from 'node:crypto'

import type {OutputStream, SharedRecords} from './state-store.js'

// Whole outputs kept after a result was cut to the model's budget (and every job's output, while it runs and after),
// so they can be read in pages (read_output) or as a resource. Bounded: past the total, the oldest finished output goes.


/** One run's output as the model may read it: terminal codes out, secrets redacted. */
export interface KeptOutput {
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

/** Characters of output kept in all, by default (two streams of a run count together). */
export const DEFAULT_KEPT_CHARS = 64 * 1024 * 1024

/** An id nobody can guess: 72 random bits, URL- and URI-safe. */
export function newOutputId(): string {
  return randomBytes(9).toString('base64url')
}

/** The output of a finished run, fixed. */
export function finishedOutput(id: string, commandLine: string, streams: Record<OutputStream, string>, principal?: string): KeptOutput {
  return {commandLine, id, live: false, ...(principal === undefined ? {} : {principal}), size: streams.stdout.length + streams.stderr.length, text: (stream) => streams[stream]}
}

/**
 * Kept outputs by id, oldest first; one per server (the call environment owns it). With a shared store, the outputs
 * of cut results are also written there, and an id this process does not hold is looked up there (another replica's).
 */
export class OutputStore {
  private readonly outputs = new Map<string, KeptOutput>()

  constructor(
    readonly maxChars = DEFAULT_KEPT_CHARS,
    private readonly shared?: SharedRecords,
  ) {}

  /**
   * The output of `id` as `principal` may see it (someone else's is not there for them), from this process or the
   * shared store; throws when the shared store cannot be reached.
   */
  async find(id: string, principal?: string): Promise<KeptOutput | undefined> {
    const own = this.outputs.get(id)
    if (own || !this.shared) return own?.principal === principal ? own : undefined
    const found = await this.shared.readOutput(id)
    if (!found || found.principal !== principal) return undefined
    return finishedOutput(id, found.commandLine, found.streams, found.principal)
  }

  get(id: string): KeptOutput | undefined {
    return this.outputs.get(id)
  }

  /**
   * Keeps `output` (replacing one of the same id, as a finished job's fixed output replaces its live one); `share`
   * also writes a finished one to the shared store (a failure there is said on stderr: this process still has it).
   */
  keep(output: KeptOutput, {share = false} = {}): void {
    this.outputs.delete(output.id)
    this.outputs.set(output.id, output)
    this.evict()
    if (share && this.shared && !output.live) {
      const streams = {stderr: output.text('stderr'), stdout: output.text('stdout')}
      this.shared.keepOutput(output.id, output.commandLine, streams, output.principal).catch((error: unknown) => {
        process.stderr.write(`[mcp] could not keep output ${output.id} in ${this.shared!.shown}: ${error instanceof Error ? error.message : String(error)}\n`)
      })
    }
  }

  /** Drops the oldest finished outputs until the rest fit; a single output larger than the total is not kept at all. */
  private evict(): void {
    let total = 0
    for (const output of this.outputs.values()) total += output.size
    for (const [id, output] of this.outputs) {
      if (total <= this.maxChars) return
      if (output.live) continue
      this.outputs.delete(id)
      total -= output.size
    }
  }
}
