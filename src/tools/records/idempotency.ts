import type {CallToolResult} from '@modelcontextprotocol/server'

import {setTimeout as sleep} from 'node:timers/promises'

import {MAX_IDEMPOTENCY_KEY_LENGTH} from '../catalog/call-inputs.js'
import {canonicalJson, shortHash} from '../catalog/fingerprint.js'

// The idempotency protocol, written once for every store that keeps its records (idempotency-files.ts,
// redis-idempotency.ts): one run per tool + key + arguments, what a retry finds, and what it is told.

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

/**
 * The record kept per tool + key (+ principal), as every store has it; a store adds fields of its own (who holds a
 * claim, a format version). A claim is `running` while its command runs, `interrupted` when the run threw or its
 * result could not be recorded, and is replaced by `done` with the result.
 */
interface RecordBase {argsHash: string; startedAt: number; tool: string}
export interface ClaimRecord extends RecordBase {state: 'interrupted' | 'running'}
export interface DoneRecord extends RecordBase {recordedAt: number; result: CallToolResult; state: 'done'}
export type IdempotencyRecord = ClaimRecord | DoneRecord

/**
 * A record read back; undefined when it is not JSON or lacks a field every store's records have. `Own`: the fields of
 * the store that wrote it, which it checks itself.
 */
export function parseIdempotencyRecord<Own extends object>(text: string): (IdempotencyRecord & Partial<Own>) | undefined {
  let value: Record<string, unknown> | undefined
  try {
    value = JSON.parse(text)
  } catch {
    return undefined
  }

  if (!value || typeof value !== 'object' || typeof value.argsHash !== 'string' || typeof value.tool !== 'string' || !Number.isFinite(value.startedAt)) return undefined
  const result = value.result as CallToolResult | undefined
  const valid = value.state === 'done' ? Number.isFinite(value.recordedAt) && Array.isArray(result?.content) : value.state === 'running' || value.state === 'interrupted'
  return valid ? (value as unknown as IdempotencyRecord & Partial<Own>) : undefined
}

/**
 * Where the records are kept, by `id` (a hash of tool, key and principal). `Token` stands for the copy of a record
 * that was read or written: a record is replaced or removed only while it is still that copy, since a rival may have
 * taken the key over meanwhile. Every method but `end` may throw when the store cannot be used.
 */
export interface IdempotencyStorage<Token> {
  /** Writes `claim` unless a record is there: its token, or undefined. The claim is live from then until `end`. */
  claim(id: string, claim: ClaimRecord): Promise<Token | undefined>
  /** The run of a claim this store made is over (its result recorded or not): it keeps the claim live no more. */
  end(id: string): void
  /** Whether a running claim that was read is held by a run that goes on (this process's or another's). */
  isLive(id: string, token: Token): Promise<boolean>
  /** How long a record is kept: an older one that is not a live claim is taken over. */
  readonly keepMs: number
  /** The record under `id`, and its token; `record` is undefined when it is unreadable (corrupt or foreign). */
  read(id: string): Promise<undefined | {record?: IdempotencyRecord; token: Token}>
  /** Removes the record while it is still `expected` (when it is not, it is left alone). */
  release(id: string, expected: Token): Promise<void>
  /**
   * Replaces the record with `next` while it is still `expected`: false when it was not. `principal`: whose record it
   * is, for a store that counts what it keeps per person.
   */
  replaceIfSame(id: string, expected: Token, next: IdempotencyRecord, principal?: string): Promise<boolean>
  /** What the store is, for messages (a URL without its password); undefined when it goes without saying. */
  readonly shown?: string
}

export interface IdempotencyTiming {
  /** How often to read another run's claim of the key again. Default 100 ms. */
  pollMs?: number
  /** How long to wait for another run of the same key before refusing. Default 10 min. */
  waitMs?: number
}

/** Records that vanish or are taken over between a failed claim and its reading: give up rather than loop for ever. */
const MAX_RETRIES = 20

/** Why a key is unusable, or undefined when it is fine. */
export function checkIdempotencyKey(key: unknown): string | undefined {
  if (typeof key !== 'string' || key.trim() === '') return 'idempotencyKey must be a non-empty string.'
  if (key.length > MAX_IDEMPOTENCY_KEY_LENGTH) return `idempotencyKey is ${key.length} characters long; at most ${MAX_IDEMPOTENCY_KEY_LENGTH} are allowed.`
  return undefined
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

/** When a record was written: its result's time, or its claim's. */
function writtenAt(record: IdempotencyRecord): number {
  return record.state === 'done' ? record.recordedAt : record.startedAt
}

function refuse(reason: IdempotencyRefusal, message: string): IdempotentOutcome {
  return {message, reason, status: 'refused'}
}

/**
 * The records behind a tool call's `idempotencyKey`: a retry with the same key gets the first run's result and never
 * runs the command twice — also for concurrent calls, and for other processes and restarts sharing the storage.
 */
export class Idempotency<Token> {
  /** This process's runs, by id: calls with the same key queue behind the one in flight instead of polling. */
  private readonly inflight = new Map<string, Promise<void>>()
  private readonly pollMs: number
  private readonly waitMs: number

  constructor(
    private readonly storage: IdempotencyStorage<Token>,
    timing: IdempotencyTiming = {},
  ) {
    this.pollMs = timing.pollMs ?? 100
    this.waitMs = timing.waitMs ?? 10 * 60 * 1000
  }

  /**
   * Runs `execute` at most once per tool + key (+ the same arguments) and records its result for later retries.
   * `principal`: whose key it is (an OAuth token's subject); one person's key never answers for another's call. A store
   * that cannot be used before the claim: refused, nothing runs. After it: the command has run, and the outcome says
   * its result could not be recorded.
   */
  async run(tool: string, key: string, args: unknown, execute: () => Promise<Execution>, principal?: string): Promise<IdempotentOutcome> {
    const invalid = checkIdempotencyKey(key)
    if (invalid) return refuse('invalid-key', invalid)
    const id = shortHash(JSON.stringify(principal === undefined ? [tool, key] : [tool, key, principal]), 64)
    const argsHash = shortHash(canonicalJson(args), 64)
    // No await between the last check and the set below: one run per id at a time in this process.
    const {inflight} = this
    for (let busy = inflight.get(id); busy; busy = inflight.get(id)) await busy
    const job = this.settle(id, tool, argsHash, execute, principal)
    const settled = job.then(() => {}, () => {})
    inflight.set(id, settled)
    try {
      return await job
    } finally {
      if (inflight.get(id) === settled) inflight.delete(id)
    }
  }

  /** Runs `execute` under the claim just made, and records what came of it. */
  private async execute(id: string, claim: ClaimRecord, token: Token, execute: () => Promise<Execution>, principal?: string): Promise<IdempotentOutcome> {
    const interrupted = () => this.storage.replaceIfSame(id, token, {...claim, state: 'interrupted'}).catch(() => false)
    try {
      let execution: Execution
      try {
        execution = await execute()
      } catch (error) {
        await interrupted()
        throw error
      }

      const {result} = execution
      if (!execution.ran) {
        const storageError = await this.storage.release(id, token).then(() => undefined, (error) => `Could not release the idempotency record: ${describe(error)}`)
        return storageError ? {result, status: 'not-run', storageError} : {result, status: 'not-run'}
      }

      const done: DoneRecord = {argsHash: claim.argsHash, recordedAt: Date.now(), result, startedAt: claim.startedAt, state: 'done', tool: claim.tool}
      try {
        if (!(await this.storage.replaceIfSame(id, token, done, principal))) throw new Error('the record no longer held this call’s claim')
      } catch (error) {
        await interrupted()
        const {shown} = this.storage
        const storageError = `The result could not be recorded${shown ? ` in ${shown}` : ''}, so a retry with this idempotencyKey may not get it back (it is then answered as interrupted; it is never run again): ${describe(error)}`
        return {result, status: 'executed', storageError}
      }

      return {result, status: 'executed'}
    } finally {
      this.storage.end(id)
    }
  }

  /** Claims the key and runs, or decides what the record found there means: replay, wait, or refuse. */
  private async settle(id: string, tool: string, argsHash: string, execute: () => Promise<Execution>, principal?: string): Promise<IdempotentOutcome> {
    const {shown} = this.storage
    const unavailable = (error: unknown) =>
      refuse('unavailable', `The idempotency store${shown ? ` ${shown}` : ''} could not be used, so the command was not run (${describe(error)}). Retry later, or without idempotencyKey to run it unprotected.`)
    const deadline = Date.now() + this.waitMs
    let retries = 0
    for (;;) {
      const claim: ClaimRecord = {argsHash, startedAt: Date.now(), state: 'running', tool}
      let found: undefined | {live: boolean; record: IdempotencyRecord}
      try {
        const token = await this.storage.claim(id, claim)
        if (token !== undefined) return this.execute(id, claim, token, execute, principal)
        found = await this.lookUp(id)
      } catch (error) {
        return unavailable(error)
      }

      if (!found) {
        if (retries++ >= MAX_RETRIES) return unavailable('its record kept changing while it was read')
        continue
      }

      const {live, record} = found
      const started = new Date(record.startedAt).toISOString()
      if (record.argsHash !== argsHash) {
        return refuse('conflict', `This idempotencyKey was already used for a ${tool} call with different arguments (at ${started}). Use a new key for a different call.`)
      }

      if (record.state === 'done') return {recordedAt: new Date(record.recordedAt).toISOString(), result: record.result, status: 'replayed'}
      if (record.state === 'interrupted' || !live) {
        return refuse('interrupted', `An earlier ${tool} call with this idempotencyKey (started ${started}) was interrupted before it finished, so the command may or may not have run. It is not run again with this key: check whether it took effect, and use a new key to run it again.`)
      }

      if (Date.now() >= deadline) {
        return refuse('in-progress', `An earlier ${tool} call with this idempotencyKey (started ${started}) is still running in another process. Retry later with the same key to get its result.`)
      }

      await sleep(this.pollMs)
    }
  }

  /**
   * The record another run left under `id`, and whether it is a live claim. Undefined when the key is free to claim
   * again: the record went meanwhile, or was unreadable or expired (then it is removed).
   */
  private async lookUp(id: string): Promise<undefined | {live: boolean; record: IdempotencyRecord}> {
    const found = await this.storage.read(id)
    if (!found) return undefined
    const {record, token} = found
    const live = record?.state === 'running' && (await this.storage.isLive(id, token))
    if (record && (live || Date.now() - writtenAt(record) <= this.storage.keepMs)) return {live, record}
    await this.storage.release(id, token)
    return undefined
  }
}
