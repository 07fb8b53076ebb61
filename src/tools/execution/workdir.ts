import {realpath as realpathJs} from 'node:fs'
import {mkdtemp, realpath, rm, stat} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import {join, posix} from 'node:path'

import {isWithin} from '../../host/paths.js'
import {promisify} from 'node:util'

export type WorkdirCheck = {dir: string; ok: true} | {message: string; ok: false}

/**
 * Why a `cwd` cannot be used as a path on this platform, or undefined. POSIX: it must be absolute. Windows: a drive
 * letter and a root (`C:\work`); not `\work` or `C:work` (the server's current drive or directory would decide), and
 * not a network share or device path (`\\server\share`, `\\?\…`): looking one up would make Windows sign in to that
 * machine with the person's credentials.
 */
export function workdirPathProblem(path: string, platform: NodeJS.Platform = process.platform): string | undefined {
  if (platform !== 'win32') return posix.isAbsolute(path) ? undefined : `cwd must be an absolute path; got "${path}".`
  if (/^[\\/]{2}/.test(path)) return `cwd "${path}" is a network share or device path, which is not accepted: use a folder on a drive (C:\\…).`
  return /^[A-Za-z]:[\\/]/.test(path) ? undefined : `cwd must be an absolute path with its drive letter (C:\\…); got "${path}".`
}

/**
 * A `cwd` from a client: it must be an absolute path of a directory that exists and, when the person named the
 * directories calls may run in (`allowed`, real paths), inside one of them once its links are resolved.
 */
export async function checkWorkdir(path: string, allowed?: readonly string[]): Promise<WorkdirCheck> {
  const problem = workdirPathProblem(path)
  if (problem) return {message: problem, ok: false}
  let dir: string
  try {
    const info = await stat(path)
    if (!info.isDirectory()) return {message: `cwd "${path}" is not a directory.`, ok: false}
    // On Windows the native realpath turns a mapped drive into the share behind it, where commands cannot run.
    dir = process.platform === 'win32' ? await promisify(realpathJs)(path) : await realpath(path)
  } catch {
    return {message: `cwd "${path}" does not exist.`, ok: false}
  }

  if (!allowed || allowed.some((root) => isWithin(dir, root))) return {dir, ok: true}
  const where = allowed.length > 0 ? `in ${allowed.map((root) => `"${root}"`).join(', ')} (or below)` : 'in their default directory only'
  return {message: `cwd "${path}" is outside the directories this server lets calls run in: the person who started it allowed calls ${where} (--allow-cwd). Leave cwd out to run in the default directory.`, ok: false}
}

/**
 * Where commands run when a call gives no `cwd`: the directory chosen at start-up, else an empty private directory
 * made on first use and removed when the server stops — one per person where the server knows who calls (OAuth), so
 * what one person's commands leave there is never what another's read. Never the server process's own working
 * directory.
 */
export class DefaultWorkdir {
  /** Private directories by whom they are for ('' for calls of nobody known). */
  private readonly created = new Map<string, Promise<string>>()

  constructor(
    private readonly chosen: string | undefined,
    private readonly prefix: string,
  ) {}

  get(principal = ''): Promise<string> {
    if (this.chosen) return Promise.resolve(this.chosen)
    let dir = this.created.get(principal)
    if (!dir) this.created.set(principal, (dir = mkdtemp(join(tmpdir(), `${this.prefix}-mcp-`))))
    return dir
  }

  async dispose(): Promise<void> {
    for (const created of this.created.values()) {
      const dir = await created.catch(() => undefined)
      if (dir) await rm(dir, {force: true, recursive: true}).catch(() => {})
    }
  }
}
