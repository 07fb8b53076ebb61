import type {RedisClientType} from '@redis/client'

import {randomBytes} from 'node:crypto'
import {hostname} from 'node:os'
import {setTimeout as sleep} from 'node:timers/promises'

import {DEFAULT_STATE_QUOTA, shownUrl, type StateQuota} from '../../settings/state-url.js'
import {reserveRoom, type Room} from './redis-quota.js'
import {CodedError} from '../../error-codes.js'

// The connection to the Redis every `mcp serve` replica on one store shares, under the CLI's key prefix: commands
// given up on when Redis stops answering, key names, the quota ledger, and the secret and one-time ids replicas share.

export class StateError extends CodedError {
  constructor(message: string) {
    super('STATE_STORE_UNAVAILABLE', message)
  }
}

/** A claim or job whose lease is not renewed for this long has lost its process (its replica stopped). */
export const LEASE_MS = 15_000
/** Commands are given up on, and said so, after this long without an answer from Redis. */
const COMMAND_TIMEOUT_MS = 5000

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

/** One connection to Redis, and the names of the keys kept in it under `prefix`. */
export class RedisConnection {
  /** This replica, as claims and jobs name their owner. */
  readonly replica = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`
  /** What the store is, for messages: its URL without the password. */
  readonly shown: string
  private client?: RedisClientType

  constructor(
    private readonly url: string,
    private readonly prefix: string,
    readonly quota: StateQuota = DEFAULT_STATE_QUOTA,
  ) {
    this.shown = shownUrl(url)
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

  /**
   * One round trip to Redis, given up on (StateError) when Redis does not answer within COMMAND_TIMEOUT_MS: the
   * client's own timeout covers only the wait before a command is written, not a Redis that stopped answering.
   */
  async cmd<T>(send: (redis: RedisClientType) => Promise<T>): Promise<T> {
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

  /** True the first time `id` is given (within `ms`), on any replica: a one-time answer is spent by its first use. */
  async consumeOnce(id: string, ms: number): Promise<boolean> {
    return (await this.cmd((redis) => redis.set(this.key('spent', id), this.replica, {condition: 'NX', expiration: {type: 'PX', value: ms}}))) === 'OK'
  }

  /** The key of `kind` for `id` (and `part`), under this store's prefix. */
  key(kind: string, id: string, part?: string): string {
    return part ? `${this.prefix}:${kind}:${id}:${part}` : `${this.prefix}:${kind}:${id}`
  }

  /** Reserves `bytes` for `ms` in the quota ledger (redis-quota.ts): 'ok', or the quota it would pass. */
  reserve(id: string, bytes: number, ms: number, principal?: string): Promise<Room> {
    return this.cmd((redis) => reserveRoom(redis, (owner, part) => this.key('quota', owner, part), this.quota, {bytes, id, ms, principal}))
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
}
