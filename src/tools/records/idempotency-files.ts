import type {CallToolResult} from '@modelcontextprotocol/server'

import {randomUUID} from 'node:crypto'
import {link, lstat, readFile, rename, unlink, writeFile} from 'node:fs/promises'

// The files behind IdempotencyStore (idempotency-store.ts): the record format, and the atomic moves that keep a record from
// ever being seen half-written or removed after a rival has replaced it.

export const FORMAT = 1

/** `process`: when the claiming process started (older claims have none), which tells it from a predecessor with its pid. */
export interface Claim {argsHash: string; pid: number; process?: number; startedAt: number; state: 'interrupted' | 'running'; tool: string; v: number}
export interface Done {argsHash: string; recordedAt: number; result: CallToolResult; startedAt: number; state: 'done'; tool: string; v: number}
export type StoredRecord = Claim | Done

export function errorCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code
}

function parseJson(text: string): Record<string, unknown> | undefined {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

function parseRecord(text: string): StoredRecord | undefined {
  const value = parseJson(text)
  if (!value || typeof value !== 'object' || value.v !== FORMAT) return undefined
  if (typeof value.argsHash !== 'string' || typeof value.tool !== 'string' || !Number.isFinite(value.startedAt)) return undefined
  if (value.state === 'done') {
    const result = value.result as CallToolResult | undefined
    return Number.isFinite(value.recordedAt) && result && Array.isArray(result.content) ? (value as unknown as Done) : undefined
  }

  const validPid = Number.isSafeInteger(value.pid) && (value.pid as number) > 0
  return validPid && (value.state === 'running' || value.state === 'interrupted') ? (value as unknown as Claim) : undefined
}

/**
 * The record and the inode it was read from; `record` is missing when the file is corrupt or unreadable. Should the
 * file be replaced between the two reads, the stale inode makes a removal of it a no-op (see `removeIfSame`).
 */
export async function readRecord(file: string): Promise<undefined | {ino: number; record?: StoredRecord}> {
  const info = await lstat(file).catch(() => undefined)
  if (!info) return undefined
  const text = await readFile(file, 'utf8').catch(() => undefined)
  return {ino: info.ino, record: text === undefined ? undefined : parseRecord(text)}
}

function tempName(file: string): string {
  return `${file}.${process.pid}-${randomUUID().slice(0, 8)}.tmp`
}

export async function writeTemp(file: string, record: StoredRecord): Promise<string> {
  const temp = tempName(file)
  await writeFile(temp, JSON.stringify(record), {flag: 'wx', mode: 0o600}).catch(async (error) => {
    await unlink(temp).catch(() => {})
    throw error
  })
  return temp
}

/** Removes `file` only if it is still the copy that was judged stale: a rival may have replaced it meanwhile. */
export async function removeIfSame(file: string, ino: number): Promise<boolean> {
  const trash = tempName(file)
  try {
    await rename(file, trash)
  } catch (error) {
    return errorCode(error) === 'ENOENT'
  }

  const moved = await lstat(trash).catch(() => undefined)
  if (moved && moved.ino !== ino) await link(trash, file).catch(() => {})
  await unlink(trash).catch(() => {})
  return true
}
