import type {Config} from '@oclif/core'

import {accessSync, constants, closeSync, openSync, readSync, realpathSync, statSync} from 'node:fs'
import {delimiter, extname, isAbsolute, join} from 'node:path'

import {hostBinScript} from '../host/bin-script.js'
import {isWithin} from '../host/paths.js'
import {ourCommandWords, type Spelling} from '../host/spelling.js'

/** How an MCP client starts this CLI's stdio server: an executable and its arguments, no shell. */
export interface Launch {
  args: string[]
  command: string
}

/** Where an MCP client reaches this CLI's `mcp serve` over HTTP, and the variable of its environment holding the token. */
export interface Remote {
  tokenVariable?: string
  url: string
}

/** What a client's entry points at: a server it starts, or one it reaches over HTTP. */
export type Target = Launch | Remote

export const isRemote = (target: Target): target is Remote => 'url' in target

/** `mcp stdio` and the server flags an entry passes on (settings/server-options.ts launchArguments), spelled the way this CLI parses them (a `:` separated CLI needs `mcp:stdio`). */
export function stdioArgs(config: Spelling, flags: readonly string[] = []): string[] {
  return [...ourCommandWords(config, 'stdio'), ...flags]
}

function isExecutableFile(file: string, platform: NodeJS.Platform): boolean {
  try {
    if (!statSync(file).isFile()) return false
    if (platform !== 'win32') accessSync(file, constants.X_OK)
    return true
  } catch {
    return false
  }
}

/**
 * The names an executable of `bin` may have in a PATH directory. On Windows only programs a client can start without
 * a shell: `.exe` and `.com` (a `.cmd` or `.bat` shim needs cmd.exe, which Node refuses to start without a shell since
 * 20.12.2, and a file without an extension is a shell script Windows cannot run at all).
 */
function executableNames(bin: string, platform: NodeJS.Platform, env: NodeJS.ProcessEnv): string[] {
  if (platform !== 'win32') return [bin]
  const extensions = (env.PATHEXT ?? '.COM;.EXE;.BAT;.CMD').split(';').map((ext) => ext.toLowerCase())
  return extensions.filter((ext) => ext === '.exe' || ext === '.com').map((ext) => bin + ext)
}

/**
 * The CLI's own executable on PATH: a file named like the bin whose real path lies inside the CLI's package
 * (`/usr/local/bin/mycli` → `…/node_modules/mycli/bin/run.js`), so a same-named stranger is never picked.
 */
export function binOnPath(config: Pick<Config, 'bin' | 'root'>, env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string | undefined {
  const root = realpathSync(config.root)
  const separator = platform === 'win32' ? ';' : delimiter
  // Windows PATH entries may be quoted ("C:\Program Files\nodejs").
  for (const entry of (env.PATH ?? env.Path ?? '').split(separator)) {
    const dir = platform === 'win32' ? entry.replaceAll('"', '') : entry
    if (!dir || !isAbsolute(dir)) continue
    for (const name of executableNames(config.bin, platform, env)) {
      const file = join(dir, name)
      if (isExecutableFile(file, platform) && isWithin(realpathSync(file), root)) return file
    }
  }

  return undefined
}

/** The first line of a file when it is a `#!` line. */
function shebangOf(file: string): string | undefined {
  const buffer = Buffer.alloc(256)
  let fd: number | undefined
  try {
    fd = openSync(file, 'r')
    const line = buffer.subarray(0, readSync(fd, buffer, 0, buffer.length, 0)).toString('utf8').split('\n')[0]
    return line.startsWith('#!') ? line.slice(2).trim() : undefined
  } catch {
    return undefined
  } finally {
    if (fd !== undefined) closeSync(fd)
  }
}

/**
 * The Node options a script's `#!` line asks for, when it is a Node script: `#!/usr/bin/env node` and `#!/…/node`
 * give none, `#!/usr/bin/env -S node --no-deprecation` (@salesforce/cli) gives `--no-deprecation`, and a .js/.mjs/.cjs
 * file without a `#!` line none. Such a script is launched as `<this node> <options> <script>`: hosts like Claude
 * Desktop start servers with a minimal PATH where `env node` finds no Node (or another one). Undefined for anything
 * else (a shell wrapper of a standalone install that ships its own Node, a native binary), which is launched as it is.
 */
function nodeOptionsOf(file: string): string[] | undefined {
  const shebang = shebangOf(file)
  if (shebang === undefined) return ['.cjs', '.js', '.mjs'].includes(extname(file)) ? [] : undefined
  let words = shebang.split(/\s+/).filter(Boolean)
  if (/(?:^|\/)env$/.test(words[0] ?? '')) words = words[1] === '-S' ? words.slice(2) : words.slice(1)
  if (!/(?:^|\/)node$/.test(words[0] ?? '')) return undefined
  const options = words.slice(1)
  return options.every((option) => option.startsWith('-')) ? options : undefined
}

/**
 * How to start this CLI from an MCP client, as absolute paths resolved now. The CLI's executable on PATH is
 * preferred (it survives upgrades that move files inside the package), else the package's bin script.
 */
export function resolveLaunch(config: Config, flags: readonly string[] = [], env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): Launch {
  const executable = binOnPath(config, env, platform) ?? hostBinScript(config)
  const args = stdioArgs(config, flags)
  const nodeOptions = nodeOptionsOf(executable)
  return nodeOptions ? {args: [...nodeOptions, executable, ...args], command: process.execPath} : {args, command: executable}
}
