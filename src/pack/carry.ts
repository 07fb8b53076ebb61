import fg from 'fast-glob'

import {existsSync, readFileSync, realpathSync} from 'node:fs'
import {dirname, join} from 'node:path'

import {ownFile} from '../host/own-files.js'

// The files a bundle needs to run the CLI on its own: the CLI's package and every package it depends on (this plugin
// among them), each as npm would publish it (its `files`), laid out the way npm installs them: the CLI at the root,
// each dependency in the nearest node_modules where Node finds it from every package that needs it (a second version
// nested under the package that needs it). Packages are found as Node finds them (from their real paths), so a linked
// package (a `file:` dependency, `plugins link`) is carried as a copy where its link was.

export interface CarriedFile {
  /** Where it is now. */
  from: string
  /** Its path in the bundle, `/`-separated, relative to the carried tree's root. */
  to: string
}

export interface Carried {
  files: CarriedFile[]
  /** Real paths of the packages carried. */
  packages: string[]
}

interface Manifest {
  bin?: Record<string, string> | string
  dependencies?: Record<string, string>
  files?: unknown
  main?: string
  optionalDependencies?: Record<string, string>
  peerDependencies?: Record<string, string>
}

const readManifest = (dir: string): Manifest => JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest

/** The package `name` as Node finds it from `dir`: the nearest node_modules/<name> above, by its real path. */
function resolvePackage(name: string, dir: string): string | undefined {
  for (let at = dir; ; at = dirname(at)) {
    const candidate = join(at, 'node_modules', name)
    if (existsSync(join(candidate, 'package.json'))) return realpathSync(candidate)
    if (dirname(at) === at) return undefined
  }
}

/** A package's run-time dependencies: `dependencies` (required), then optional and peer ones (carried when installed). */
function dependenciesOf(dir: string): {optional: string[]; required: string[]} {
  const manifest = readManifest(dir)
  const required = Object.keys(manifest.dependencies ?? {})
  const optional = [...Object.keys(manifest.optionalDependencies ?? {}), ...Object.keys(manifest.peerDependencies ?? {})].filter((name) => !required.includes(name))
  return {optional, required}
}

/** The packages the one at `root` needs at run time, by real path, and the required ones not installed. */
export function dependencyClosure(root: string): {missing: string[]; packages: string[]} {
  const seen = new Set<string>([realpathSync(root)])
  const queue = [...seen]
  const missing: string[] = []
  while (queue.length > 0) {
    const dir = queue.shift()!
    const {optional, required} = dependenciesOf(dir)
    for (const name of [...required, ...optional]) {
      const found = resolvePackage(name, dir)
      if (!found) {
        if (required.includes(name)) missing.push(`${name} (of ${dir})`)
        continue
      }

      if (!seen.has(found)) {
        seen.add(found)
        queue.push(found)
      }
    }
  }

  return {missing, packages: [...seen]}
}

/** Never carried: what runs nothing (types, source maps) and what npm itself leaves out. */
const LEFT_OUT = ['**/node_modules/**', '**/.git/**', '**/*.d.ts', '**/*.d.mts', '**/*.d.cts', '**/*.map', '**/.DS_Store', '**/*.tsbuildinfo', '**/.npmrc']

/** A path of package.json as a glob relative to the package (`./lib/` → `lib`). */
const relativeEntry = (entry: string) => entry.replace(/^\.?\//, '').replace(/\/$/, '')

/**
 * A package's files as npm publishes them: package.json, its README and licence, its `main` and `bin` files, and what
 * `files` names (each a file, a folder or a glob); all of them when it names none.
 */
function packageFiles(dir: string): string[] {
  const {bin, files, main} = readManifest(dir)
  const always = [main, ...(typeof bin === 'string' ? [bin] : Object.values(bin ?? {}))].filter((entry): entry is string => typeof entry === 'string').map(relativeEntry)
  // `main` may name a file without its extension (`"main": "index"`).
  const mains = always.flatMap((entry) => [entry, `${entry}.js`, `${entry}.cjs`, `${entry}.mjs`, `${entry}/index.js`])
  const patterns = Array.isArray(files) && files.length > 0 ? ['package.json', 'README*', 'LICEN[CS]E*', ...mains, ...files.filter((entry): entry is string => typeof entry === 'string').flatMap((entry) => [relativeEntry(entry), `${relativeEntry(entry)}/**`])] : ['**']
  return fg.sync(patterns.filter((pattern) => pattern !== '' && !pattern.startsWith('/')), {cwd: dir, dot: true, followSymbolicLinks: true, ignore: LEFT_OUT, onlyFiles: true, suppressErrors: true, unique: true})
}

/**
 * Everything the CLI at `root` needs to run, laid out from the bundle's root (the CLI's package). Each package's
 * direct dependencies are placed before any of theirs, so no later placement comes between a package and a
 * dependency it already found.
 */
export function carry(root: string): Carried {
  const {missing} = dependencyClosure(root)
  if (missing.length > 0) throw new Error(`dependencies not installed: ${missing.slice(0, 5).join(', ')}${missing.length > 5 ? ', …' : ''}`)
  /** Bundle folder ('' for the root) → the real path of the package placed there. */
  const placed = new Map<string, string>([['', realpathSync(root)]])
  const queue: string[] = ['']
  const parentOf = (folder: string) => (folder === '' ? undefined : folder.slice(0, Math.max(0, folder.lastIndexOf('/node_modules/'))))
  while (queue.length > 0) {
    const folder = queue.shift()!
    const real = placed.get(folder)!
    const {optional, required} = dependenciesOf(real)
    for (const name of [...required, ...optional]) {
      const wanted = resolvePackage(name, real)
      if (!wanted) continue
      // Where Node would find `name` from this folder: the nearest node_modules/<name> placed on the way up.
      let found: string | undefined
      for (let at: string | undefined = folder; at !== undefined; at = parentOf(at)) {
        const candidate = `${at === '' ? '' : `${at}/`}node_modules/${name}`
        if (placed.has(candidate)) {
          found = candidate
          break
        }
      }

      if (found && placed.get(found) === wanted) continue
      // Nothing found on the way up: at the root; another version found: nested here, nearer than that one.
      const target = found ? `${folder === '' ? '' : `${folder}/`}node_modules/${name}` : `node_modules/${name}`
      placed.set(target, wanted)
      queue.push(target)
    }
  }

  const files = [...placed].flatMap(([folder, real]) => packageFiles(real).map((file) => ({from: join(real, file), to: folder === '' ? file : `${folder}/${file}`})))
  files.sort((a, b) => (a.to < b.to ? -1 : 1))
  return {files, packages: [...new Set(placed.values())]}
}

/** The root of this plugin's own package. */
export const ownRoot = (): string => realpathSync(dirname(dirname(ownFile('index.js'))))

/** Whether this plugin is among the installed dependencies of the CLI at `root` (its author added it), not a user's plugin. */
export function dependsOnPlugin(root: string): boolean {
  try {
    return dependencyClosure(root).packages.includes(ownRoot())
  } catch {
    return false
  }
}
