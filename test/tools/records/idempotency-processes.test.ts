import {afterAll, afterEach, beforeAll, describe, expect, it} from '@jest/globals'
import {type ChildProcess, spawn} from 'node:child_process'
import {existsSync, readFileSync, writeFileSync} from 'node:fs'
import {join, resolve} from 'node:path'
import {setTimeout as sleep} from 'node:timers/promises'

import type {IdempotentOutcome} from '../../../src/tools/records/idempotency.js'

import {fileIdempotency} from '../../../src/tools/records/idempotency-files.js'
import {command, resultOf, storeScratch, textResult} from '../../helpers/idempotency-store.js'
import {textOf} from '../../helpers/taskbox.js'
import {eventually} from '../../helpers/processes.js'

// The store shared by processes: the race script (another process) runs the built store on the same directory.
const RACE_SCRIPT = resolve(import.meta.dirname, '../../fixtures/scripts/idempotency-race.mjs')
const BUILT_MODULE = resolve(import.meta.dirname, '../../../dist/tools/records/idempotency-files.js')

const stores = storeScratch('idempotency-processes-')
const freshDir = () => stores.fresh()
const children = new Set<ChildProcess>()
let logs = 0

beforeAll(() => {
  if (!existsSync(BUILT_MODULE)) throw new Error(`${BUILT_MODULE} is missing: build first (npx tsc -p tsconfig.build.json)`)
})

afterEach(() => {
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
  }

  children.clear()
})

afterAll(() => stores.cleanup())

interface Racer {
  exited: Promise<void>
  outcome: Promise<IdempotentOutcome>
  process: ChildProcess
  ready: Promise<void>
}

/** Starts the race script (another process on the same directory); it waits for `go()` before calling. */
function startRacer(dir: string, key: string, log: string, holdMs: number): Racer {
  const child = spawn(process.execPath, [RACE_SCRIPT, dir, key, log, String(holdMs)], {stdio: ['pipe', 'pipe', 'pipe']})
  children.add(child)
  let stdout = ''
  let stderr = ''
  child.stderr!.on('data', (chunk) => (stderr += chunk))
  const exited = new Promise<void>((done) => child.once('exit', () => done()))
  const ready = new Promise<void>((done, fail) => {
    child.stdout!.on('data', (chunk) => {
      stdout += chunk
      if (stdout.includes('READY\n')) done()
    })
    void exited.then(() => fail(new Error(`race script exited before READY: ${stderr}`)))
  })
  const outcome = exited.then(() => {
    const line = stdout.split('\n').find((text) => text.startsWith('{'))
    if (!line) throw new Error(`race script printed no outcome: ${stderr}`)
    return JSON.parse(line) as IdempotentOutcome
  })
  outcome.catch(() => {}) // a racer killed on purpose has none; only awaiting it fails
  return {exited, outcome, process: child, ready}
}

function go(racer: Racer): void {
  racer.process.stdin!.write('go\n')
}

function logged(log: string): string[] {
  return existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean) : []
}

describe('fileIdempotency across processes', () => {
  it('runs once when two other processes and this one race for the same key', async () => {
    const dir = freshDir()
    const log = join(stores.root, `race-${++logs}.log`)
    const racers = [startRacer(dir, 'shared', log, 500), startRacer(dir, 'shared', log, 500)]
    await Promise.all(racers.map((racer) => racer.ready))
    const store = fileIdempotency({dir, pollMs: 20})
    let ranHere = 0
    for (const racer of racers) go(racer)
    const mine = await store.run('race', 'shared', {n: 1}, async () => {
      ranHere++
      writeFileSync(log, `${process.pid}\n`, {flag: 'a'})
      await sleep(500)
      return {ran: true, result: textResult(`ran in ${process.pid}`)}
    })
    const outcomes = [mine, ...(await Promise.all(racers.map((racer) => racer.outcome)))]

    expect(logged(log)).toHaveLength(1)
    expect(outcomes.map((outcome) => outcome.status).sort()).toEqual(['executed', 'replayed', 'replayed'])
    const texts = new Set(outcomes.map((outcome) => textOf(resultOf(outcome) ?? {})))
    expect(texts).toEqual(new Set([`ran in ${logged(log)[0]}`]))
    expect(ranHere).toBe(mine.status === 'executed' ? 1 : 0)
  })

  it('waits for a live claim, then refuses as interrupted once its process is dead', async () => {
    const dir = freshDir()
    const log = join(stores.root, `hang-${++logs}.log`)
    const racer = startRacer(dir, 'hang', log, 600_000)
    await racer.ready
    go(racer)
    // The other process has started its command.
    expect(await eventually(() => logged(log).length === 1, 60_000, 20)).toBe(true)

    const cmd = command()
    const impatient = fileIdempotency({dir, pollMs: 20, waitMs: 300})
    const waiting = await impatient.run('race', 'hang', {n: 1}, cmd.execute)
    expect(waiting).toMatchObject({reason: 'in-progress', status: 'refused'})
    expect((waiting as {message: string}).message).toMatch(/still running in another process/)
    expect(await impatient.run('race', 'hang', {n: 2}, cmd.execute)).toMatchObject({reason: 'conflict'})

    // The server dies mid-run: its claim stays behind with a dead pid.
    racer.process.kill('SIGKILL')
    await racer.exited
    for (const store of [impatient, fileIdempotency({dir})]) {
      const outcome = await store.run('race', 'hang', {n: 1}, cmd.execute)
      expect(outcome).toMatchObject({reason: 'interrupted', status: 'refused'})
      expect((outcome as {message: string}).message).toMatch(/may or may not have run/)
    }

    expect(cmd.runs).toBe(0)
    // Past maxAgeMs the interrupted claim no longer blocks the key.
    await sleep(60)
    expect((await fileIdempotency({dir, maxAgeMs: 50}).run('race', 'hang', {n: 1}, cmd.execute)).status).toBe('executed')
  })
})
