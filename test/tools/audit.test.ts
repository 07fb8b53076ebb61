import {afterAll, describe, expect, it} from '@jest/globals'
import {chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

import {AuditLog, type AuditRecord} from '../../src/tools/audit.js'

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
    const log = new AuditLog(file, {keep: 2, maxBytes: 1000})
    for (let i = 0; i < 40; i++) await log.append(record(i))
    const current = lines(file)
    const older = lines(`${file}.1`)
    expect(statSync(file).size).toBeLessThanOrEqual(1000)
    expect(older.at(-1)!.arguments.title).toBe(`task ${Number(String(current[0].arguments.title).split(' ')[1]) - 1}`)
    expect(() => statSync(`${file}.3`)).toThrow()
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
