import {appendFile, mkdir, rename, stat} from 'node:fs/promises'
import {dirname} from 'node:path'

/** One line of the audit log: a call of a tool that may change something. */
export interface AuditRecord {
  arguments: Record<string, unknown>
  client: null | {name?: string; version?: string}
  command: string
  cwd: null | string
  durationMs: null | number
  era: 'legacy' | 'modern' | null
  exitCode: null | number
  /**
   * ran: the command ran; not-run: refused before it started (bad input, busy); refused: by the idempotency store;
   * replayed: an idempotency replay; not-confirmed: a destructive call the person declined or could not be asked about.
   */
  outcome: 'not-confirmed' | 'not-run' | 'ran' | 'refused' | 'replayed'
  time: string
  tool: string
}

export interface AuditOptions {
  /** Rotated files kept besides the current one (`.1` is the newest). */
  keep?: number
  maxBytes?: number
}

/**
 * Append-only JSONL audit log of mutating and destructive calls, rotated by size. Writes are queued so lines never
 * interleave and rotation never races an append. A failed write is returned (the caller reports it), never dropped
 * silently.
 */
export class AuditLog {
  private queue: Promise<unknown> = Promise.resolve()
  private readonly keep: number
  private readonly maxBytes: number

  constructor(
    readonly file: string,
    options: AuditOptions = {},
  ) {
    this.keep = options.keep ?? 3
    this.maxBytes = options.maxBytes ?? 10 * 1024 * 1024
  }

  /** Resolves with undefined when written, or with what went wrong. */
  append(record: AuditRecord): Promise<string | undefined> {
    const write = this.queue.then(() => this.write(`${JSON.stringify(record)}\n`))
    this.queue = write.catch(() => {})
    return write.then(
      () => undefined,
      (error: unknown) => (error instanceof Error ? error.message : String(error)),
    )
  }

  private async rotate(): Promise<void> {
    for (let n = this.keep - 1; n >= 1; n--) await rename(`${this.file}.${n}`, `${this.file}.${n + 1}`).catch(() => {})
    await rename(this.file, `${this.file}.1`)
  }

  private async write(line: string): Promise<void> {
    await mkdir(dirname(this.file), {mode: 0o700, recursive: true})
    const size = await stat(this.file).then(
      (s) => s.size,
      () => 0,
    )
    if (size > 0 && size + Buffer.byteLength(line) > this.maxBytes) await this.rotate()
    await appendFile(this.file, line, {mode: 0o600})
  }
}
