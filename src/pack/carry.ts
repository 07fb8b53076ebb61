import fg from 'fast-glob'

import {existsSync, readFileSync, realpathSync} from 'node:fs'
import {dirname, join, relative, sep} from 'node:path'

import {ownFile} from '../host/own-files.js'

// The files a bundle needs to run the CLI on its own: the CLI's package and every package it depends on (this plugin
// among them), each as npm would publish it (its `files`), laid out as they lie on disk relative to a common folder,
// so Node finds each dependency in the copy the way it does in the install.

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
  /** The folder the layout is relative to. */
  root: string
}

interface Manifest {
  dependencies?: Record<string, string>
  files?: string[]
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

/** The packages the one at `root` needs at run time (dependencies, optional and peer ones that are installed). */
export function dependencyClosure(root: string): {missing: string[]; packages: string[]} {
  const seen = new Set<string>([realpathSync(root)])
  const queue = [...seen]
  const missing: string[] = []
  while (queue.length > 0) {
    const dir = queue.shift()!
    const manifest = readManifest(dir)
    const required = Object.keys(manifest.dependencies ?? {})
    const optional = [...Object.keys(manifest.optionalDependencies ?? {}), ...Object.keys(manifest.peerDependencies ?? {})]
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

function commonFolder(paths: readonly string[]): string {
  let common = paths[0].split(sep)
  for (const path of paths.slice(1)) {
    const parts = path.split(sep)
    let i = 0
    while (i < common.length && common[i] === parts[i]) i++
    common = common.slice(0, i)
  }

  return common.join(sep) || sep
}

/** Never carried: what runs nothing (types, source maps) and what npm itself leaves out. */
const LEFT_OUT = ['**/node_modules/**', '**/.git/**', '**/*.d.ts', '**/*.d.mts', '**/*.d.cts', '**/*.map', '**/.DS_Store', '**/*.tsbuildinfo', '**/.npmrc']

/** A package's files as npm publishes them: package.json, its README and licence, and what `files` names (else all). */
function packageFiles(dir: string): string[] {
  const {files} = readManifest(dir)
  const patterns = files && files.length > 0 ? ['package.json', 'README*', 'LICEN[CS]E*', ...files.flatMap((entry) => {
    const clean = entry.replace(/^\.?\//, '').replace(/\/$/, '')
    return [clean, `${clean}/**`]
  })] : ['**']
  return fg.sync(patterns, {cwd: dir, dot: true, followSymbolicLinks: true, ignore: LEFT_OUT, onlyFiles: true, unique: true})
}

/** Everything the CLI at `root` needs to run, laid out relative to the packages' common folder. */
export function carry(root: string): Carried {
  const {missing, packages} = dependencyClosure(root)
  if (missing.length > 0) throw new Error(`dependencies not installed: ${missing.slice(0, 5).join(', ')}${missing.length > 5 ? ', …' : ''}`)
  const base = commonFolder(packages)
  const files = packages.flatMap((dir) => packageFiles(dir).map((file) => ({from: join(dir, file), to: relative(base, join(dir, file)).split(sep).join('/')})))
  files.sort((a, b) => (a.to < b.to ? -1 : 1))
  return {files, packages, root: base}
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
