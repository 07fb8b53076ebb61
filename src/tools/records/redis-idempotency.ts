import type {IdempotencyRecords} from './state-store.js'

import {type ClaimRecord, type DoneRecord, Idempotency, type IdempotencyRecord, type IdempotencyStorage, parseIdempotencyRecord} from './idempotency.js'
import {LEASE_MS, type RedisConnection} from './redis-connection.js'
import {quotaFull} from './redis-quota.js'

// The idempotency records in Redis, shared by every replica on it (the protocol is idempotency.ts). A claim is a key
// set only if absent (SET NX), kept alive by a lease its replica renews while the command runs; a record is replaced
// or removed only while it still holds what was read (a Lua compare-and-set), so no replica overwrites another's.

/** How often a replica renews the leases of its claims (they run out after LEASE_MS). */
const RENEW_MS = 5000
/** How long an idempotency record is kept, and how often a waiting replica reads another's claim again. */
const RECORD_MS = 24 * 60 * 60 * 1000
const POLL_MS = 200

/** Sets KEYS[1] to ARGV[2] (for ARGV[3] ms) only while it still holds ARGV[1]. */
const REPLACE_IF_SAME = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3]) else return false end`

/** Deletes KEYS[1] only while it still holds ARGV[1]. */
const DELETE_IF_SAME = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) else return 0 end`

/** A record's text as read or written (what the compare-and-set compares), and the replica its claim names. */
interface RedisToken {owner?: string; text: string}

/**
 * Keys `<prefix>:idem:<id>` (the record: a claim names its replica as `owner`) and `<prefix>:idem-lease:<id>:<replica>`
 * (each replica's lease on its claim is its own key, so no replica's lease is ever overwritten by another's).
 */
export class RedisClaims implements IdempotencyStorage<RedisToken> {
  readonly keepMs = RECORD_MS
  readonly shown: string
  /** The lease renewals of this replica's claims whose runs go on, by id. */
  private readonly renewals = new Map<string, NodeJS.Timeout>()

  constructor(private readonly redis: RedisConnection) {
    this.shown = redis.shown
  }

  async claim(id: string, claim: ClaimRecord): Promise<RedisToken | undefined> {
    const {redis} = this
    const text = JSON.stringify({argsHash: claim.argsHash, owner: redis.replica, startedAt: claim.startedAt, state: claim.state, tool: claim.tool})
    const lease = this.lease(id, redis.replica)
    // The lease first: a claim is never seen without its lease while its replica lives.
    await redis.cmd((client) => client.set(lease, text, {expiration: {type: 'PX', value: LEASE_MS}}))
    if ((await redis.cmd((client) => client.set(this.record(id), text, {condition: 'NX', expiration: {type: 'PX', value: RECORD_MS}}))) !== 'OK') {
      await redis.cmd((client) => client.del(lease))
      return undefined
    }

    const renew = () => redis.cmd((client) => client.pExpire(lease, LEASE_MS)).catch(() => {})
    this.renewals.set(id, setInterval(renew, RENEW_MS))
    return {owner: redis.replica, text}
  }

  /** The lease is no longer renewed: where it is still there, it runs out. */
  end(id: string): void {
    clearInterval(this.renewals.get(id))
    this.renewals.delete(id)
  }

  async isLive(id: string, token: RedisToken): Promise<boolean> {
    const {owner} = token
    return owner !== undefined && (await this.redis.cmd((client) => client.exists(this.lease(id, owner)))) === 1
  }

  async read(id: string): Promise<undefined | {record?: IdempotencyRecord; token: RedisToken}> {
    const text = await this.redis.cmd((client) => client.get(this.record(id)))
    if (text === null) return undefined
    const record = parseIdempotencyRecord<{owner: unknown}>(text)
    return {record, token: {owner: typeof record?.owner === 'string' ? record.owner : undefined, text}}
  }

  async release(id: string, expected: RedisToken): Promise<void> {
    await this.redis.cmd((client) => client.eval(DELETE_IF_SAME, {arguments: [expected.text], keys: [this.record(id)]}))
    await this.dropLease(id, expected)
  }

  /** A result is kept within the quotas: past one, the record keeps a note in its place (a retry never runs again). */
  async replaceIfSame(id: string, expected: RedisToken, next: IdempotencyRecord, principal?: string): Promise<boolean> {
    const {redis} = this
    const {argsHash, startedAt, tool} = next
    let text: string
    if (next.state === 'done') {
      let done: DoneRecord = {argsHash, recordedAt: next.recordedAt, result: next.result, startedAt, state: 'done', tool}
      const room = await redis.reserve(`idem-${id}`, Buffer.byteLength(JSON.stringify(done)), RECORD_MS, principal)
      if (room !== 'ok') {
        const {result} = next
        const message = `This call ran (${tool}, exit code ${String((result.structuredContent as undefined | {exitCode?: unknown})?.exitCode ?? 'unknown')}), but its result was not kept for retries: ${quotaFull(redis.quota, room)}.`
        done = {...done, result: {content: [{text: message, type: 'text'}], isError: result.isError ?? false, structuredContent: {message, outputForgotten: true}}}
      }

      text = JSON.stringify(done)
    } else {
      text = JSON.stringify({argsHash, owner: expected.owner, startedAt, state: next.state, tool})
    }

    const replaced = (await redis.cmd((client) => client.eval(REPLACE_IF_SAME, {arguments: [expected.text, text, String(RECORD_MS)], keys: [this.record(id)]}))) !== null
    if (replaced) await this.dropLease(id, expected)
    return replaced
  }

  /** Removes this replica's lease on a claim that is settled. */
  private async dropLease(id: string, claim: RedisToken): Promise<void> {
    if (claim.owner === this.redis.replica) await this.redis.cmd((client) => client.del(this.lease(id, this.redis.replica))).catch(() => {})
  }

  private lease(id: string, owner: string): string {
    return this.redis.key('idem-lease', id, owner)
  }

  private record(id: string): string {
    return this.redis.key('idem', id)
  }
}

/** The idempotency records of every replica on `redis`: the protocol over Redis. */
export function redisIdempotency(redis: RedisConnection): IdempotencyRecords {
  return new Idempotency(new RedisClaims(redis), {pollMs: POLL_MS})
}
