import {lstat, mkdir, readdir, readFile, rename, rm, writeFile} from 'node:fs/promises'
import {dirname, join, posix, relative, sep, win32} from 'node:path'

import type {Place} from './client-specs.js'

import {ClientConfigError, stamp} from './config-file-update.js'

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

/** The files under `dir`, relative and `/`-separated, with their text; undefined when there is no such folder. */
async function readTree(dir: string): Promise<Map<string, string> | undefined> {
  const entries = await readdir(dir, {recursive: true, withFileTypes: true}).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined
    throw error
  })
  if (!entries) return undefined
  const files = new Map<string, string>()
  for (const entry of entries) {
    if (!entry.isFile()) continue
    // parentPath from Node 20.12 on; `path` before it.
    const path = join((entry as {parentPath?: string}).parentPath ?? (entry as unknown as {path: string}).path, entry.name)
    files.set(relative(dir, path).split(sep).join('/'), await readFile(path, 'utf8'))
  }

  return files
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
  const before = info ? await readTree(dir) : undefined
  if (before && before.size > 0 && !before.has('SKILL.md')) {
    throw new ClientConfigError('UNSAFE_CLIENT_CONFIG', `${dir} holds files but no SKILL.md, so it is not a skill's folder; name the skill's own folder (it is replaced as a whole)`)
  }

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
