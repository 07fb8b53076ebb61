import {randomUUID} from 'node:crypto'
import {link, lstat, mkdir, readdir, readFile, rename, unlink, writeFile} from 'node:fs/promises'
import {join, resolve} from 'node:path'
import {performance} from 'node:perf_hooks'

import type {IdempotencyRecords} from './state-store.js'

import {type ClaimRecord, Idempotency, type IdempotencyRecord, type IdempotencyStorage, type IdempotencyTiming, parseIdempotencyRecord} from './idempotency.js'

// The idempotency records as files in a directory (the protocol is idempotency.ts): one `<sha256>.json` per key, made,
// replaced and removed by atomic moves, so a record is never seen half-written nor removed after a rival replaced it.

const FORMAT = 1

/**
 * A record as its file holds it, with the process that wrote it: its pid, and when it started (`process`; older
 * claims have none), which tells this process from a predecessor that had the same pid (usual in containers).
 */
type FileRecord = IdempotencyRecord & {pid: number; process?: number; v: number}

/** A record file as read or written: its inode, which tells it from a copy that replaced it. */
interface FileToken {ino: number; record?: FileRecord}

export interface IdempotencyFileOptions extends IdempotencyTiming {
  dir: string
  /** Records older than this are ignored and pruned; the key runs again. Default 24 h. */
  maxAgeMs?: number
  /** Total size of the records; the oldest go first. Default 64 MiB. */
  maxBytes?: number
  /** Number of records; the oldest go first. Default 1000. */
  maxEntries?: number
}

/** Leftover temp files (a process died between writing and renaming one) are removed after this. */
const TEMP_MAX_AGE_MS = 10 * 60 * 1000

/** When this process started (ms since the epoch): its claims carry it next to the pid. */
const PROCESS_STARTED = Math.round(performance.timeOrigin)

/** The record files whose claims runs of this process hold, with how many of its stores are claiming each now. */
const held = new Map<string, number>()

function hold(file: string, by: 1 | -1): void {
  const count = (held.get(file) ?? 0) + by
  if (count > 0) held.set(file, count)
  else held.delete(file)
}

function errorCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code
}

function parseRecord(text: string): FileRecord | undefined {
  const record = parseIdempotencyRecord<FileRecord>(text)
  const pid = record?.pid
  const validPid = typeof pid === 'number' && Number.isSafeInteger(pid) && pid > 0
  return record?.v === FORMAT && (record.state === 'done' || validPid) ? (record as FileRecord) : undefined
}

/** Whether another process with this pid runs. */
function otherProcessRuns(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return errorCode(error) === 'EPERM'
  }
}

/** A claim whose run goes on: in another process that still runs, or in this one (a store of this process holds it). */
function isLiveClaim(file: string, record: FileRecord | undefined): boolean {
  if (record?.state !== 'running') return false
  if (record.pid !== process.pid) return otherProcessRuns(record.pid)
  return record.process === PROCESS_STARTED && held.has(file)
}

/** The record and the inode it was read from; `record` is missing when the file is corrupt or unreadable. */
async function readRecord(file: string): Promise<undefined | {ino: number; record?: FileRecord}> {
  const info = await lstat(file).catch(() => undefined)
  if (!info) return undefined
  const text = await readFile(file, 'utf8').catch(() => undefined)
  return {ino: info.ino, record: text === undefined ? undefined : parseRecord(text)}
}

function tempName(file: string): string {
  return `${file}.${process.pid}-${randomUUID().slice(0, 8)}.tmp`
}

async function writeTemp(file: string, record: FileRecord): Promise<string> {
  const temp = tempName(file)
  await writeFile(temp, JSON.stringify(record), {flag: 'wx', mode: 0o600}).catch(async (error) => {
    await unlink(temp).catch(() => {})
    throw error
  })
  return temp
}

/** Removes `file` only if it is still the copy that was read (inode `ino`): a rival may have replaced it meanwhile. */
async function removeIfSame(file: string, ino: number): Promise<void> {
  const trash = tempName(file)
  try {
    await rename(file, trash)
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return
    throw error
  }

  const moved = await lstat(trash).catch(() => undefined)
  if (moved && moved.ino !== ino) await link(trash, file).catch(() => {})
  await unlink(trash).catch(() => {})
}

/** A record of this process: what it writes. */
function stamped(record: IdempotencyRecord): FileRecord {
  return {...record, pid: process.pid, process: PROCESS_STARTED, v: FORMAT}
}

/**
 * The files: a claim is created with link(2) only where no file is, the result replaces it with rename(2). A claim is
 * live while its process runs, and in this process while one of its stores holds it.
 */
export class IdempotencyFiles implements IdempotencyStorage<FileToken> {
  readonly dir: string
  readonly keepMs: number
  private readonly maxBytes: number
  private readonly maxEntries: number

  constructor(options: IdempotencyFileOptions) {
    this.dir = resolve(options.dir)
    this.keepMs = options.maxAgeMs ?? 24 * 60 * 60 * 1000
    this.maxBytes = options.maxBytes ?? 64 * 1024 * 1024
    this.maxEntries = options.maxEntries ?? 1000
  }

  async claim(id: string, claim: ClaimRecord): Promise<FileToken | undefined> {
    await mkdir(this.dir, {mode: 0o700, recursive: true})
    const file = this.file(id)
    const record = stamped(claim)
    const temp = await writeTemp(file, record)
    try {
      const {ino} = await lstat(temp)
      // Held before it exists: another store of this process never sees the claim without its holder.
      hold(file, 1)
      try {
        await link(temp, file)
        return {ino, record}
      } catch (error) {
        hold(file, -1)
        if (errorCode(error) === 'EEXIST') return undefined
        throw error
      }
    } finally {
      await unlink(temp).catch(() => {})
    }
  }

  end(id: string): void {
    hold(this.file(id), -1)
  }

  async isLive(id: string, token: FileToken): Promise<boolean> {
    return isLiveClaim(this.file(id), token.record)
  }

  async read(id: string): Promise<undefined | {record?: FileRecord; token: FileToken}> {
    const found = await readRecord(this.file(id))
    return found && {record: found.record, token: found}
  }

  async release(id: string, expected: FileToken): Promise<void> {
    await removeIfSame(this.file(id), expected.ino)
  }

  /** Replaces the file while it is the copy `expected` stands for; a result written prunes the directory. */
  async replaceIfSame(id: string, expected: FileToken, next: IdempotencyRecord): Promise<boolean> {
    const file = this.file(id)
    const temp = await writeTemp(file, stamped(next))
    try {
      const info = await lstat(file).catch((error) => {
        if (errorCode(error) === 'ENOENT') return undefined
        throw error
      })
      if (info?.ino !== expected.ino) return false
      await rename(temp, file)
    } finally {
      await unlink(temp).catch(() => {})
    }

    if (next.state === 'done') await this.prune(file).catch(() => {})
    return true
  }

  private file(id: string): string {
    return join(this.dir, `${id}.json`)
  }

  /** Keeps the store within its age, count and size limits; never touches `keep` (just written) or live claims. */
  private async prune(keep: string): Promise<void> {
    const now = Date.now()
    const names = await readdir(this.dir)
    const infos = await Promise.all(names.map(async (name) => {
      const file = join(this.dir, name)
      return {file, info: await lstat(file).catch(() => undefined), name}
    }))
    const records: {file: string; mtimeMs: number; size: number}[] = []
    let bytes = 0
    for (const {file, info, name} of infos) {
      if (!info) continue
      if (name.endsWith('.tmp') && now - info.mtimeMs > TEMP_MAX_AGE_MS) await unlink(file).catch(() => {})
      else if (file === keep) bytes += info.size
      else if (name.endsWith('.json')) records.push({file, mtimeMs: info.mtimeMs, size: info.size})
    }

    records.sort((a, b) => b.mtimeMs - a.mtimeMs)
    let count = 1
    for (const record of records) {
      if (now - record.mtimeMs > this.keepMs || count >= this.maxEntries || bytes + record.size > this.maxBytes) {
        const found = await readRecord(record.file)
        if (!found) continue
        if (!isLiveClaim(record.file, found.record)) {
          await removeIfSame(record.file, found.ino).catch(() => {})
          continue
        }
      }

      count++
      bytes += record.size
    }
  }
}

/** The idempotency records of one server in `options.dir`: the protocol over the files. */
export function fileIdempotency(options: IdempotencyFileOptions): IdempotencyRecords {
  return new Idempotency(new IdempotencyFiles(options), options)
}
