import {skillName} from '../skill/agent-skill.js'
import {pluginToolPrefix, TOOL_NAME_LIMIT, toolPrefix} from '../settings/agent-hosts.js'
import {MAX_TOOL_NAME, MIN_TOOL_NAME} from '../tools/catalog/tool-names.js'

// The names a package goes by in each host, and what they leave of a tool name. Hosts put the server (and a plugin)
// in front of every tool name, and the whole name must stay within 64 characters (the Anthropic and OpenAI APIs refuse
// longer ones): Claude Code names a plugin's tool `mcp__plugin_<plugin>_<server>__<tool>`, Codex, Cursor and Claude
// Desktop `mcp__<server>__<tool>`, Gemini CLI `mcp_<server>_<tool>`.

/** The hosts a package is made for. */
export const PACK_HOSTS = ['claude-code', 'codex', 'gemini', 'cursor', 'claude-desktop'] as const
export type PackHost = (typeof PACK_HOSTS)[number]

/** The prefix each host puts in front of a tool of the server `server`, installed as the plugin `plugin`. */
export const TOOL_PREFIX: Record<PackHost, (plugin: string, server: string) => string> = {
  'claude-code': (plugin, server) => pluginToolPrefix(plugin, server),
  'claude-desktop': (_plugin, server) => toolPrefix('claude-desktop', server),
  codex: (_plugin, server) => toolPrefix('codex', server),
  cursor: (_plugin, server) => toolPrefix('cursor', server),
  gemini: (_plugin, server) => toolPrefix('gemini', server),
}

/** A plugin name every host takes: lowercase letters, digits and single hyphens (Gemini CLI and Cursor allow no `_`). */
export const PLUGIN_NAME = /^[a-z0-9](?:[a-z0-9]|-(?!-))*[a-z0-9]$|^[a-z0-9]$/

/** The bin as a plugin name (the skill's naming rule, shorter): `@acme/my_cli` → `acme-my-cli`. */
export function pluginNameOf(bin: string): string {
  return skillName(bin).slice(0, 48).replace(/-+$/, '') || 'cli'
}

export function checkPluginName(name: string): string | undefined {
  if (!PLUGIN_NAME.test(name) || name.length > 48)
    return `"${name}" cannot name a plugin in every host: use lowercase letters, digits and single hyphens, at most 48 characters (Gemini CLI and Cursor take no "_" or ".").`
  return undefined
}

/**
 * The longest tool name that fits behind a prefix: the server's own cap (45) unless the prefix leaves less. Undefined
 * when it leaves less than the shortest cap the server takes (the caller says what to shorten).
 */
export function capBehind(prefix: string): number | undefined {
  const room = TOOL_NAME_LIMIT - prefix.length
  return room < MIN_TOOL_NAME ? undefined : Math.min(MAX_TOOL_NAME, room)
}

export function toolNameCap(host: PackHost, plugin: string, server: string): number | undefined {
  return capBehind(TOOL_PREFIX[host](plugin, server))
}
