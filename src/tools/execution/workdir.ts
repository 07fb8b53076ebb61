import {mkdtemp, realpath, rm, stat} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import {isAbsolute, join} from 'node:path'

export type WorkdirCheck = {dir: string; ok: true} | {message: string; ok: false}

/** A `cwd` from a client: it must be an absolute path of a directory that exists. */
export async function checkWorkdir(path: string): Promise<WorkdirCheck> {
  if (!isAbsolute(path)) return {message: `cwd must be an absolute path; got "${path}".`, ok: false}
  try {
    const info = await stat(path)
    if (!info.isDirectory()) return {message: `cwd "${path}" is not a directory.`, ok: false}
    return {dir: await realpath(path), ok: true}
  } catch {
    return {message: `cwd "${path}" does not exist.`, ok: false}
  }
}

/**
 * Where commands run when a call gives no `cwd`: the directory chosen at start-up, else an empty private directory
 * made on first use and removed when the server stops. Never the server process's own working directory.
 */
export class DefaultWorkdir {
  private created?: Promise<string>

  constructor(
    private readonly chosen: string | undefined,
    private readonly prefix: string,
  ) {}

  get(): Promise<string> {
    if (this.chosen) return Promise.resolve(this.chosen)
    this.created ??= mkdtemp(join(tmpdir(), `${this.prefix}-mcp-`))
    return this.created
  }

  async dispose(): Promise<void> {
    if (!this.created) return
    const dir = await this.created.catch(() => undefined)
    if (dir) await rm(dir, {force: true, recursive: true}).catch(() => {})
  }
}
