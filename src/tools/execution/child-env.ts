import type {Config} from '@oclif/core'

/**
 * Scoped variables (`<BIN>_…`) that oclif plugins read to skip update checks, auto-update, telemetry and release
 * notes. Set to "true" in every child so a tool call never phones home or spawns a background updater.
 */
const QUIET_KEYS = ['SKIP_NEW_VERSION_CHECK', 'DISABLE_AUTOUPDATE', 'AUTOUPDATE_DISABLE', 'DISABLE_TELEMETRY', 'TELEMETRY_DISABLED', 'HIDE_RELEASE_NOTES']

/**
 * Which process the orphan guard (orphan-guard.cts) watches: the server's pid, handed to every child it starts. The
 * guard takes it out of the environment before the command runs.
 */
export const SERVER_PID_VARIABLE = 'OCLIF_MCP_SERVER_PID'

/**
 * A value a host left as it was written: Claude Desktop gives a bundle's server `${user_config.KEY}` literally when the
 * person filled in no value for an optional setting. A CLI would take it for a credential (and fail to log in).
 */
const UNFILLED = /^\$\{user_config\.[A-Za-z_][\w.-]*\}$/

/**
 * The environment of a command's child process: the server's, without this plugin's own variables (`<BIN>_MCP_…`:
 * the bearer token among them), without values a host left unfilled (UNFILLED), without colour, with quiet hooks,
 * plus the author's, and the server's pid for the orphan guard.
 */
export function childEnv(config: Config, extra: Record<string, string>, platform: NodeJS.Platform = process.platform): Record<string, string | undefined> {
  const own = config.scopedEnvVarKey('MCP_')
  // Windows reads variable names without regard to case: `taskbox_mcp_token` is TASKBOX_MCP_TOKEN there.
  const ours = platform === 'win32' ? (name: string) => name.toUpperCase().startsWith(own.toUpperCase()) : (name: string) => name.startsWith(own)
  const env: Record<string, string | undefined> = Object.fromEntries(Object.entries(process.env).filter(([name, value]) => !ours(name) && !UNFILLED.test(value ?? '')))
  delete env.FORCE_COLOR
  for (const key of QUIET_KEYS) env[config.scopedEnvVarKey(key)] = 'true'
  // OCLIF_DISABLE_LINKED_ESM_WARNING: a `plugins link`ed ES module plugin would otherwise warn on every call.
  return {...env, ...extra, FORCE_COLOR: '0', NO_COLOR: '1', OCLIF_DISABLE_LINKED_ESM_WARNING: 'true', [SERVER_PID_VARIABLE]: String(process.pid), TERM: 'dumb'}
}
