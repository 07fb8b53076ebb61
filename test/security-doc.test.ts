// SECURITY.md is a list of promises, each naming the tests that prove it: every promise (a row of its tables) names
// at least one test, and every test it names exists.
import {describe, expect, it} from '@jest/globals'
import {existsSync, readFileSync} from 'node:fs'
import {join} from 'node:path'

import {ROOT} from './helpers/taskbox.js'

const text = readFileSync(join(ROOT, 'SECURITY.md'), 'utf8')
const rows = text.split('\n').filter((line) => line.startsWith('| ') && !line.startsWith('| promise') && !line.startsWith('| ---'))
const named = (line: string) => [...line.matchAll(/`((?:test|bench)\/[\w./-]+\.(?:ts|mjs))`/g)].map((m) => m[1])

describe('SECURITY.md', () => {
  it('has promises', () => {
    expect(rows.length).toBeGreaterThan(20)
  })

  it.each(rows.map((row) => [row.split(' | ')[0].slice(2, 70), row]))('%s… names a test that proves it', (_, row) => {
    const tests = named(row.split(' | ').at(-1)!)
    expect(tests.length).toBeGreaterThan(0)
    for (const test of tests) expect([test, existsSync(join(ROOT, test))]).toEqual([test, true])
  })
})
