import type {RedisClientType} from '@redis/client'

import {randomBytes} from 'node:crypto'

import type {StateQuota} from '../../settings/state-url.js'

import {shortHash} from '../catalog/fingerprint.js'
import {shownSize} from './output-store.js'

// The quota ledger of the shared store (redis-connection.ts): what each person, and everyone, keeps in Redis is reserved
// here before it is written, so one person cannot fill the store and a full store refuses nobody's call.

/**
 * The ledger: a sorted set of entries "<bytes>:<id>" scored by when they expire, and their sum, for one person
 * (KEYS[1], KEYS[2]) and for everyone (KEYS[3], KEYS[4]). Entries past their time are taken off the sums first; then
 * ARGV[3] bytes are reserved when the person stays within ARGV[4] and everyone within ARGV[5], and 'person' or 'total'
 * is answered when one would pass its quota. ARGV: now, when the entry expires, bytes, the two quotas, the entry, how
 * long the ledger itself is kept.
 */
const RESERVE = `
local function settle(set, sum, now)
  local gone = redis.call('ZRANGEBYSCORE', set, '-inf', now)
  if #gone > 0 then
    local freed = 0
    for _, entry in ipairs(gone) do freed = freed + tonumber(string.match(entry, '^(%d+):')) end
    redis.call('DECRBY', sum, freed)
    redis.call('ZREMRANGEBYSCORE', set, '-inf', now)
  end
  return tonumber(redis.call('GET', sum) or '0')
end
local bytes = tonumber(ARGV[3])
if settle(KEYS[1], KEYS[2], ARGV[1]) + bytes > tonumber(ARGV[4]) then return 'person' end
if settle(KEYS[3], KEYS[4], ARGV[1]) + bytes > tonumber(ARGV[5]) then return 'total' end
for i = 1, 3, 2 do
  redis.call('ZADD', KEYS[i], ARGV[2], ARGV[6])
  redis.call('INCRBY', KEYS[i + 1], bytes)
  redis.call('PEXPIRE', KEYS[i], ARGV[7])
  redis.call('PEXPIRE', KEYS[i + 1], ARGV[7])
end
return 'ok'`

/** The longest an entry of the ledger lives: an idempotency record's day, with an hour to spare. */
const LEDGER_MS = 25 * 60 * 60 * 1000

export type Room = 'ok' | 'person' | 'total'

/**
 * Reserves `bytes` for `ms` under `principal`'s quota and the total; `key(owner, part)` names the ledger's keys.
 * Calls without a person count towards the total only: their own ledger is checked against the total quota.
 */
export async function reserveRoom(redis: RedisClientType, key: (owner: string, part: string) => string, quota: StateQuota, entry: {bytes: number; id: string; ms: number; principal?: string}): Promise<Room> {
  const now = Date.now()
  const owner = entry.principal === undefined ? 'anyone' : shortHash(entry.principal, 32)
  const answer = await redis.eval(RESERVE, {
    arguments: [
      String(now),
      String(now + entry.ms),
      String(entry.bytes),
      String(entry.principal === undefined ? quota.totalBytes : quota.perPersonBytes),
      String(quota.totalBytes),
      `${entry.bytes}:${entry.id}:${randomBytes(4).toString('hex')}`,
      String(LEDGER_MS),
    ],
    keys: [key(owner, 'set'), key(owner, 'sum'), key('all', 'set'), key('all', 'sum')],
  })
  return answer as Room
}

/** Which quota a reservation would pass, said for a message. */
export function quotaFull(quota: StateQuota, which: Exclude<Room, 'ok'>): string {
  return which === 'person'
    ? `this person's share of it (${shownSize(quota.perPersonBytes)}) is full until their kept outputs expire (an hour after they were made)`
    : `it holds its quota (${shownSize(quota.totalBytes)}) until kept outputs expire (an hour after they were made)`
}
