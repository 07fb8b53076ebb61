import {Flags} from '@oclif/core'

import {resolve} from 'node:path'

import {checkEnvName} from '../../clients/client-specs.js'
import {HostCommand} from '../../host/command.js'
import {BUNDLE_KINDS, type BundleKind} from '../../pack/mcpb.js'
import {checkPluginName, PACK_HOSTS, type PackHost, pluginNameOf} from '../../pack/names.js'
import {PackError, planPack} from '../../pack/pack-plan.js'
import {type PackReport, writePack} from '../../pack/write-pack.js'
import {ConfigError} from '../../settings/author-config.js'
import {launchArguments, serverFlags, TRAVELLING} from '../../settings/server-options.js'

/**
 * The server flags a package passes into every launch line, as given (no defaults): those that travel into a client's
 * launch line, but the directories (they are this machine's), the host (each package names its own) and the tool-name
 * cap (each package's prefix decides it).
 */
const MACHINE_BOUND = new Set(['allow-cwd', 'client', 'cwd', 'max-tool-name'])
const PASSED_FLAGS = Object.fromEntries(
  Object.entries(serverFlags).flatMap(([name, flag]) =>
    TRAVELLING.includes(name as keyof typeof serverFlags) && !MACHINE_BOUND.has(name) ? [[name, {...flag, default: undefined}]] : [],
  ),
) as Omit<typeof serverFlags, 'allow-cwd' | 'client' | 'cwd' | 'max-tool-name'>

const STATUS_WORD = {added: 'added', removed: 'removed', unchanged: 'unchanged', updated: 'updated'}

export default class McpPack extends HostCommand {
  static summary = 'Write a package of this CLI for each agent host: plugins for Claude Code, Codex and Cursor, a Gemini CLI extension, a Claude Desktop bundle and an MCP Registry server.json.'
  static description = `Each package holds the MCP server entry that starts "<%= config.bin %> mcp stdio" for that host (with the server flags given here), the Agent Skill of "mcp skill", and the host's manifest: claude-code/ (.claude-plugin/plugin.json, .mcp.json, skills/, and a marketplace.json listing itself), codex/ (.codex-plugin/plugin.json, .mcp.json, skills/, .agents/plugins/marketplace.json), gemini/ (gemini-extension.json, skills/), cursor/ (.cursor-plugin/plugin.json, mcp.json, skills/), <name>.mcpb (a Claude Desktop bundle) and server.json (the MCP Registry's entry for the CLI's npm package, with what is missing to publish it; nothing is published). Names, version, author and links come from the CLI's package.json.

Tool names are capped so that each host's prefix still fits in 64 characters: Claude Code names a plugin's tool mcp__plugin_<name>_<name>__<tool>, so its launch line passes --max-tool-name. Credentials: the variables the commands' flags read that are named like secrets, and those given with --env, are passed on where a host filters the environment (Codex env_vars, Gemini CLI settings, the bundle's settings form); their values are never written.

The bundle either carries the CLI with its node_modules and runs it with Claude Desktop's own Node (--bundle carry: nothing to install, and the CLI runs whatever the person's PATH), or launches the CLI installed on the person's PATH (--bundle launch: a few kilobytes; Claude Desktop's minimal PATH may not find a CLI installed under nvm or Homebrew). The default carries the CLI when this plugin is one of its dependencies, and launches it otherwise.

Run it again after the CLI changed: the folder is rewritten in place (the version from package.json), files no longer made are removed, and the report says which tools were added, removed or changed. A folder not written by this command is never touched.`
  static enableJsonFlag = true
  static examples = [
    {command: '<%= config.bin %> <%= command.id %>', description: 'Every package, in ./mcp-pack'},
    {command: '<%= config.bin %> <%= command.id %> --read-only --out dist/agents', description: 'Read-only servers only'},
    {command: "<%= config.bin %> <%= command.id %> --host claude-code --host codex --env <%= config.scopedEnvVarKey('API_KEY') %>", description: 'Only the Claude Code and Codex plugins, passing an API key on'},
  ]
  static flags = {
    ...PASSED_FLAGS,
    out: Flags.directory({default: 'mcp-pack', description: 'The folder to write (made, or updated when an earlier run wrote it).'}),
    name: Flags.string({description: "The plugin's and server's name in every host (default: the CLI's bin, as lowercase letters, digits and hyphens)."}),
    host: Flags.option({description: 'Make only the package of this host; repeat for several (default: all).', multiple: true, options: PACK_HOSTS})(),
    bundle: Flags.option({description: 'What the Claude Desktop bundle holds: the CLI itself (carry) or a launch of the installed CLI (launch). Default: carry when this plugin is a dependency of the CLI.', options: BUNDLE_KINDS})(),
    env: Flags.string({description: 'A variable holding a credential the server needs, beside those the flags read; repeat for several. Its value is never written.', multiple: true}),
    registry: Flags.boolean({allowNo: true, default: true, description: 'Write server.json for the MCP Registry (--no-registry: not).'}),
    remote: Flags.string({description: 'The https URL of a running "mcp serve" to list in server.json as a remote.'}),
  }

  async run(): Promise<PackReport> {
    const {flags} = await this.parse(McpPack)
    const name = flags.name ?? pluginNameOf(this.config.bin)
    const bad = checkPluginName(name)
    if (bad) this.error(bad, {exit: 2})
    for (const variable of flags.env ?? []) {
      const badEnv = checkEnvName(variable)
      if (badEnv) this.error(badEnv, {exit: 2})
    }

    if (flags.remote !== undefined && !/^https?:\/\/[^/]/.test(flags.remote)) this.error(`--remote "${flags.remote}" is not an http(s) URL.`, {exit: 2})
    const hosts: PackHost[] = flags.host ? PACK_HOSTS.filter((host) => flags.host!.includes(host)) : [...PACK_HOSTS]
    const passed = launchArguments(flags, PASSED_FLAGS)
    try {
      const plan = planPack({config: this.config, credentials: flags.env, flags, hosts, name, passed})
      const bundle: BundleKind = flags.bundle ?? (plan.pluginIsDependency ? 'carry' : 'launch')
      const report = await writePack(resolve(flags.out), plan, {bundle, remote: flags.remote, withRegistry: flags.registry})
      if (!this.jsonEnabled()) this.show(report, plan.credentials.map((c) => c.name))
      return report
    } catch (error) {
      if (error instanceof PackError || error instanceof ConfigError) this.error(error.message, {exit: error instanceof ConfigError ? 2 : 1})
      throw error
    }
  }

  private show(report: PackReport, credentials: string[]): void {
    const changed = report.files.filter((file) => file.status !== 'unchanged')
    const counts = Object.entries(STATUS_WORD)
      .map(([status, word]) => [report.files.filter((file) => file.status === status).length, word] as const)
      .filter(([n]) => n > 0)
      .map(([n, word]) => `${n} ${word}`)
    this.log(`Packed ${this.config.bin} ${report.version.now}${report.version.before && report.version.before !== report.version.now ? ` (was ${report.version.before})` : ''} into ${report.out}: ${counts.join(', ')}`)
    for (const host of report.hosts) this.log(`  ${host.host}/  tools named ${host.prefix}<tool>, the longest ${host.prefix.length + host.longestTool} of 64 characters`)
    if (report.bundle) this.log(`  ${report.bundle.file}  (${report.bundle.kind}, ${Math.max(1, Math.round(report.bundle.bytes / 1024))} KB, ${report.bundle.tools} tools listed)`)
    if (report.registry) this.log(`  ${report.registry.file}`)
    if (changed.length > 0 && report.version.before) for (const file of changed) this.log(`    ${file.status} ${file.path}`)
    const {tools} = report
    if (report.version.before) {
      const moves = [['added', tools.added], ['removed', tools.removed], ['changed', tools.changed]] as const
      const said = moves.filter(([, ids]) => ids.length > 0).map(([word, ids]) => `${word} ${ids.join(', ')}`)
      this.log(said.length > 0 ? `Tools since the last pack: ${said.join('; ')}` : `Tools since the last pack: none changed (${tools.total}).`)
    }

    this.log(credentials.length > 0 ? `Credentials passed on where a host filters the environment: ${credentials.join(', ')}` : 'No credential variables found (give them with --env NAME).')
    if (report.registry) {
      for (const line of report.registry.check.missing) this.logToStderr(`To publish server.json: ${line}`)
      for (const line of report.registry.check.notes) this.logToStderr(`Note: ${line}`)
    }
  }
}
