import {constants, type Stats} from 'node:fs'
import {chmod, chown, copyFile, lstat, mkdir, readFile, readlink, realpath, rename, rm, stat, writeFile} from 'node:fs/promises'
import {basename, dirname, join, resolve} from 'node:path'

import {isWithin} from '../host/paths.js'
import {CodedError} from '../error-codes.js'

// Writing a client's config file: follow symlinks to the real file, refuse anything but a regular file, back it up,
// write atomically with its permissions kept, or leave it untouched when the edit fails. The edits themselves are in
// jsonc-edit.ts and toml-edit.ts; client-setup.ts chooses which file and which edit for each client.

export type ClientConfigErrorCode = 'UNPARSABLE_CLIENT_CONFIG' | 'UNSAFE_CLIENT_CONFIG'

/** A client config file this command will not touch; the message says why (it reads after "Cannot update FILE: "). */
export class ClientConfigError extends CodedError {
  constructor(
    readonly code: ClientConfigErrorCode,
    message: string,
  ) {
    super(code, message)
  }
}

/** A config text with one server put in, and what that did. */
export interface MergeResult {
  status: 'added' | 'unchanged' | 'updated'
  text: string
}

export interface WriteOutcome {
  /** The copy of the previous file; null when there was none or nothing changed. */
  backup: null | string
  path: string
  status: MergeResult['status']
}

/** `20250102T030405Z`: sorts by time, safe in every file system (backups are named with it). */
export function stamp(date: Date): string {
  return date.toISOString().replaceAll(/[-:]|\.\d+/g, '')
}

/** A copy of the file next to it, `<file>.<time>.bak`, never replacing an earlier backup. */
async function backUp(path: string): Promise<string> {
  const base = `${path}.${stamp(new Date())}`
  for (let n = 1; ; n++) {
    const backup = n === 1 ? `${base}.bak` : `${base}-${n}.bak`
    try {
      await copyFile(path, backup, constants.COPYFILE_EXCL)
      return backup
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    }
  }
}

const KIND: [test: (info: Stats) => boolean, name: string][] = [
  [(info) => info.isDirectory(), 'a directory'],
  [(info) => info.isFIFO(), 'a named pipe (FIFO)'],
  [(info) => info.isSocket(), 'a socket'],
  [(info) => info.isCharacterDevice() || info.isBlockDevice(), 'a device'],
]

/**
 * Where a config file really is: a symlink (dotfiles kept in a repository) is followed, also when it points at a
 * file that does not exist yet, so the file is written where the link leads and the link stays a link.
 */
async function resolveTarget(given: string): Promise<string> {
  let path = resolve(given)
  for (let hops = 0; hops < 16; hops++) {
    const info = await lstat(path).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return undefined
      throw error
    })
    if (!info?.isSymbolicLink()) return path
    path = resolve(dirname(path), await readlink(path))
  }

  throw new ClientConfigError('UNSAFE_CLIENT_CONFIG', 'it is a chain of more than 16 symbolic links')
}

/**
 * Where a path really leads: the real path of its deepest part that exists, with the rest (not made yet) after it.
 * A symbolic link anywhere on the way is followed.
 */
export async function realDestination(path: string): Promise<string> {
  const rest: string[] = []
  for (let at = resolve(path); ; at = dirname(at)) {
    const real = await realpath(at).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return undefined
      throw error
    })
    if (real !== undefined) return join(real, ...rest.reverse())
    if (dirname(at) === at) return resolve(path)
    rest.push(basename(at))
  }
}

/**
 * Refuses (UNSAFE_CLIENT_CONFIG) a target inside a project that leads out of it: a cloned repository can plant a
 * link (`.vscode` → the user's settings folder, `.claude/skills` → anywhere), and writing through it would edit a
 * file the person never named.
 */
export async function keepWithin(path: string, project: string): Promise<void> {
  const [real, root] = await Promise.all([realDestination(path), realDestination(project)])
  if (!isWithin(real, root)) {
    throw new ClientConfigError('UNSAFE_CLIENT_CONFIG', `it is in the project ${project}, but a symbolic link on the way leads out of it (to ${real}); a cloned repository may plant such links: remove the link, or write the file yourself`)
  }
}

/** How updateConfigFile may write. */
export interface WriteOptions {
  /** The project the file belongs to (it is in it): the file, links followed, must stay inside it. */
  project?: string
}

/**
 * Reads a client's config file (a missing one reads as empty), lets `merge` put the server in, and when that changed
 * anything writes the result atomically (a temporary file renamed over it, with the old file's permissions) after
 * backing the old file up, its owner and group kept. Refused before it is opened: a path that is not a regular file
 * (a FIFO, a directory, a device), a file with other hard links (replacing it would cut them off: the other names
 * would keep the old text), another user's file unless run as root (whose write keeps that user the owner), and a
 * project's file whose links lead out of the project (`project`). When `merge` throws (ClientConfigError) the file
 * is left exactly as it was.
 */
export async function updateConfigFile(given: string, merge: (text: string) => MergeResult, {project}: WriteOptions = {}): Promise<WriteOutcome> {
  if (project !== undefined) await keepWithin(given, project)
  const path = await resolveTarget(given)
  let text = ''
  let mode: number | undefined
  const info = await stat(path).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined
    throw error
  })
  if (info) {
    const kind = KIND.find(([test]) => test(info))?.[1]
    if (kind || !info.isFile()) throw new ClientConfigError('UNSAFE_CLIENT_CONFIG', `it is ${kind ?? 'not a regular file'}, not a regular file`)
    if (info.nlink > 1) throw new ClientConfigError('UNSAFE_CLIENT_CONFIG', `it has ${info.nlink - 1} other hard link(s), which a rewrite would cut off (they would keep the old text); edit it yourself`)
    const uid = process.getuid?.()
    if (uid !== undefined && uid !== 0 && info.uid !== uid) throw new ClientConfigError('UNSAFE_CLIENT_CONFIG', `it belongs to another user (uid ${info.uid})`)
    text = await readFile(path, 'utf8')
    mode = info.mode & 0o777
  }

  const result = merge(text)
  if (result.status === 'unchanged') return {backup: null, path: given, status: 'unchanged'}
  await mkdir(dirname(path), {recursive: true})
  const backup = mode === undefined ? null : await backUp(path)
  // Run as root on another user's file, the new file and the backup stay theirs.
  const owner = info && process.getuid?.() === 0 && info.uid !== 0 ? {gid: info.gid, uid: info.uid} : undefined
  if (backup && owner) await chown(backup, owner.uid, owner.gid)
  const temporary = `${path}.${process.pid}.tmp`
  try {
    await writeFile(temporary, result.text, {flag: 'wx', mode: mode ?? 0o644})
    if (mode !== undefined) await chmod(temporary, mode)
    if (owner) await chown(temporary, owner.uid, owner.gid)
    await rename(temporary, path)
  } catch (error) {
    await rm(temporary, {force: true})
    throw error
  }

  return {backup, path: given, status: result.status}
}
