import type {Config} from '@oclif/core'

import {createRequire} from 'node:module'
import {join} from 'node:path'

/** The script that starts the host CLI: the one that started this process when it belongs to the CLI, else its bin. */
export function hostBinScript(config: Config): string {
  const started = process.argv[1]
  if (started && started.startsWith(config.root)) return started
  const {bin} = config.pjson as {bin?: Record<string, string> | string}
  const relative = typeof bin === 'string' ? bin : bin?.[config.bin] ?? Object.values(bin ?? {})[0]
  if (!relative) throw new Error(`Cannot find how to start ${config.bin}: its package.json has no "bin".`)
  return join(config.root, relative)
}

/** The version of the @oclif/core the host CLI itself runs on (ours may differ), or undefined when it bundles one. */
export function hostCoreVersion(config: Config): string | undefined {
  try {
    const require = createRequire(join(config.root, 'package.json'))
    return (require('@oclif/core/package.json') as {version: string}).version
  } catch {
    return undefined
  }
}

/**
 * Whether the host answers `--json` with its error's message: @oclif/core 4 and later do; 1 to 3 print the error
 * object with JSON.stringify, which leaves the message out (`{"error": {"code": "NO_FILE"}}`). A bundled core
 * (found by no version) is taken to be a current one.
 */
export function jsonErrorsKeepMessage(config: Config): boolean {
  const major = Number(hostCoreVersion(config)?.split('.')[0])
  return !Number.isFinite(major) || major >= 4
}

/** The URI scheme of the server's resources, from the bin name: lowercase letters, digits, `+ . -`, starting with a letter. */
export function uriScheme(bin: string): string {
  const cleaned = bin.toLowerCase().replaceAll(/[^a-z0-9+.-]+/g, '-')
  return /^[a-z]/.test(cleaned) ? cleaned : `cli-${cleaned}`
}

/**
 * The signals that ask a server to stop: Ctrl-C and SIGTERM; on Windows (where SIGTERM never arrives) also Ctrl-Break
 * (SIGBREAK) and a closed console window (SIGHUP). POSIX SIGHUP keeps its default (and `nohup` can still ignore it).
 */
export function stopSignals(platform: NodeJS.Platform = process.platform): NodeJS.Signals[] {
  return ['SIGINT', 'SIGTERM', ...(platform === 'win32' ? (['SIGHUP', 'SIGBREAK'] as const) : [])]
}
