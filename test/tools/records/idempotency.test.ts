import {afterAll, describe, expect, it} from '@jest/globals'
import {existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {setTimeout as sleep} from 'node:timers/promises'

import {fileIdempotency} from '../../../src/tools/records/idempotency-files.js'
import {command, only, recordFiles, resultOf, storeScratch, textResult} from '../../helpers/idempotency-store.js'

const stores = storeScratch('idempotency-test-')
const freshDir = () => stores.fresh()

afterAll(() => stores.cleanup())

describe('fileIdempotency: the idempotency protocol over files', () => {
  it('runs the first call and replays retries without running again', async () => {
    const dir = freshDir()
    const store = fileIdempotency({dir})
    const cmd = command('created task 7')

    const first = await store.run('tasks_add', 'k-1', {title: 'x'}, cmd.execute)
    expect(first).toEqual({result: textResult('created task 7'), status: 'executed'})
    for (let retry = 0; retry < 3; retry++) {
      const again = await store.run('tasks_add', 'k-1', {title: 'x'}, cmd.execute)
      expect(again.status).toBe('replayed')
      expect(resultOf(again)).toEqual(textResult('created task 7'))
      expect(Number.isNaN(Date.parse((again as {recordedAt: string}).recordedAt))).toBe(false)
    }

    expect(cmd.runs).toBe(1)
    if (process.platform !== 'win32') expect(statSync(dir).mode & 0o777).toBe(0o700)
  })

  it('compares arguments canonically and refuses the same key with different arguments', async () => {
    const store = fileIdempotency({dir: freshDir()})
    const cmd = command()
    await store.run('tasks_add', 'k', {a: 1, b: {c: 2, d: [1, {e: 3, f: 4}]}}, cmd.execute)
    const reordered = await store.run('tasks_add', 'k', {b: {d: [1, {f: 4, e: 3}], c: 2}, a: 1}, cmd.execute)
    expect(reordered.status).toBe('replayed')

    for (const args of [{a: 2, b: {c: 2, d: [1, {e: 3, f: 4}]}}, {a: 1}, {}, undefined]) {
      const outcome = await store.run('tasks_add', 'k', args, cmd.execute)
      expect(outcome).toMatchObject({reason: 'conflict', status: 'refused'})
      expect((outcome as {message: string}).message).toMatch(/different arguments/)
      expect(resultOf(outcome)).toBeUndefined()
    }

    expect(cmd.runs).toBe(1)
    // The key belongs to a tool: another tool with the same key is another record.
    expect((await store.run('tasks_remove', 'k', {a: 9}, cmd.execute)).status).toBe('executed')
    expect(cmd.runs).toBe(2)
  })

  it.each([
    ['an empty', ''],
    ['a blank', '   '],
    ['a 201-character', 'x'.repeat(201)],
  ])('refuses %s key without running', async (_, key) => {
    const dir = freshDir()
    const cmd = command()
    const outcome = await fileIdempotency({dir}).run('t', key, {}, cmd.execute)
    expect(outcome).toMatchObject({reason: 'invalid-key', status: 'refused'})
    expect((outcome as {message: string}).message).toMatch(/idempotencyKey/)
    expect(cmd.runs).toBe(0)
    expect(existsSync(dir)).toBe(false)
  })

  it('accepts any key up to 200 characters and keeps file names safe', async () => {
    const dir = freshDir()
    const store = fileIdempotency({dir})
    const keys = ['x'.repeat(200), '../../etc/passwd', 'a/b\\c:d*?"<>|', 'ключ 🔑', '\u0000\n']
    for (const key of keys) expect((await store.run('t', key, {}, command().execute)).status).toBe('executed')
    for (const key of keys) expect((await store.run('t', key, {}, command().execute)).status).toBe('replayed')
    expect(readdirSync(dir).sort()).toEqual(recordFiles(dir).sort())
    for (const name of readdirSync(dir)) expect(name).toMatch(/^[0-9a-f]{64}\.json$/)
  })

  it('runs concurrent identical calls once; the others wait and replay', async () => {
    const dir = freshDir()
    const store = fileIdempotency({dir})
    const other = fileIdempotency({dir})
    const cmd = command('slow', {holdMs: 200})
    const outcomes = await Promise.all([
      ...Array.from({length: 4}, () => store.run('t', 'same', {n: 1}, cmd.execute)),
      other.run('t', 'same', {n: 1}, cmd.execute),
    ])
    expect(cmd.runs).toBe(1)
    expect(outcomes.map((outcome) => outcome.status).sort()).toEqual(['executed', 'replayed', 'replayed', 'replayed', 'replayed'])
    for (const outcome of outcomes) expect(resultOf(outcome)).toEqual(textResult('slow'))
  })

  it('refuses a concurrent call with the same key and different arguments', async () => {
    const store = fileIdempotency({dir: freshDir()})
    const cmd = command('slow', {holdMs: 100})
    const [first, second] = await Promise.all([store.run('t', 'k', {n: 1}, cmd.execute), store.run('t', 'k', {n: 2}, cmd.execute)])
    expect(first.status).toBe('executed')
    expect(second).toMatchObject({reason: 'conflict', status: 'refused'})
    expect(cmd.runs).toBe(1)
  })

  it('replays after a restart (a new store on the same directory)', async () => {
    const dir = freshDir()
    const cmd = command('before restart')
    await fileIdempotency({dir}).run('t', 'k', {n: 1}, cmd.execute)
    const after = await fileIdempotency({dir}).run('t', 'k', {n: 1}, cmd.execute)
    expect(after.status).toBe('replayed')
    expect(resultOf(after)).toEqual(textResult('before restart'))
    expect(cmd.runs).toBe(1)
  })

  it('records nothing when execute reports that nothing ran', async () => {
    const dir = freshDir()
    const store = fileIdempotency({dir})
    const busy = command('busy, try again', {ran: false})
    expect(await store.run('t', 'k', {}, busy.execute)).toEqual({result: textResult('busy, try again'), status: 'not-run'})
    expect(recordFiles(dir)).toEqual([])

    // A concurrent identical call waits for the first; when that ran nothing, it runs itself.
    const slowBusy = command('busy', {holdMs: 100, ran: false})
    const cmd = command('ran')
    const [first, second] = await Promise.all([store.run('t', 'k', {}, slowBusy.execute), store.run('t', 'k', {}, cmd.execute)])
    expect([first.status, second.status]).toEqual(['not-run', 'executed'])
    expect((await store.run('t', 'k', {}, cmd.execute)).status).toBe('replayed')
    expect(cmd.runs).toBe(1)
  })

  it('refuses as interrupted when execute threw, and never runs that key again', async () => {
    const store = fileIdempotency({dir: freshDir()})
    await expect(store.run('t', 'k', {}, async () => {
      throw new Error('runner bug')
    })).rejects.toThrow('runner bug')
    const cmd = command()
    for (let retry = 0; retry < 2; retry++) {
      const outcome = await store.run('t', 'k', {}, cmd.execute)
      expect(outcome).toMatchObject({reason: 'interrupted', status: 'refused'})
      expect((outcome as {message: string}).message).toMatch(/interrupted before it finished.*may or may not have run/)
    }

    expect(cmd.runs).toBe(0)
  })

  it('treats a running claim with our own pid as left by a predecessor (pid reused after a restart)', async () => {
    const dir = freshDir()
    let claim = ''
    await fileIdempotency({dir}).run('t', 'k', {}, async () => {
      claim = readFileSync(only(dir), 'utf8')
      return {ran: true, result: textResult('first')}
    })
    expect(JSON.parse(claim)).toMatchObject({pid: process.pid, state: 'running'})
    // Left by a predecessor: same pid, a process that started earlier (a claim of this process's is another store's).
    const predecessor = JSON.parse(claim) as {process: number}
    writeFileSync(only(dir), JSON.stringify({...predecessor, process: predecessor.process - 60_000}))
    const cmd = command()
    expect(await fileIdempotency({dir}).run('t', 'k', {}, cmd.execute)).toMatchObject({reason: 'interrupted', status: 'refused'})
    expect(cmd.runs).toBe(0)
  })

  it('treats a claim with our pid and no process start time (an older format) as left by a predecessor', async () => {
    const dir = freshDir()
    await fileIdempotency({dir}).run('t', 'k', {}, async () => {
      const {process: _started, ...older} = JSON.parse(readFileSync(only(dir), 'utf8')) as Record<string, unknown>
      writeFileSync(only(dir) + '.older', JSON.stringify(older))
      return {ran: true, result: textResult('first')}
    })
    writeFileSync(only(dir), readFileSync(only(dir) + '.older'))
    const cmd = command()
    expect(await fileIdempotency({dir}).run('t', 'k', {}, cmd.execute)).toMatchObject({reason: 'interrupted', status: 'refused'})
    expect(cmd.runs).toBe(0)
  })

  it('runs a key again once its record is older than maxAgeMs', async () => {
    const dir = freshDir()
    const cmd = command()
    await fileIdempotency({dir}).run('t', 'k', {}, cmd.execute)
    await sleep(60)
    expect((await fileIdempotency({dir}).run('t', 'k', {}, cmd.execute)).status).toBe('replayed')
    const shortLived = fileIdempotency({dir, maxAgeMs: 50})
    expect((await shortLived.run('t', 'k', {}, cmd.execute)).status).toBe('executed')
    // An expired record does not block new arguments either.
    await sleep(60)
    expect((await shortLived.run('t', 'k', {other: true}, cmd.execute)).status).toBe('executed')
    expect(cmd.runs).toBe(3)
  })

  it('prunes the oldest records beyond maxEntries', async () => {
    const dir = freshDir()
    const store = fileIdempotency({dir, maxEntries: 3})
    const cmd = command()
    for (const key of ['k1', 'k2', 'k3', 'k4', 'k5']) {
      await store.run('t', key, {}, cmd.execute)
      await sleep(20) // distinct modification times
    }

    expect(recordFiles(dir)).toHaveLength(3)
    const reader = fileIdempotency({dir})
    for (const key of ['k3', 'k4', 'k5']) expect((await reader.run('t', key, {}, cmd.execute)).status).toBe('replayed')
    expect(cmd.runs).toBe(5)
    expect((await reader.run('t', 'k1', {}, cmd.execute)).status).toBe('executed')
    expect(cmd.runs).toBe(6)
  })

  it('prunes the oldest records beyond maxBytes, but keeps the one just written', async () => {
    const dir = freshDir()
    const big = command('x'.repeat(4000)) // about 8 kB a record: the text is in content and structuredContent
    const store = fileIdempotency({dir, maxBytes: 20_000})
    for (const key of ['k1', 'k2', 'k3', 'k4']) {
      await store.run('t', key, {}, big.execute)
      await sleep(20)
    }

    expect(recordFiles(dir)).toHaveLength(2)
    const tiny = fileIdempotency({dir, maxBytes: 10})
    await tiny.run('t', 'k5', {}, big.execute)
    expect(recordFiles(dir)).toHaveLength(1)
    expect((await tiny.run('t', 'k5', {}, big.execute)).status).toBe('replayed')
  })

  it('prunes expired records and stale temp files when it writes', async () => {
    const dir = freshDir()
    const store = fileIdempotency({dir, maxAgeMs: 60_000})
    await store.run('t', 'old', {}, command().execute)
    const old = only(dir)
    const stale = `${old}.123-abcd.tmp`
    writeFileSync(stale, '{')
    const hourAgo = new Date(Date.now() - 3_600_000)
    utimesSync(old, hourAgo, hourAgo)
    utimesSync(stale, hourAgo, hourAgo)
    await store.run('t', 'new', {}, command().execute)
    expect(existsSync(old)).toBe(false)
    expect(existsSync(stale)).toBe(false)
    expect(recordFiles(dir)).toHaveLength(1)
  })

  it('treats corrupt or foreign record files as absent', async () => {
    const dir = freshDir()
    const store = fileIdempotency({dir, maxEntries: 2})
    const cmd = command('fresh')
    for (const garbage of ['', '{"state":', 'null', '[]', '{"v":1,"state":"done","argsHash":"x","tool":"t"}', '{"v":1,"state":"running","argsHash":"x","tool":"t","startedAt":1,"pid":-1}', '{"v":99}']) {
      await store.run('t', 'k', {}, cmd.execute)
      writeFileSync(only(dir), garbage)
      expect((await store.run('t', 'k', {}, cmd.execute)).status).toBe('executed')
      expect((await store.run('t', 'k', {}, cmd.execute)).status).toBe('replayed')
      rmSync(only(dir))
    }

    // Junk that is not ours, in the same directory, does not disturb pruning.
    writeFileSync(join(dir, 'junk.json'), 'not json')
    mkdirSync(join(dir, 'sub.json'))
    for (const key of ['a', 'b', 'c']) expect((await store.run('t', key, {}, cmd.execute)).status).toBe('executed')
    expect((await store.run('t', 'c', {}, cmd.execute)).status).toBe('replayed')
  })

  it('returns the result with a storage error when recording it fails', async () => {
    const dir = freshDir()
    const store = fileIdempotency({dir})
    const outcome = await store.run('t', 'k', {}, async () => {
      // The directory disappears while the command runs and a file takes its place (works as root too).
      rmSync(dir, {force: true, recursive: true})
      writeFileSync(dir, 'not a directory')
      return {ran: true, result: textResult('it ran')}
    })
    expect(outcome.status).toBe('executed')
    expect(resultOf(outcome)).toEqual(textResult('it ran'))
    expect((outcome as {storageError?: string}).storageError).toMatch(/could not be recorded/)
  })

  it('never overwrites a record that replaced its claim while it ran', async () => {
    const dir = freshDir()
    const store = fileIdempotency({dir})
    const outcome = await store.run('t', 'k', {}, async () => {
      // A rival took the key over meanwhile (it judged the claim dead) and recorded its own result.
      const file = only(dir)
      const rival = {...JSON.parse(readFileSync(file, 'utf8')), recordedAt: Date.now(), result: textResult('rival'), state: 'done'}
      writeFileSync(`${file}.rival`, JSON.stringify(rival))
      renameSync(`${file}.rival`, file)
      return {ran: true, result: textResult('mine')}
    })
    expect(outcome).toMatchObject({result: textResult('mine'), status: 'executed'})
    expect((outcome as {storageError?: string}).storageError).toMatch(/could not be recorded.*no longer held this call’s claim/)
    expect(resultOf(await store.run('t', 'k', {}, command().execute))).toEqual(textResult('rival'))
  })

  it('refuses without running when the store cannot be used at all', async () => {
    const dir = freshDir()
    writeFileSync(dir, 'a file where the directory should be')
    const cmd = command()
    const outcome = await fileIdempotency({dir}).run('t', 'k', {}, cmd.execute)
    expect(outcome).toMatchObject({reason: 'unavailable', status: 'refused'})
    expect((outcome as {message: string}).message).toMatch(/without idempotencyKey/)
    expect(cmd.runs).toBe(0)
  })
})
