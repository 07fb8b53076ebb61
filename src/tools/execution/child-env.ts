import type {Config} from '@oclif/core'
import {createRequire} from 'node:module'
import {join} from 'node:path'

/**
 * Scoped variables (`<BIN>_…`) that oclif plugins read to skip update checks, auto-update, telemetry and release
 * notes. Set to "true" in every child so a tool call never phones home or spawns a background updater.
 */
const QUIET_KEYS = ['SKIP_NEW_VERSION_CHECK', 'DISABLE_AUTOUPDATE', 'AUTOUPDATE_DISABLE', 'DISABLE_TELEMETRY', 'TELEMETRY_DISABLED', 'HIDE_RELEASE_NOTES']

/**
 * The environment of a command's child process: the server's, without this plugin's own variables (`<BIN>_MCP_…`:
 * the bearer token among them), without colour, with quiet hooks, plus the author's.
 */
export function childEnv(config: Config, extra: Record<string, string>): Record<string, string | undefined> {
  const own = config.scopedEnvVarKey('MCP_')
  const env: Record<string, string | undefined> = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith(own)))
  delete env.FORCE_COLOR
  for (const key of QUIET_KEYS) env[config.scopedEnvVarKey(key)] = 'true'
  // OCLIF_DISABLE_LINKED_ESM_WARNING: a `plugins link`ed ES module plugin would otherwise warn on every call.
  return {...env, ...extra, FORCE_COLOR: '0', NO_COLOR: '1', OCLIF_DISABLE_LINKED_ESM_WARNING: 'true', TERM: 'dumb'}
}

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
