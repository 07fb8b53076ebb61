import type {CallToolResult} from '@modelcontextprotocol/server'

import {link, lstat, mkdir, readdir, rename, unlink} from 'node:fs/promises'
import {join, resolve} from 'node:path'
import {performance} from 'node:perf_hooks'
import {setTimeout as sleep} from 'node:timers/promises'

import {MAX_IDEMPOTENCY_KEY_LENGTH} from '../catalog/call-inputs.js'
import {canonicalJson, shortHash} from '../catalog/fingerprint.js'
import {type Claim, errorCode, FORMAT, readRecord, removeIfSame, type StoredRecord, writeTemp} from './idempotency-files.js'

export interface IdempotencyOptions {
  dir: string
  /** Records older than this are ignored and pruned; the key runs again. Default 24 h. */
  maxAgeMs?: number
  /** Total size of the records; the oldest go first. Default 64 MiB. */
  maxBytes?: number
  /** Number of records; the oldest go first. Default 1000. */
  maxEntries?: number
  /** How often to look at another process's running claim. Default 100 ms. */
  pollMs?: number
  /** How long to wait for another process's run of the same key before refusing. Default 10 min. */
  waitMs?: number
}

export type IdempotencyRefusal = 'conflict' | 'in-progress' | 'interrupted' | 'invalid-key' | 'unavailable'

/**
 * `executed`: it ran now (`storageError` when its result could not be recorded). `not-run`: `execute` reported that
 * nothing ran (bad arguments, busy), nothing was recorded and a retry with the key may run. `replayed`: the first run's
 * result. `refused`: nothing ran; `message` says why, for the model.
 */
export type IdempotentOutcome =
  | {message: string; reason: IdempotencyRefusal; status: 'refused'}
  | {recordedAt: string; result: CallToolResult; status: 'replayed'}
  | {result: CallToolResult; status: 'executed' | 'not-run'; storageError?: string}

export interface Execution {
  ran: boolean
  result: CallToolResult
}

/** Leftover temp files (a process died between writing and renaming one) are removed after this. */
const TEMP_MAX_AGE_MS = 10 * 60 * 1000
/** Removing stale records while rivals replace them: give up rather than loop for ever. */
const MAX_RETRIES = 20

/**
 * When this process started (ms since the epoch). Claims carry it next to the pid: a claim with our pid and another
 * start time was left by a predecessor that had the same pid (usual in containers), one with ours by this process.
 */
const PROCESS_STARTED = Math.round(performance.timeOrigin)

/** Why a key is unusable, or undefined when it is fine. */
export function checkIdempotencyKey(key: unknown): string | undefined {
  if (typeof key !== 'string' || key.trim() === '') return 'idempotencyKey must be a non-empty string.'
  if (key.length > MAX_IDEMPOTENCY_KEY_LENGTH) return `idempotencyKey is ${key.length} characters long; at most ${MAX_IDEMPOTENCY_KEY_LENGTH} are allowed.`
  return undefined
}

function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

function refuse(reason: IdempotencyRefusal, message: string): IdempotentOutcome {
  return {message, reason, status: 'refused'}
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

/**
 * The record store behind a tool call's `idempotencyKey`: a retry with the same key gets the first run's result and
 * never runs the command twice — also for concurrent calls, other processes sharing the directory, and restarts.
 *
 * One file per tool + key, `<sha256>.json`, in one of three states: `running` (a claim: pid and start time, created
 * atomically with link(2), so it is never seen half-written), `done` (the recorded result, written with rename(2)
 * over the claim) and `interrupted` (the run threw or its result could not be recorded).
 */
export class IdempotencyStore {
  readonly dir: string
  /** Records whose claim one of this store's runs left behind (its run failed, and so did marking it interrupted). */
  private readonly abandoned = new Set<string>()
  /** This store's runs, by record file: calls with the same key queue behind the one in flight instead of polling. */
  private readonly inflight = new Map<string, Promise<void>>()
  private readonly maxAgeMs: number
  private readonly maxBytes: number
  private readonly maxEntries: number
  private readonly pollMs: number
  private readonly waitMs: number

  constructor(options: IdempotencyOptions) {
    this.dir = resolve(options.dir)
    this.maxAgeMs = options.maxAgeMs ?? 24 * 60 * 60 * 1000
    this.maxBytes = options.maxBytes ?? 64 * 1024 * 1024
    this.maxEntries = options.maxEntries ?? 1000
    this.pollMs = options.pollMs ?? 100
    this.waitMs = options.waitMs ?? 10 * 60 * 1000
  }

  /** Runs `execute` at most once per tool + key (+ the same arguments) and records its result for later retries. */
  async run(tool: string, key: string, args: unknown, execute: () => Promise<Execution>, principal?: string): Promise<IdempotentOutcome> {
    const invalid = checkIdempotencyKey(key)
    if (invalid) return refuse('invalid-key', invalid)
    const file = join(this.dir, `${shortHash(JSON.stringify(principal === undefined ? [tool, key] : [tool, key, principal]), 64)}.json`)
    const argsHash = shortHash(canonicalJson(args), 64)
    // No await between the last check and the set below: one run per record at a time in this store.
    const {inflight} = this
    for (let busy = inflight.get(file); busy; busy = inflight.get(file)) await busy
    const job = this.settle(file, tool, argsHash, execute)
    const settled = job.then(() => {}, () => {})
    inflight.set(file, settled)
    try {
      return await job
    } finally {
      if (inflight.get(file) === settled) inflight.delete(file)
    }
  }

  /** Creates `file` only if it does not exist (false then), never visible half-written. */
  private async create(file: string, record: StoredRecord): Promise<boolean> {
    const temp = await writeTemp(file, record)
    try {
      await link(temp, file)
      return true
    } catch (error) {
      if (errorCode(error) === 'EEXIST') return false
      throw error
    } finally {
      await unlink(temp).catch(() => {})
    }
  }

  private async execute(file: string, claim: Claim, execute: () => Promise<Execution>): Promise<IdempotentOutcome> {
    let execution: Execution
    try {
      execution = await execute()
    } catch (error) {
      await this.markInterrupted(file, claim)
      throw error
    }

    const {result} = execution
    if (!execution.ran) {
      const storageError = await unlink(file).then(() => undefined, (error) => `Could not release the idempotency record: ${describeError(error)}`)
      return storageError ? {result, status: 'not-run', storageError} : {result, status: 'not-run'}
    }

    try {
      await this.replace(file, {...claim, recordedAt: Date.now(), result, state: 'done'})
    } catch (error) {
      await this.markInterrupted(file, claim)
      const storageError = `The result could not be recorded, so a retry with this idempotencyKey will not get it back: ${describeError(error)}`
      return {result, status: 'executed', storageError}
    }

    await this.prune(file).catch(() => {})
    return {result, status: 'executed'}
  }

  private expired(record: StoredRecord, file: string): boolean {
    const at = record.state === 'done' ? record.recordedAt : record.startedAt
    return Date.now() - at > this.maxAgeMs && !this.isLiveClaim(record, file)
  }

  /**
   * A claim whose process still runs: never expired, never pruned. One of this process's own counts as live (another
   * store of this process is running it) unless this store left it behind.
   */
  private isLiveClaim(record: StoredRecord | undefined, file: string): boolean {
    if (record?.state !== 'running') return false
    if (record.pid !== process.pid) return otherProcessRuns(record.pid)
    return record.process === PROCESS_STARTED && !this.abandoned.has(file)
  }

  /** After a run that failed: the claim says so, or, when even that cannot be written, this store remembers it. */
  private async markInterrupted(file: string, claim: Claim): Promise<void> {
    await this.replace(file, {...claim, state: 'interrupted'}).catch(() => this.abandoned.add(file))
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
      if (now - record.mtimeMs > this.maxAgeMs || count >= this.maxEntries || bytes + record.size > this.maxBytes) {
        const found = await readRecord(record.file)
        if (!found) continue
        if (!this.isLiveClaim(found.record, record.file)) {
          await removeIfSame(record.file, found.ino)
          continue
        }
      }

      count++
      bytes += record.size
    }
  }

  private async replace(file: string, record: StoredRecord): Promise<void> {
    const temp = await writeTemp(file, record)
    await rename(temp, file).catch(async (error) => {
      await unlink(temp).catch(() => {})
      throw error
    })
  }

  private async settle(file: string, tool: string, argsHash: string, execute: () => Promise<Execution>): Promise<IdempotentOutcome> {
    const unavailable = (error: unknown) =>
      refuse('unavailable', `The idempotency store could not be used, so the command was not run (${describeError(error)}). Retry without idempotencyKey to run it unprotected.`)
    const deadline = Date.now() + this.waitMs
    let retries = 0
    for (;;) {
      const claim: Claim = {argsHash, pid: process.pid, process: PROCESS_STARTED, startedAt: Date.now(), state: 'running', tool, v: FORMAT}
      let claimed: boolean
      try {
        await mkdir(this.dir, {mode: 0o700, recursive: true})
        claimed = await this.create(file, claim)
      } catch (error) {
        return unavailable(error)
      }

      if (claimed) {
        this.abandoned.delete(file)
        return this.execute(file, claim, execute)
      }

      const found = await readRecord(file)
      const record = found?.record
      if (!found || !record || this.expired(record, file)) {
        if (retries++ >= MAX_RETRIES || (found && !(await removeIfSame(file, found.ino)))) return unavailable('stale record could not be removed')
        continue
      }

      const started = new Date(record.startedAt).toISOString()
      if (record.argsHash !== argsHash) {
        return refuse('conflict', `This idempotencyKey was already used for a ${tool} call with different arguments (at ${started}). Use a new key for a different call.`)
      }

      if (record.state === 'done') return {recordedAt: new Date(record.recordedAt).toISOString(), result: record.result, status: 'replayed'}
      if (record.state === 'interrupted' || !this.isLiveClaim(record, file)) {
        return refuse('interrupted', `An earlier ${tool} call with this idempotencyKey (started ${started}) was interrupted before it finished, so the command may or may not have run. It is not run again with this key: check whether it took effect, and use a new key to run it again.`)
      }

      if (Date.now() >= deadline) {
        return refuse('in-progress', `An earlier ${tool} call with this idempotencyKey (started ${started}) is still running in another process. Retry later with the same key to get its result.`)
      }

      await sleep(this.pollMs)
    }
  }
}
