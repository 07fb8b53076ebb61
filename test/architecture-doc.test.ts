// ARCHITECTURE.md describes the layout as the code has it: every folder of src/ has a row, each row says exactly which
// folders it may import from as .dependency-cruiser.cjs allows, and every file it names exists.
import {describe, expect, it} from '@jest/globals'
import {existsSync, readdirSync, readFileSync} from 'node:fs'
import {createRequire} from 'node:module'
import {join, relative} from 'node:path'

import {ROOT} from './helpers/taskbox.js'

const text = readFileSync(join(ROOT, 'ARCHITECTURE.md'), 'utf8')
const cruiser = createRequire(import.meta.url)(join(ROOT, '.dependency-cruiser.cjs')) as {allowed: {from: {path?: string}; to: {path?: string}}[]}

/** The rows of the folder table: folder → the folders it may import from. */
const section = text.slice(text.indexOf('## Folders'), text.indexOf('## Where to look'))
const rows = new Map(
  section
    .split('\n')
    .filter((line) => /^\| `[a-z/]+` \|/.test(line))
    .map((line) => {
      const cells = line.split(' | ')
      const names = (cell: string) => [...cell.matchAll(/`([a-z/]+)`/g)].map((m) => m[1])
      return [names(cells[0])[0], new Set(names(cells.at(-1)!))] as const
    }),
)

/** Every folder of src/ that holds source files. */
function sourceFolders(dir = join(ROOT, 'src')): string[] {
  const entries = readdirSync(dir, {withFileTypes: true})
  const here = entries.some((e) => e.isFile() && /\.c?ts$/.test(e.name)) && dir !== join(ROOT, 'src') ? [relative(join(ROOT, 'src'), dir)] : []
  return [...here, ...entries.filter((e) => e.isDirectory()).flatMap((e) => sourceFolders(join(dir, e.name)))]
}

/** The folders a module of `folder` may import from, as the dependency rule allows (a file in each, by its path). */
function allowedFrom(folder: string): Set<string> {
  const from = `src/${folder}/a.ts`
  const rules = cruiser.allowed.filter((rule) => rule.from.path && new RegExp(rule.from.path).test(from) && rule.to.path)
  return new Set([...rows.keys()].filter((other) => rules.some((rule) => new RegExp(rule.to.path!).test(`src/${other}/a.ts`))))
}

describe('ARCHITECTURE.md', () => {
  it('has a row for every folder of src/ (a subfolder goes with its parent)', () => {
    expect(rows.size).toBeGreaterThan(10)
    const missing = sourceFolders().filter((folder) => ![...rows.keys()].some((row) => folder === row || folder.startsWith(`${row}/`)))
    expect(missing).toEqual([])
  })

  it.each([...rows.keys()])('says what %s may import from, as .dependency-cruiser.cjs allows', (folder) => {
    expect(existsSync(join(ROOT, 'src', folder))).toBe(true)
    expect([...rows.get(folder)!].sort()).toEqual([...allowedFrom(folder)].sort())
  })

  it('names only files that exist', () => {
    const paths = [...text.matchAll(/`((?:src|test|bench|bin)\/[\w./-]+\.(?:c?ts|mjs|cjs))`/g)].map((m) => m[1])
    const bare = [...text.matchAll(/`([\w-]+\.c?ts)`/g)].map((m) => m[1])
    expect(paths.length).toBeGreaterThan(10)
    expect(paths.filter((path) => !existsSync(join(ROOT, path)))).toEqual([])
    // A file named without its folder exists somewhere in src/.
    const all = new Set(sourceFolders().flatMap((folder) => readdirSync(join(ROOT, 'src', folder))))
    expect(bare.filter((name) => !all.has(name))).toEqual([])
  })
})
