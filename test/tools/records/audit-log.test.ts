import {afterAll, describe, expect, it} from '@jest/globals'
import {chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

import {AuditLog, auditLine, type AuditRecord, MAX_RECORD_BYTES, refusalsFile} from '../../../src/tools/records/audit-log.js'

const dir = mkdtempSync(join(tmpdir(), 'audit-'))
afterAll(() => rmSync(dir, {force: true, recursive: true}))

const record = (n: number): AuditRecord => ({
  arguments: {title: `task ${n}`},
  client: {name: 'test', version: '1'},
  command: 'tasks:add',
  cwd: '/tmp',
  durationMs: 12,
  era: 'legacy',
  exitCode: 0,
  outcome: 'ran',
  time: new Date(0).toISOString(),
  tool: 'tasks_add',
})

const lines = (file: string) => readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as AuditRecord)

describe('AuditLog', () => {
  it('appends one JSON line per record, in order, even when written concurrently', async () => {
    const file = join(dir, 'a', 'audit.jsonl')
    const log = new AuditLog(file)
    const failures = await Promise.all(Array.from({length: 50}, (_, i) => log.append(record(i))))
    expect(failures.every((f) => f === undefined)).toBe(true)
    expect(lines(file).map((r) => r.arguments.title)).toEqual(Array.from({length: 50}, (_, i) => `task ${i}`))
    expect(statSync(file).mode & 0o777).toBe(0o600)
  })

  it('rotates by size and keeps a bounded number of old files', async () => {
    const file = join(dir, 'b', 'audit.jsonl')
    const log = new AuditLog(file, {keep: 2, maxBytes: 10_000})
    for (let i = 0; i < 400; i++) await log.append(record(i))
    const current = lines(file)
    const older = lines(`${file}.1`)
    expect(statSync(file).size).toBeLessThanOrEqual(10_000)
    expect(older.at(-1)!.arguments.title).toBe(`task ${Number(String(current[0].arguments.title).split(' ')[1]) - 1}`)
    expect(() => statSync(`${file}.3`)).toThrow()
  })

  it('caps a record: long values as length, hash and head, long lists cut, never over the record limit', () => {
    const huge = 'x'.repeat(9 * 1024 * 1024)
    const line = auditLine({...record(1), arguments: {many: Array.from({length: 500}, (_, i) => i), [huge.slice(0, 300)]: 1, title: huge}})
    expect(Buffer.byteLength(line)).toBeLessThan(MAX_RECORD_BYTES)
    const {arguments: args} = JSON.parse(line) as {arguments: Record<string, unknown>}
    expect(args.title).toEqual({head: 'x'.repeat(64), length: huge.length, sha256: expect.stringMatching(/^[0-9a-f]{64}$/)})
    expect((args.many as unknown[]).at(-1)).toEqual({more: 480})

    const wide = Object.fromEntries(Array.from({length: 19}, (_, i) => [`k${i}`, 'y'.repeat(250)]))
    const capped = JSON.parse(auditLine({...record(2), arguments: wide})) as {arguments: Record<string, unknown>}
    expect(capped.arguments).toEqual({capped: true, length: JSON.stringify(wide).length, sha256: expect.stringMatching(/^[0-9a-f]{64}$/)})
  })

  it('keeps the records of the last `guaranteed` calls, however large their arguments', async () => {
    const file = join(dir, 'd', 'audit.jsonl')
    const log = new AuditLog(file, {keep: 2, maxBytes: 32 * 1024})
    expect(log.guaranteed).toBe(14)
    const huge = 'z'.repeat(2 * 1024 * 1024)
    const at = (i: number) => new Date(i * 1000).toISOString()
    for (let i = 0; i < 60; i++) await log.append({...record(i), arguments: {big: huge, wide: Object.fromEntries(Array.from({length: 19}, (_, j) => [`k${j}`, huge]))}, time: at(i)})
    const kept = [`${file}.2`, `${file}.1`, file].flatMap((f) => (existsSync(f) ? lines(f) : [])).map((r) => r.time)
    expect(kept.slice(-log.guaranteed)).toEqual(Array.from({length: log.guaranteed}, (_, i) => at(60 - log.guaranteed + i)))
  })

  it('is not rotated away by five calls with a 9 MB argument (the default limits)', async () => {
    const file = join(dir, 'e', 'audit.jsonl')
    const log = new AuditLog(file)
    await log.append({...record(0), arguments: {title: 'the earlier change'}})
    for (let i = 1; i <= 5; i++) await log.append({...record(i), arguments: {title: 'q'.repeat(9 * 1024 * 1024)}})
    expect(lines(file)[0].arguments.title).toBe('the earlier change')
    expect(existsSync(`${file}.1`)).toBe(false)
  })

  it('keeps the record of a change whatever number of calls are refused after it (they are kept apart)', async () => {
    const file = join(dir, 'f', 'audit.jsonl')
    const log = new AuditLog(file, {keep: 2, maxBytes: 32 * 1024})
    await log.append({...record(0), arguments: {title: 'the change'}})
    // Far more refusals than both files hold: a reused idempotency key, a declined confirmation, a busy server, a replay.
    const outcomes: AuditRecord['outcome'][] = ['refused', 'not-confirmed', 'not-run', 'replayed']
    for (let i = 1; i <= 2000; i++) await log.append({...record(i), exitCode: null, outcome: outcomes[i % 4]})
    await log.append({...record(2001), exitCode: 0, outcome: 'job-ended'})
    expect(lines(file).map((r) => [r.outcome, r.arguments.title])).toEqual([
      ['ran', 'the change'],
      ['job-ended', 'task 2001'],
    ])
    // The refusals are on record too, in their own file, rotated on its own.
    const refused = refusalsFile(file)
    expect(refused).toBe(join(dir, 'f', 'audit.refused.jsonl'))
    expect(lines(refused).at(-1)!.arguments.title).toBe('task 2000')
    expect(existsSync(`${refused}.1`)).toBe(true)
  })

  it('reports a failed write instead of dropping it silently', async () => {
    const blocked = join(dir, 'c')
    mkdirSync(blocked)
    writeFileSync(join(blocked, 'audit.jsonl'), '')
    chmodSync(join(blocked, 'audit.jsonl'), 0o400)
    chmodSync(blocked, 0o500)
    const log = new AuditLog(join(blocked, 'sub', 'audit.jsonl'))
    const failure = await log.append(record(1))
    chmodSync(blocked, 0o700)
    // Root ignores permissions; then the write succeeds and there is nothing to report.
    if (process.getuid?.() === 0) expect(failure).toBeUndefined()
    else expect(failure).toMatch(/EACCES|permission/i)
    const unwritable = new AuditLog(join(blocked, 'audit.jsonl', 'x.jsonl'))
    expect(await unwritable.append(record(2))).toMatch(/ENOTDIR|EEXIST|not a directory/i)
  })
})
