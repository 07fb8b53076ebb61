import type {RedisClientType} from '@redis/client'

import {randomBytes} from 'node:crypto'
import {hostname} from 'node:os'
import {setTimeout as sleep} from 'node:timers/promises'

import type {Execution, IdempotentOutcome} from './idempotency.js'
import type {IdempotencyRecords, JobRecord, OutputStream, SharedRecords} from './state-store.js'

import {DEFAULT_STATE_QUOTA, shownUrl, type StateQuota} from '../../settings/state-url.js'
import {canonicalJson, shortHash} from '../catalog/fingerprint.js'
import {checkIdempotencyKey} from './idempotency.js'
import {quotaFull, reserveRoom} from './redis-quota.js'

// The Redis store: idempotency records, job status and job output, and kept outputs, shared by every `mcp serve`
// replica that names the same Redis. A claim is a key set only if absent (SET NX), kept alive by a lease its
// replica renews while the command runs; its result replaces it only while it is still that claim (a Lua
// compare-and-set), so a replica that lost its claim never overwrites another's record.

export class StateError extends Error {
  readonly code = 'STATE_STORE_UNAVAILABLE'
}

/** A claim or job whose lease is not renewed for this long has lost its process (its replica stopped). */
const LEASE_MS = 15_000
const RENEW_MS = 5000
/** How long an idempotency record is kept, how often a waiting replica looks again, and for how long. */
const RECORD_MS = 24 * 60 * 60 * 1000
const POLL_MS = 200
const WAIT_MS = 10 * 60 * 1000
/** Jobs and outputs are kept this long after they end (as in one server: jobs.ts JOB_RETENTION_MS). */
const KEPT_MS = 60 * 60 * 1000
/** Commands are given up on, and said so, after this long without an answer from Redis. */
const COMMAND_TIMEOUT_MS = 5000

/** Sets KEYS[1] to ARGV[2] (for ARGV[3] ms) only while it still holds ARGV[1]. */
const REPLACE_IF_SAME = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3]) else return false end`

/** Deletes KEYS[1] only while it still holds ARGV[1]. */
const DELETE_IF_SAME = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) else return 0 end`

interface Claim {argsHash: string; owner: string; startedAt: number; state: 'interrupted' | 'running'; tool: string}
interface Done {argsHash: string; recordedAt: number; result: Execution['result']; startedAt: number; state: 'done'; tool: string}
type StoredRecord = Claim | Done

const describe = (error: unknown) => (error instanceof Error ? error.message : String(error))



/** One connection to Redis and the records kept in it, under `prefix`. */
/** What an output's meta key holds: its command line, whose run it was, and of which command. */
function outputMeta(commandLine: string, principal: string | undefined, command: string | undefined): string {
  return JSON.stringify({command, commandLine, principal})
}

/** An output's meta key read back; a replica of an earlier version wrote the command line alone. */
function readOutputMeta(meta: string): {command?: string; commandLine: string; principal?: string} {
  if (!meta.startsWith('{')) return {commandLine: meta}
  try {
    return JSON.parse(meta) as {command?: string; commandLine: string; principal?: string}
  } catch {
    return {commandLine: meta}
  }
}

export class RedisState implements IdempotencyRecords, SharedRecords {
  /** This replica, as claims and jobs name their owner. */
  readonly replica = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`
  readonly shown: string
  private client?: RedisClientType
  private readonly inflight = new Map<string, Promise<void>>()

  /** Running jobs of this replica whose output stopped being mirrored: a quota was reached. */
  private readonly unmirrored = new Set<string>()

  constructor(
    private readonly url: string,
    private readonly prefix: string,
    readonly quota: StateQuota = DEFAULT_STATE_QUOTA,
  ) {
    this.shown = shownUrl(url)
  }

  /** Appends to a running job's stream, within the quotas; past one, the job's output is no longer mirrored. */
  async appendOutput(id: string, stream: OutputStream, text: string, principal?: string): Promise<void> {
    if (this.unmirrored.has(id)) return
    const key = this.key('out', id, stream)
    const bytes = Buffer.byteLength(text)
    // Reserved for as long as the key lives after this append; the whole streams are reserved again when the job ends.
    if ((await this.reserve(id, bytes, KEPT_MS + LEASE_MS * 4, principal)) !== 'ok') {
      this.unmirrored.add(id)
      return
    }

    await this.cmd((redis) => redis.multi().append(key, text).pExpire(key, KEPT_MS + LEASE_MS * 4).exec())
  }

  async cancelRequested(id: string): Promise<boolean> {
    return (await this.cmd((redis) => redis.exists(this.key('job-cancel', id)))) === 1
  }

  /** Lets commands in flight finish (for at most COMMAND_TIMEOUT_MS), then closes the connection. */
  async close(): Promise<void> {
    const {client} = this
    this.client = undefined
    if (!client) return
    const closing = client.close().catch(() => {})
    if ((await Promise.race([closing.then(() => 'closed'), sleep(COMMAND_TIMEOUT_MS)])) !== 'closed') {
      try {
        client.destroy()
      } catch {
        // Closed meanwhile.
      }
    }
  }

  /** Connects and checks the connection (PING); throws StateError saying what to fix. */
  async connect(): Promise<void> {
    const {createClient} = await import('@redis/client')
    const client = createClient({
      // A command sent while Redis is away fails at once (no offline queue): a call then gets a clear error.
      disableOfflineQueue: true,
      // Once connected, a lost connection is retried for ever (backing off to 2 s); the first connection is not.
      socket: {connectTimeout: COMMAND_TIMEOUT_MS, reconnectStrategy: (retries) => (this.client ? Math.min(100 * 2 ** retries, 2000) : false)},
      url: this.url,
    }) as unknown as RedisClientType
    // Reconnection is the client's business; an error event must not end the process.
    client.on('error', () => {})
    try {
      await client.connect()
      this.client = client
      await this.cmd((redis) => redis.ping())
    } catch (error) {
      this.client = undefined
      try {
        client.destroy()
      } catch {
        // Already closed by the failed connection.
      }

      throw new StateError(`Cannot use the state store ${this.shown}: ${describe(error)}`)
    }
  }

  /**
   * The job's end and its whole streams, within the quotas; past one, its record is kept with a result that says its
   * output was not kept, and the output is not there to read.
   */
  async finishJob(record: JobRecord, streams: Record<OutputStream, string>): Promise<void> {
    this.unmirrored.delete(record.id)
    const expiration = {expiration: {type: 'PX' as const, value: KEPT_MS}}
    const bytes = Buffer.byteLength(streams.stdout) + Buffer.byteLength(streams.stderr) + Buffer.byteLength(JSON.stringify(record))
    const room = await this.reserve(record.id, bytes, KEPT_MS, record.principal)
    if (room !== 'ok' && record.end) {
      const message = `The output and result of job ${record.id} were not kept in the shared state store: ${quotaFull(this.quota, room)}. It ended with exit code ${record.end.exitCode ?? 'none'}.`
      const end = {...record.end, result: {content: [{text: message, type: 'text' as const}], isError: record.end.result.isError ?? false, structuredContent: {message, outputForgotten: true}}}
      await this.cmd((redis) =>
        redis
          .multi()
          .set(this.key('job', record.id), JSON.stringify({...record, end}), expiration)
          .del([this.key('out', record.id, 'stdout'), this.key('out', record.id, 'stderr'), this.key('out', record.id, 'meta'), this.key('job-lease', record.id)])
          .exec(),
      )
      return
    }

    await this.cmd((redis) =>
      redis
        .multi()
        .set(this.key('job', record.id), JSON.stringify(record), expiration)
        .set(this.key('out', record.id, 'stdout'), streams.stdout, expiration)
        .set(this.key('out', record.id, 'stderr'), streams.stderr, expiration)
        .set(this.key('out', record.id, 'meta'), outputMeta(record.commandLine, record.principal, record.command), expiration)
        .del(this.key('job-lease', record.id))
        .exec(),
    )
  }

  /** Keeps a cut result's whole output, within the quotas; answers whether it was kept (past a quota, it is not). */
  async keepOutput(id: string, commandLine: string, streams: Record<OutputStream, string>, principal?: string, command?: string): Promise<boolean> {
    const meta = outputMeta(commandLine, principal, command)
    const bytes = Buffer.byteLength(streams.stdout) + Buffer.byteLength(streams.stderr) + Buffer.byteLength(meta)
    if ((await this.reserve(id, bytes, KEPT_MS, principal)) !== 'ok') return false
    const expiration = {expiration: {type: 'PX' as const, value: KEPT_MS}}
    await this.cmd((redis) =>
      redis
        .multi()
        .set(this.key('out', id, 'stdout'), streams.stdout, expiration)
        .set(this.key('out', id, 'stderr'), streams.stderr, expiration)
        .set(this.key('out', id, 'meta'), meta, expiration)
        .exec(),
    )
    return true
  }

  /** True the first time `id` is given (within `ms`), on any replica: a one-time answer is spent by its first use. */
  async consumeOnce(id: string, ms: number): Promise<boolean> {
    return (await this.cmd((redis) => redis.set(this.key('spent', id), this.replica, {condition: 'NX', expiration: {type: 'PX', value: ms}}))) === 'OK'
  }

  async ownJob(record: JobRecord): Promise<void> {
    const expiration = {expiration: {type: 'PX' as const, value: record.timeoutMs + KEPT_MS}}
    await this.cmd((redis) =>
      redis
        .multi()
        .set(this.key('job', record.id), JSON.stringify(record), expiration)
        .set(this.key('out', record.id, 'meta'), outputMeta(record.commandLine, record.principal, record.command), expiration)
        .set(this.key('job-lease', record.id), this.replica, {expiration: {type: 'PX', value: LEASE_MS}})
        .exec(),
    )
  }

  /**
   * A random secret every replica on this store shares (`name`: what it is for): the first replica to ask makes it,
   * the others read it. Anyone who can read this Redis can read it (see SECURITY.md on who may reach the store).
   */
  async sharedSecret(name: string): Promise<Buffer> {
    const key = this.key('secret', name)
    await this.cmd((redis) => redis.set(key, randomBytes(32).toString('base64'), {condition: 'NX'}))
    const value = await this.cmd((redis) => redis.get(key))
    if (!value) throw new StateError(`The state store ${this.shown} lost the shared secret ${name}.`)
    return Buffer.from(value, 'base64')
  }

  async readJob(id: string): Promise<undefined | {alive: boolean; record: JobRecord}> {
    const [text, lease] = await this.cmd((redis) => redis.mGet([this.key('job', id), this.key('job-lease', id)]))
    if (!text) return undefined
    const record = JSON.parse(text) as JobRecord
    return {alive: record.status !== 'working' || lease !== null, record}
  }

  async readOutput(id: string): Promise<undefined | {command?: string; commandLine: string; principal?: string; streams: Record<OutputStream, string>}> {
    const [meta, stdout, stderr] = await this.cmd((redis) => redis.mGet([this.key('out', id, 'meta'), this.key('out', id, 'stdout'), this.key('out', id, 'stderr')]))
    if (meta === null) return undefined
    const {command, commandLine, principal} = readOutputMeta(meta)
    return {...(command === undefined ? {} : {command}), commandLine, ...(principal === undefined ? {} : {principal}), streams: {stderr: stderr ?? '', stdout: stdout ?? ''}}
  }

  async requestCancel(id: string): Promise<void> {
    await this.cmd((redis) => redis.set(this.key('job-cancel', id), this.replica, {expiration: {type: 'PX', value: KEPT_MS}}))
  }

  /**
   * Runs `execute` at most once per tool + key (+ the same arguments) across every replica, and records its result
   * for later retries. Redis unreachable before the claim: refused, nothing runs. Lost after it: the command has run,
   * and the result says it could not be recorded.
   */
  async run(tool: string, key: string, args: unknown, execute: () => Promise<Execution>, principal?: string): Promise<IdempotentOutcome> {
    const invalid = checkIdempotencyKey(key)
    if (invalid) return {message: invalid, reason: 'invalid-key', status: 'refused'}
    const id = shortHash(JSON.stringify(principal === undefined ? [tool, key] : [tool, key, principal]), 64)
    const argsHash = shortHash(canonicalJson(args), 64)
    // Calls with the same key in this replica queue behind the one in flight instead of polling Redis.
    for (let busy = this.inflight.get(id); busy; busy = this.inflight.get(id)) await busy
    const job = this.settle(id, tool, argsHash, execute, principal)
    const settled = job.then(() => {}, () => {})
    this.inflight.set(id, settled)
    try {
      return await job
    } finally {
      if (this.inflight.get(id) === settled) this.inflight.delete(id)
    }
  }

  private async execute(id: string, claimText: string, claim: Claim, execute: () => Promise<Execution>, principal?: string): Promise<IdempotentOutcome> {
    const record = this.key('idem', id)
    const lease = this.key('idem-lease', id, this.replica)
    const renew = setInterval(() => {
      this.cmd((redis) => redis.pExpire(lease, LEASE_MS)).catch(() => {})
    }, RENEW_MS)
    let execution: Execution
    try {
      execution = await execute()
    } catch (error) {
      await this.replaceIfSame(record, claimText, JSON.stringify({...claim, state: 'interrupted'})).catch(() => {})
      throw error
    } finally {
      clearInterval(renew)
    }

    const {result} = execution
    if (!execution.ran) {
      const released = await this.cmd((redis) => redis.eval(DELETE_IF_SAME, {arguments: [claimText], keys: [record]}))
        .then(() => undefined, (error: unknown) => `Could not release the idempotency record: ${describe(error)}`)
      await this.cmd((redis) => redis.del(lease)).catch(() => {})
      return released ? {result, status: 'not-run', storageError: released} : {result, status: 'not-run'}
    }

    let done: Done = {argsHash: claim.argsHash, recordedAt: Date.now(), result, startedAt: claim.startedAt, state: 'done', tool: claim.tool}
    try {
      // Past a quota the record is still kept (a retry must never run the command again), its result cut to a note.
      const room = await this.reserve(`idem-${id}`, Buffer.byteLength(JSON.stringify(done)), RECORD_MS, principal)
      if (room !== 'ok') {
        const message = `This call ran (${claim.tool}, exit code ${String((result.structuredContent as undefined | {exitCode?: unknown})?.exitCode ?? 'unknown')}), but its result was not kept for retries: ${quotaFull(this.quota, room)}.`
        done = {...done, result: {content: [{text: message, type: 'text'}], isError: result.isError ?? false, structuredContent: {message, outputForgotten: true}}}
      }

      if (!(await this.replaceIfSame(record, claimText, JSON.stringify(done)))) throw new Error('the claim was no longer this replica’s')
      await this.cmd((redis) => redis.del(lease)).catch(() => {})
    } catch (error) {
      const storageError = `The result could not be recorded in ${this.shown}, so a retry with this idempotencyKey may not get it back (it is then answered as interrupted; it is never run again): ${describe(error)}`
      return {result, status: 'executed', storageError}
    }

    return {result, status: 'executed'}
  }

  private key(kind: string, id: string, part?: string): string {
    return part ? `${this.prefix}:${kind}:${id}:${part}` : `${this.prefix}:${kind}:${id}`
  }

  /**
   * One round trip to Redis, given up on (StateError) when Redis does not answer within COMMAND_TIMEOUT_MS: the
   * client's own timeout covers only the wait before a command is written, not a Redis that stopped answering.
   */
  private async cmd<T>(send: (redis: RedisClientType) => Promise<T>): Promise<T> {
    if (!this.client) throw new StateError(`The state store ${this.shown} is not connected.`)
    const answer = send(this.client)
    let timer: NodeJS.Timeout | undefined
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new StateError(`${this.shown} did not answer within ${COMMAND_TIMEOUT_MS / 1000} s`)), COMMAND_TIMEOUT_MS)
    })
    try {
      return await Promise.race([answer, late])
    } finally {
      clearTimeout(timer)
      // An answer that comes after the wait was given up on is dropped, its failure too.
      answer.catch(() => {})
    }
  }

  /** Reserves `bytes` for `ms` in the quota ledger (redis-quota.ts): 'ok', or the quota it would pass. */
  private reserve(id: string, bytes: number, ms: number, principal?: string): Promise<'ok' | 'person' | 'total'> {
    return this.cmd((redis) => reserveRoom(redis, (owner, part) => this.key('quota', owner, part), this.quota, {bytes, id, ms, principal}))
  }

  private async replaceIfSame(key: string, expected: string, next: string): Promise<boolean> {
    return (await this.cmd((redis) => redis.eval(REPLACE_IF_SAME, {arguments: [expected, next, String(RECORD_MS)], keys: [key]}))) !== null
  }

  private async settle(id: string, tool: string, argsHash: string, execute: () => Promise<Execution>, principal?: string): Promise<IdempotentOutcome> {
    const unavailable = (error: unknown): IdempotentOutcome => ({
      message: `The idempotency store ${this.shown} could not be used, so the command was not run (${describe(error)}). Retry later, or without idempotencyKey to run it unprotected.`,
      reason: 'unavailable',
      status: 'refused',
    })
    const record = this.key('idem', id)
    // Each replica's lease on a key is its own key, so no replica's lease is ever overwritten by another's.
    const lease = (owner: string) => this.key('idem-lease', id, owner)
    const deadline = Date.now() + WAIT_MS
    for (;;) {
      const claim: Claim = {argsHash, owner: this.replica, startedAt: Date.now(), state: 'running', tool}
      const claimText = JSON.stringify(claim)
      let text: null | string
      let alive = false
      try {
        // The lease first: a claim is never seen without its lease while its replica lives.
        await this.cmd((redis) => redis.set(lease(this.replica), claimText, {expiration: {type: 'PX', value: LEASE_MS}}))
        if ((await this.cmd((redis) => redis.set(record, claimText, {condition: 'NX', expiration: {type: 'PX', value: RECORD_MS}}))) === 'OK') {
          return this.execute(id, claimText, claim, execute, principal)
        }

        await this.cmd((redis) => redis.del(lease(this.replica)))
        text = await this.cmd((redis) => redis.get(record))
        const owner = text === null ? undefined : (JSON.parse(text) as StoredRecord & {owner?: string}).owner
        if (owner) alive = (await this.cmd((redis) => redis.exists(lease(owner)))) === 1
      } catch (error) {
        return unavailable(error)
      }

      if (text === null) continue
      const stored = JSON.parse(text) as StoredRecord
      const started = new Date(stored.startedAt).toISOString()
      if (stored.argsHash !== argsHash) {
        return {message: `This idempotencyKey was already used for a ${tool} call with different arguments (at ${started}). Use a new key for a different call.`, reason: 'conflict', status: 'refused'}
      }

      if (stored.state === 'done') return {recordedAt: new Date(stored.recordedAt).toISOString(), result: stored.result, status: 'replayed'}
      if (stored.state !== 'running' || !alive) {
        return {
          message: `An earlier ${tool} call with this idempotencyKey (started ${started}) was interrupted before it finished, so the command may or may not have run. It is not run again with this key: check whether it took effect, and use a new key to run it again.`,
          reason: 'interrupted',
          status: 'refused',
        }
      }

      if (Date.now() >= deadline) {
        return {message: `An earlier ${tool} call with this idempotencyKey (started ${started}) is still running on another replica. Retry later with the same key to get its result.`, reason: 'in-progress', status: 'refused'}
      }

      await sleep(POLL_MS)
    }
  }
}
