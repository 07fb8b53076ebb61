import type {ProtocolEra} from '@modelcontextprotocol/server'

import {createHash} from 'node:crypto'
import {appendFile, mkdir, rename, stat} from 'node:fs/promises'
import {dirname} from 'node:path'

/** A string longer than this is kept as its length, its hash and its first characters. */
const MAX_VALUE_CHARS = 256
const HEAD_CHARS = 64
/** An array longer than this keeps its first items and a count of the rest. */
const MAX_ITEMS = 20
/** No record is longer than this: its arguments are then kept as their length and hash only. */
export const MAX_RECORD_BYTES = 4096

/** One line of the audit log: a call of a tool that may change something. */
export interface AuditRecord {
  arguments: Record<string, unknown>
  client: null | {name?: string; version?: string}
  command: string
  cwd: null | string
  durationMs: null | number
  era: ProtocolEra | null
  exitCode: null | number
  /** The job the command went on as, when it outlived the call (its end is a record of its own, outcome job-ended). */
  job?: string
  /**
   * ran: the command ran (or, with `job`, goes on as that job); job-ended: a job's command ended (or was cancelled);
   * not-run: refused before it started (bad input, busy); refused: by the idempotency store; replayed: an idempotency
   * replay; not-confirmed: a destructive call the person declined or could not be asked about.
   */
  outcome: 'job-ended' | 'not-confirmed' | 'not-run' | 'ran' | 'refused' | 'replayed'
  /** The questions the command asked while it ran, each asked of the person (answered: they answered it); never the answers. */
  questions?: {answered: boolean; kind: string; message: string}[]
  /** Who called, when the server knows (an OAuth token's subject, `sub:…`, or its client, `client:…`). */
  principal?: string
  time: string
  tool: string
}

export interface AuditOptions {
  /** Rotated files kept besides the current one (`.1` is the newest). */
  keep?: number
  maxBytes?: number
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex')

function capKey(key: string): string {
  return key.length <= MAX_VALUE_CHARS ? key : `${key.slice(0, HEAD_CHARS)}… (${key.length} characters, sha256 ${sha256(key)})`
}

/** A value as the log keeps it: long strings as length + hash + head, long arrays cut, at any depth. */
function capValue(value: unknown): unknown {
  if (typeof value === 'string') {
    return value.length <= MAX_VALUE_CHARS ? value : {head: value.slice(0, HEAD_CHARS), length: value.length, sha256: sha256(value)}
  }

  if (Array.isArray(value)) {
    const kept = value.slice(0, MAX_ITEMS).map((item) => capValue(item))
    return value.length <= MAX_ITEMS ? kept : [...kept, {more: value.length - MAX_ITEMS}]
  }

  if (value && typeof value === 'object') {
    const entries = Object.entries(value)
    const kept = entries.slice(0, MAX_ITEMS).map(([k, v]) => [capKey(k), capValue(v)])
    return Object.fromEntries(entries.length <= MAX_ITEMS ? kept : [...kept, ['…', {more: entries.length - MAX_ITEMS}]])
  }

  return value
}

/**
 * One record as one line, never longer than MAX_RECORD_BYTES: arguments capped value by value (capValue), and if
 * the line is still too long, kept only as their length and hash. So no call, however large its arguments, pushes
 * more than one small line into the log.
 */
export function auditLine(record: AuditRecord): string {
  let line = JSON.stringify({...record, arguments: capValue(record.arguments)})
  if (Buffer.byteLength(line) >= MAX_RECORD_BYTES) {
    const text = JSON.stringify(record.arguments)
    line = JSON.stringify({...record, arguments: {capped: true, length: text.length, sha256: sha256(text)}, client: capValue(record.client), cwd: capValue(record.cwd)})
  }

  return `${line}\n`
}

/** A JSONL file rotated by size: `.1` the newest old one, `keep` of them kept. */
class RotatingFile {
  constructor(
    readonly file: string,
    private readonly keep: number,
    private readonly maxBytes: number,
  ) {}

  async append(line: string): Promise<void> {
    await mkdir(dirname(this.file), {mode: 0o700, recursive: true})
    const size = await stat(this.file).then(
      (s) => s.size,
      () => 0,
    )
    if (size > 0 && size + Buffer.byteLength(line) > this.maxBytes) await this.rotate()
    await appendFile(this.file, line, {mode: 0o600})
  }

  private async rotate(): Promise<void> {
    for (let n = this.keep - 1; n >= 1; n--) await rename(`${this.file}.${n}`, `${this.file}.${n + 1}`).catch(() => {})
    await rename(this.file, `${this.file}.1`)
  }
}

/** Outcomes of calls that ran nothing: kept apart, so no number of them can rotate a record of a change away. */
const RAN_NOTHING: ReadonlySet<AuditRecord['outcome']> = new Set(['not-confirmed', 'not-run', 'refused', 'replayed'])

/** Where the records of calls that ran nothing go, beside the log: `mcp-audit.jsonl` → `mcp-audit.refused.jsonl`. */
export function refusalsFile(file: string): string {
  return file.replace(/(\.jsonl)?$/, '.refused.jsonl')
}

/**
 * Append-only JSONL audit log of mutating and destructive calls, rotated by size. Calls that ran something (`ran`,
 * `job-ended`) and calls that ran nothing (refused, not run, not confirmed, replayed) go to two files, each rotated on
 * its own: refusals cost nothing to make, and a flood of them must never rotate the record of a change out of sight.
 * Writes are queued so lines never interleave and rotation never races an append. A failed write is returned (the
 * caller reports it), never dropped silently. Records are capped (auditLine), so a rotated file holds at least
 * (maxBytes − MAX_RECORD_BYTES) / MAX_RECORD_BYTES of them and the log always keeps the records of the last
 * `guaranteed` calls that ran, however large their arguments and however many calls were refused meanwhile.
 */
export class AuditLog {
  private queue: Promise<unknown> = Promise.resolve()
  private readonly keep: number
  private readonly maxBytes: number
  private readonly ran: RotatingFile
  private readonly ranNothing: RotatingFile

  constructor(
    readonly file: string,
    options: AuditOptions = {},
  ) {
    this.keep = options.keep ?? 3
    this.maxBytes = Math.max(options.maxBytes ?? 10 * 1024 * 1024, 2 * MAX_RECORD_BYTES)
    this.ran = new RotatingFile(file, this.keep, this.maxBytes)
    this.ranNothing = new RotatingFile(refusalsFile(file), this.keep, this.maxBytes)
  }

  /** The number of most recent records of calls that ran the log is sure to hold (the current file may be empty). */
  get guaranteed(): number {
    return this.keep * Math.floor((this.maxBytes - MAX_RECORD_BYTES) / MAX_RECORD_BYTES)
  }

  /** Resolves with undefined when written, or with what went wrong. */
  append(record: AuditRecord): Promise<string | undefined> {
    const target = RAN_NOTHING.has(record.outcome) ? this.ranNothing : this.ran
    const write = this.queue.then(() => target.append(auditLine(record)))
    this.queue = write.catch(() => {})
    return write.then(
      () => undefined,
      (error: unknown) => (error instanceof Error ? error.message : String(error)),
    )
  }
}
