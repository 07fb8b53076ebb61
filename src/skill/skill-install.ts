import {lstat, mkdir, readdir, readFile, rename, rm, stat, writeFile} from 'node:fs/promises'
import {dirname, join, parse, posix, relative, sep, win32} from 'node:path'

import type {Place} from '../clients/client-specs.js'

import {isWithin} from '../host/paths.js'
import {ClientConfigError, keepWithin, realDestination, stamp} from '../clients/config-file-update.js'

// Installing an Agent Skill for a client: the folder its agent reads skills from, and writing the skill's files
// there as a whole (a previous version moved aside as a backup, never mixed with the new one).

export const SKILL_CLIENTS = ['claude-code', 'codex', 'gemini'] as const
export type SkillClient = (typeof SKILL_CLIENTS)[number]
export const SKILL_SCOPES = ['project', 'user'] as const
export type SkillScope = (typeof SKILL_SCOPES)[number]

/** The scope a client's skill goes in unless told: Claude Code's project (shared with it), the user's otherwise. */
export const defaultSkillScope = (client: SkillClient): SkillScope => (client === 'claude-code' ? 'project' : 'user')

/**
 * Where a client reads a skill of this name: Claude Code a project's `.claude/skills/<name>/` (or the user's
 * `~/.claude/skills/<name>/`), Gemini CLI the user's `~/.gemini/skills/<name>/` (or a project's
 * `.gemini/skills/<name>/`, read in folders it trusts), Codex the user's `~/.codex/skills/<name>/` (no project ones).
 */
export function skillDir(client: SkillClient, name: string, place: Place, scope: SkillScope = defaultSkillScope(client)): string {
  const {join} = place.platform === 'win32' ? win32 : posix
  if (client === 'codex') return join(place.env.CODEX_HOME || join(place.home, '.codex'), 'skills', name)
  if (client === 'gemini') return scope === 'project' ? join(place.cwd, '.gemini', 'skills', name) : join(place.env.GEMINI_CLI_HOME || place.home, '.gemini', 'skills', name)
  return scope === 'project' ? join(place.cwd, '.claude', 'skills', name) : join(place.env.CLAUDE_CONFIG_DIR || join(place.home, '.claude'), 'skills', name)
}

/** A skill folder larger than this is not compared with the new version file by file: it is replaced (and kept). */
const MAX_COMPARED_FILES = 200
const MAX_COMPARED_BYTES = 4 * 1024 * 1024

/**
 * The files under `dir` (a skill's folder, its SKILL.md checked first), relative and `/`-separated, with their text;
 * undefined when it holds more than a skill's folder should (it is then replaced, not compared).
 */
async function readTree(dir: string): Promise<Map<string, string> | undefined> {
  const entries = await readdir(dir, {recursive: true, withFileTypes: true})
  const found = entries.filter((entry) => entry.isFile())
  if (found.length > MAX_COMPARED_FILES) return undefined
  const files = new Map<string, string>()
  let bytes = 0
  for (const entry of found) {
    // parentPath from Node 20.12 on; `path` before it.
    const path = join((entry as {parentPath?: string}).parentPath ?? (entry as unknown as {path: string}).path, entry.name)
    bytes += (await stat(path)).size
    if (bytes > MAX_COMPARED_BYTES) return undefined
    files.set(relative(dir, path).split(sep).join('/'), await readFile(path, 'utf8'))
  }

  return files
}

/**
 * Refuses, before anything is read, a folder that cannot be one skill's: the file system's root, the home folder,
 * the current folder, or a folder that holds either; and (`project`) a project's skill folder whose links lead out of
 * the project.
 */
export async function checkSkillTarget(dir: string, place: Pick<Place, 'cwd' | 'home'>, project?: string): Promise<void> {
  const real = await realDestination(dir)
  const holds = [place.home, place.cwd].filter((inside) => inside && isWithin(inside, dir)).map((inside) => (inside === place.home ? 'your home folder' : 'the current folder'))
  if (real === parse(real).root || holds.length > 0) {
    throw new ClientConfigError('UNSAFE_CLIENT_CONFIG', `${dir} is ${real === parse(real).root ? "the file system's root" : `or holds ${holds.join(' and ')}`}, not a skill's folder (it is replaced as a whole); name the skill's own folder`)
  }

  if (project !== undefined) await keepWithin(dir, project)
}

export interface SkillWrite {
  /** Where the previous version was moved; null when there was none or nothing changed. */
  backup: null | string
  dir: string
  status: 'added' | 'unchanged' | 'updated'
}

/** What a backup's SKILL.md is renamed to: agents find skills by their SKILL.md, and must not load an old version. */
export const RETIRED_SKILL_FILE = 'SKILL.md.bak'

/**
 * Writes the skill's files as the whole of `dir`: written into a new folder beside it first, then put in its place,
 * the previous folder (when it differs) kept as `<dir>.<time>.bak` with its SKILL.md renamed (so no agent loads it).
 * Refused untouched: a path that is not a folder, and a folder with files but no SKILL.md (not a skill: `--dir` given
 * the skills folder itself, or a project).
 */
export async function writeSkill(dir: string, files: readonly {path: string; text: string}[]): Promise<SkillWrite> {
  const info = await lstat(dir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined
    throw error
  })
  if (info && !info.isDirectory()) throw new ClientConfigError('UNSAFE_CLIENT_CONFIG', `${dir} is ${info.isSymbolicLink() ? 'a symbolic link' : 'not a folder'}; move it away first`)
  // Its top level first: a folder with something in it but no SKILL.md is not a skill's, and is not read further.
  const top = info ? await readdir(dir) : []
  if (top.length > 0 && !top.includes('SKILL.md')) {
    throw new ClientConfigError('UNSAFE_CLIENT_CONFIG', `${dir} holds files but no SKILL.md, so it is not a skill's folder; name the skill's own folder (it is replaced as a whole)`)
  }

  const before = top.length > 0 ? await readTree(dir) : undefined
  if (before && before.size === files.length && files.every((file) => before.get(file.path) === file.text)) return {backup: null, dir, status: 'unchanged'}

  const fresh = `${dir}.${process.pid}.tmp`
  await rm(fresh, {force: true, recursive: true})
  try {
    for (const file of files) {
      const path = join(fresh, ...file.path.split('/'))
      await mkdir(dirname(path), {recursive: true})
      await writeFile(path, file.text, {flag: 'wx'})
    }
  } catch (error) {
    await rm(fresh, {force: true, recursive: true})
    throw error
  }

  let backup: null | string = null
  if (info) {
    const base = `${dir}.${stamp(new Date())}`
    for (let n = 1; backup === null; n++) {
      const candidate = n === 1 ? `${base}.bak` : `${base}-${n}.bak`
      if (!(await lstat(candidate).catch(() => undefined))) backup = candidate
    }

    await rename(dir, backup)
  } else {
    await mkdir(dirname(dir), {recursive: true})
  }

  try {
    await rename(fresh, dir)
  } catch (error) {
    // The old version back in its place, and nothing half-written left.
    if (backup) await rename(backup, dir).catch(() => {})
    await rm(fresh, {force: true, recursive: true})
    throw error
  }

  if (backup) await rename(join(backup, 'SKILL.md'), join(backup, RETIRED_SKILL_FILE)).catch(() => {})
  return {backup, dir, status: info ? 'updated' : 'added'}
}
