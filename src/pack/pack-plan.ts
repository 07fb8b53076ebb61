import type {Config} from '@oclif/core'

import type {ServerFlags} from '../settings/settings.js'
import type {CommandTool} from '../tools/catalog/registry.js'

import {type Launch, stdioArgs} from '../clients/launch.js'
import {type ServerPlan} from '../mcp/plan.js'
import {planServer} from '../mcp/lifecycle.js'
import {agentSkill, type AgentSkill} from '../skill/agent-skill.js'
import {AGENT_HOSTS} from '../settings/agent-hosts.js'
import {MAX_TOOL_NAME} from '../tools/catalog/tool-names.js'
import {dependsOnPlugin} from './carry.js'
import {type Credential, credentialsOf} from './credentials.js'
import {type PackHost, TOOL_PREFIX, toolNameCap} from './names.js'
import {type PackageFacts, packageFacts} from './package-facts.js'

// What `mcp pack` makes, worked out before anything is written: the CLI's facts, the names it goes by, its credential
// variables, the Agent Skill, and for each host the launch line and the plan the server will serve there (tool names
// capped so that the host's prefix still fits in 64 characters). Made from the same planServer the servers use.

export class PackError extends Error {}

export interface PackRequest {
  config: Config
  /** Variables the author names as credentials, beside those the commands' flags read. */
  credentials?: readonly string[]
  /** The server flags given, as `mcp pack` passes them into every launch line (settings/server-options.ts). */
  flags: ServerFlags
  hosts: readonly PackHost[]
  /** The plugin's (and the server's) name in every host. */
  name: string
  passed: readonly string[]
}

/** One host's package: what its server is launched with, and what that server serves. */
export interface HostPack {
  host: PackHost
  launch: Launch
  /** The longest tool name its server gives (`--max-tool-name` in the launch line when under the default). */
  maxToolName: number
  plan: ServerPlan
  /** The prefix the host puts in front of each tool name. */
  prefix: string
  /** The server's name in the host's MCP entry. */
  server: string
}

/** The tool names Claude Code leaves a plugin's server, below which the server gets a short name of its own. */
const ROOMY = 32
/** The server's name in a plugin of Claude Code whose name is long (it is prefixed `mcp__plugin_<plugin>_cli__`). */
const SHORT_SERVER = 'cli'

/**
 * The server's name in the host's entry: the plugin's, but in Claude Code, which puts both in front of each tool name,
 * a short one when the plugin's name is long (`zapier-platform`: mcp__plugin_zapier-platform_cli__ leaves 31
 * characters, the name twice only 19). Codex needs the plugin's: it keeps one server of each name across plugins.
 */
function serverName(host: PackHost, plugin: string): string {
  if (host !== 'claude-code') return plugin
  return (toolNameCap(host, plugin, plugin) ?? 0) >= ROOMY ? plugin : SHORT_SERVER
}

export interface PackPlan {
  /** The launch arguments without a host of their own: what server.json's package arguments carry. */
  args: string[]
  /** The plan with the default name cap: what the report and server.json describe. */
  base: ServerPlan
  credentials: Credential[]
  facts: PackageFacts
  hosts: HostPack[]
  name: string
  /** The CLI depends on this plugin (its author added it): every install of it has `mcp stdio`, and a bundle can carry it. */
  pluginIsDependency: boolean
  skill: AgentSkill
  title?: string
}

/** Launch lines use the CLI's command on PATH: each person's own install, with the plugins they added and their login. */
export function planPack({config, credentials = [], flags, hosts, name, passed}: PackRequest): PackPlan {
  const plans = new Map<number, ServerPlan>()
  const planFor = (cap: number) => {
    let plan = plans.get(cap)
    if (!plan) {
      plan = planServer(config, {...flags, 'max-tool-name': cap})
      plans.set(cap, plan)
    }

    return plan
  }

  const base = planFor(MAX_TOOL_NAME)
  const packs = hosts.map((host): HostPack => {
    const server = serverName(host, name)
    const cap = toolNameCap(host, name, server)
    const prefix = TOOL_PREFIX[host](name, server)
    if (cap === undefined)
      throw new PackError(`"${name}" is too long a name for ${AGENT_HOSTS[host].label}: its prefix ${prefix} leaves too little of 64 characters for the tools' names. Give a shorter --name.`)
    const capArgs = cap < MAX_TOOL_NAME ? ['--max-tool-name', String(cap)] : []
    return {host, launch: {args: stdioArgs(config, [...passed, '--client', host, ...capArgs]), command: config.bin}, maxToolName: cap, plan: planFor(cap), prefix, server}
  })
  const reach: CommandTool[] = [...base.projection.executable.values()]
  return {
    args: stdioArgs(config, passed),
    base,
    credentials: credentialsOf(reach, credentials),
    facts: packageFacts(config),
    hosts: packs,
    name,
    pluginIsDependency: dependsOnPlugin(config.root),
    skill: agentSkill(config, base.projection),
    title: base.settings.author.title,
  }
}
