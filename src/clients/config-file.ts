import {chmod, copyFile, mkdir, readFile, realpath, rename, rm, stat, writeFile} from 'node:fs/promises'
import {constants} from 'node:fs'
import {dirname} from 'node:path'

export type ClientConfigErrorCode = 'UNPARSABLE_CLIENT_CONFIG' | 'UNSAFE_CLIENT_CONFIG'

/** A client config file this command will not touch; the message says why (it reads after "Cannot update FILE: "). */
export class ClientConfigError extends Error {
  constructor(
    readonly code: ClientConfigErrorCode,
    message: string,
  ) {
    super(message)
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

/** `20250102T030405Z`: sorts by time, safe in every file system. */
function stamp(date: Date): string {
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

/**
 * Reads a client's config file (a missing one reads as empty), lets `merge` put the server in, and when that changed
 * anything writes the result atomically (a temporary file renamed over it, with the old file's permissions) after
 * backing the old file up. When `merge` throws (ClientConfigError), the file is left exactly as it was.
 */
export async function updateConfigFile(given: string, merge: (text: string) => MergeResult): Promise<WriteOutcome> {
  let path = given
  let text = ''
  let mode: number | undefined
  try {
    // A config file kept as a symlink (dotfiles) is updated where it lives; the link stays a link.
    path = await realpath(given)
    text = await readFile(path, 'utf8')
    mode = (await stat(path)).mode & 0o777
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
  }

  const result = merge(text)
  if (result.status === 'unchanged') return {backup: null, path: given, status: 'unchanged'}
  await mkdir(dirname(path), {recursive: true})
  const backup = mode === undefined ? null : await backUp(path)
  const temporary = `${path}.${process.pid}.tmp`
  try {
    await writeFile(temporary, result.text, {flag: 'wx', mode: mode ?? 0o644})
    if (mode !== undefined) await chmod(temporary, mode)
    await rename(temporary, path)
  } catch (error) {
    await rm(temporary, {force: true})
    throw error
  }

  return {backup, path: given, status: result.status}
}
