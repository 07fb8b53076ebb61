import {mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {readFile, stat} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import {dirname, join} from 'node:path'
import {CodedError} from '../../error-codes.js'

/** Where the bearer token comes from: never the command line, which every local user can read (ps, /proc/PID/cmdline). */
export type TokenSource = {file: string} | {variable: string}

export class TokenError extends CodedError {
  constructor(message: string) {
    super('TOKEN_UNUSABLE', message)
  }
}

/**
 * The bearer token `mcp serve` requires: from `--token-file` (a regular file only its owner can read), else from the
 * `<BIN>_MCP_TOKEN` variable, which is then removed from this process's environment so nothing started later sees it.
 * Undefined when neither gives one. Throws TokenError with what to do when the file cannot be used.
 */
export async function readToken(file: string | undefined, variable: string, env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): Promise<string | undefined> {
  const fromEnv = env[variable]
  delete env[variable]
  if (file === undefined) return fromEnv || undefined
  let info
  try {
    info = await stat(file)
  } catch (error) {
    throw new TokenError(`Cannot read the token file ${file}: ${(error as Error).message}`)
  }

  if (!info.isFile()) throw new TokenError(`The token file ${file} is not a regular file.`)
  // Windows has no such mode bits (every file reads as 0o666, or 0o444): its ACLs decide, and are the person's to set.
  if (platform !== 'win32' && (info.mode & 0o077) !== 0) {
    const mode = (info.mode & 0o777).toString(8).padStart(3, '0')
    throw new TokenError(`The token file ${file} can be read by other users (mode ${mode}); run "chmod 600 ${file}" first.`)
  }

  // A byte order mark is what Notepad and PowerShell 5 start a UTF-8 file with: not part of the token.
  const token = (await readFile(file, 'utf8')).replace(/^\uFEFF/, '').replace(/\r?\n$/, '')
  if (token.trim() === '') throw new TokenError(`The token file ${file} is empty.`)
  if (/[\r\n]/.test(token)) throw new TokenError(`The token file ${file} holds more than one line; put the token alone on one line.`)
  return token
}

/**
 * Secrets given to `mcp serve` in its environment (its token, a Redis URL with a password) stay in the process's
 * original environment block, which /proc/PID/environ shows to the same user for as long as it runs: to every
 * command the server runs, too. Where Node can replace the process (process.execve, Node 22.15 and later), the
 * server starts itself again without them: they go through a file only this user can read, in a folder of its own,
 * which the new process reads and removes before anything else. Returns the values taken over that way (none on the
 * first start, or where Node cannot), and whether the secrets had to stay in the environment.
 */
export function restartWithoutSecrets(variables: readonly string[], handOver: string): {kept: boolean; taken: Record<string, string>} {
  const passed = process.env[handOver]
  if (passed) {
    delete process.env[handOver]
    const taken = JSON.parse(readFileSync(passed, 'utf8')) as Record<string, string>
    rmSync(dirname(passed), {force: true, recursive: true})
    return {kept: false, taken}
  }

  const secrets = Object.fromEntries(variables.filter((name) => process.env[name]).map((name) => [name, process.env[name]!]))
  if (Object.keys(secrets).length === 0) return {kept: false, taken: {}}
  const execve = (process as {execve?: (file: string, args: string[], env: NodeJS.ProcessEnv) => never}).execve
  if (typeof execve !== 'function' || process.platform === 'win32') return {kept: true, taken: {}}
  const dir = mkdtempSync(join(tmpdir(), 'mcp-serve-'))
  const file = join(dir, 'secrets.json')
  writeFileSync(file, JSON.stringify(secrets), {flag: 'wx', mode: 0o600})
  const env = {...process.env, [handOver]: file}
  for (const name of variables) delete env[name]
  execve.call(process, process.execPath, [process.execPath, ...process.execArgv, ...process.argv.slice(1)], env)
  return {kept: true, taken: {}}
}
