import {Flags} from '@oclif/core'

import {resolve} from 'node:path'

import {type ClientSetup, clientSetup, geminiNotes, trustGeminiFolder, writeClientConfig} from '../../clients/client-setup.js'
import {CLAUDE_SCOPES, type ClaudeScope, checkEnvName, checkServerName, CLIENT_IDS, currentPlace, locationVariables} from '../../clients/client-specs.js'
import {ClientConfigError, type WriteOutcome} from '../../clients/config-file-update.js'
import {type Launch, type Remote, resolveLaunch} from '../../clients/launch.js'
import {HostCommand} from '../../host/command.js'
import {spelled} from '../../host/spelling.js'
import {planServerFor} from '../../mcp/lifecycle.js'
import {capBehind} from '../../pack/names.js'
import {toolPrefix} from '../../settings/agent-hosts.js'
import {launchArguments, MAX_TOOL_NAME, serverFlags, TRAVELLING} from '../../settings/server-options.js'

interface ConfigResult {
  clients: ClientSetup[]
  /** The launch line without a host's own flag (a server over HTTP has none). */
  launch?: Launch
  name: string
  written?: WriteOutcome
}

const WRITTEN = {added: 'Added', unchanged: 'Already up to date:', updated: 'Updated'}

/**
 * The server flags an entry passes on, as `mcp config` takes them: without their defaults, so only what is given is
 * written (`--client` is this command's own: each entry names its host itself).
 */
const {client: _ownClient, ...passedServerFlags} = serverFlags
const PASSED_FLAGS = Object.fromEntries(
  Object.entries(passedServerFlags).flatMap(([name, flag]) => (TRAVELLING.includes(name as keyof typeof serverFlags) ? [[name, {...flag, default: undefined}]] : [])),
) as typeof passedServerFlags

/** What Claude Code does with a server of each scope, said after writing one. */
const CLAUDE_SCOPE_NOTES: Record<ClaudeScope, (cwd: string, name: string) => string> = {
  local: (cwd) => `Claude Code connects to it when started in ${cwd}, without asking (local scope, as \`claude mcp add\` writes it).`,
  project: (cwd, name) =>
    `Claude Code asks each person once before it connects to a project's .mcp.json servers: start \`claude\` in ${cwd} and approve "${name}" (until then it is "pending approval"). --scope local connects without asking.`,
  user: () => 'Claude Code connects to it in every directory, without asking (user scope).',
}

export default class McpConfig extends HostCommand {
  static summary = 'Print (or write) what an MCP client needs to launch this CLI as a server.'
  static description = `Prints the entry that makes Claude Code, Claude Desktop, Cursor, VS Code, Codex, Gemini CLI, Windsurf, Zed or Goose start "<%= config.bin %> mcp stdio", with absolute paths resolved on this machine, every server flag given here passed on (--cwd, --read-only, --confirm-destructive, --trust-host-approval, --foreground, --allow-cwd, --profile, --tools, …), and --client naming the host, so the server shapes results and tools for what that host shows its model. Without --client, prints the entry for every client. With --url, the entry reaches a running "mcp serve" over HTTP instead (the URL naming the host, the bearer token from the variable --token-env names).

Hosts filter the environment a server gets (Codex passes only HOME, PATH, SHELL, TERM and a few more; Gemini CLI drops every variable named like a token, key or secret): --env NAME makes the entry pass that variable of the host's own environment on, the way the host does it (Claude Code -e NAME=\${NAME}, VS Code, Cursor and Windsurf \${env:NAME}, Gemini CLI \${NAME}, Codex env_vars, Goose env_keys). The value itself is never written. Claude Desktop and Zed have no such way: for them --env is refused, saying so. The CLI's data, config and cache folders set here (XDG_DATA_HOME…, <%= config.scopedEnvVarKey('DATA_DIR') %>…), where its installed plugins are found, go into the entry of each host that filters the environment.

The command is this CLI's executable on PATH when it resolves into this CLI's package, else the package's bin script; a plain Node script is launched with the absolute path of the Node running now, because hosts like Claude Desktop start servers with a minimal PATH.

--write merges the entry into the client's config file: for Claude Code where \`claude mcp add\` puts it (by default the local scope: this directory's entry in ~/.claude.json, which Claude Code connects to without asking; --scope user or project for the others: a project's .mcp.json waits until each person approves it), VS Code's .vscode/mcp.json in the current directory, Cursor's ~/.cursor/mcp.json, Claude Desktop's claude_desktop_config.json, Codex's ~/.codex/config.toml, Gemini CLI's ~/.gemini/settings.json, Windsurf's ~/.codeium/windsurf/mcp_config.json, Zed's settings.json (context_servers), Goose's config.yaml (extensions). The file is edited in place: only the entry of this name changes, and comments (VS Code, Cursor, Gemini CLI and Zed accept JSONC), formatting and every other value stay byte for byte (Goose's YAML keeps its comments and values, its layout as the yaml library writes it); the previous file is kept as <file>.<time>.bak; a symlink is followed and stays a link; a file that cannot be read with certainty (not JSON or YAML, a key to edit given twice, not a regular file) is left untouched with an error.`
  static enableJsonFlag = true
  static examples = [
    {command: '<%= config.bin %> <%= command.id %> --client claude-code', description: 'The `claude mcp add` line, and the entry it writes'},
    {command: '<%= config.bin %> <%= command.id %> --client cursor --write --cwd ~/projects/app', description: 'Add the server to Cursor, running commands in ~/projects/app'},
    {command: '<%= config.bin %> <%= command.id %> --client codex --read-only --name <%= config.bin %>-ro', description: 'A read-only server for Codex, under another name'},
    {command: "<%= config.bin %> <%= command.id %> --client gemini --write --env <%= config.scopedEnvVarKey('API_KEY') %>", description: 'Add the server to Gemini CLI, passing an API key on from its environment'},
  ]
  static flags = {
    ...PASSED_FLAGS,
    client: Flags.option({description: 'The MCP client to configure (default: print for every client).', options: CLIENT_IDS})(),
    scope: Flags.option({
      description: "Claude Code only: local (default, this directory, in ~/.claude.json, as `claude mcp add` writes it), user (every directory), or project (this directory's .mcp.json, which Claude Code asks each person to approve once).",
      options: CLAUDE_SCOPES,
    })(),
    'config-path': Flags.string({dependsOn: ['client'], description: "Use this file instead of the client's usual config file."}),
    env: Flags.string({description: "A variable of the client's own environment the server must get (e.g. an API key); repeat for several. Its value is never written.", multiple: true}),
    name: Flags.string({description: "The server's name in the client (default: the CLI's bin)."}),
    write: Flags.boolean({dependsOn: ['client'], description: "Merge the entry into the client's config file (a backup is kept)."}),
    trust: Flags.boolean({
      dependsOn: ['write'],
      description: 'Gemini CLI only: also record the current folder as trusted where Gemini CLI keeps its trusted folders (it starts no MCP server in a folder it does not trust).',
    }),
    url: Flags.string({
      description: 'Reach a running "mcp serve" at this URL (http://host:port/mcp) instead of starting "mcp stdio": each entry names its host in the URL (?client=…).',
    }),
    'token-env': Flags.string({
      dependsOn: ['url'],
      description: "With --url: the variable of the client's own environment that holds the server's bearer token, sent as Authorization: Bearer; its value is never written.",
    }),
  }

  async run(): Promise<ConfigResult> {
    const {flags} = await this.parse(McpConfig)
    const name = flags.name ?? this.config.bin
    const badName = checkServerName(name)
    if (badName) this.error(badName, {exit: 2})
    // The same checks `mcp stdio` makes at start-up, so a client is never given a server that refuses to start.
    planServerFor(this, flags)

    const env = [...new Set(flags.env ?? [])]
    for (const variable of env) {
      const bad = checkEnvName(variable)
      if (bad) this.error(bad, {exit: 2})
    }

    // Every server flag given here goes on the launch line, paths made absolute; then the host the entry is for, so
    // the server knows whom it serves when the host does not say (settings/agent-hosts.ts).
    const absolute = {cwd: flags.cwd && resolve(flags.cwd), 'allow-cwd': flags['allow-cwd']?.map((dir) => resolve(dir))}
    const passed = launchArguments({...flags, ...absolute}, PASSED_FLAGS)
    const remote = flags.url === undefined ? undefined : this.remoteOf(flags.url, flags['token-env'], passed, env)
    const launch = remote ? undefined : resolveLaunch(this.config, passed)
    const place = currentPlace(flags.scope)
    // A CLI whose data folder is moved (XDG_DATA_HOME, <BIN>_DATA_DIR…) finds its installed plugins, this one too, only
    // with those variables: hosts that start servers with a filtered environment get them in the entry.
    const locations = locationVariables((n) => this.config.scopedEnvVarKey(n), place.env)
    const clients = (flags.client ? [flags.client] : CLIENT_IDS).map((id) => {
      // A long server name leaves less of the 64 characters a tool's name may have, the host's prefix included.
      const cap = capBehind(toolPrefix(id, name))
      if (cap === undefined) this.error(`--name "${name}" is too long: ${toolPrefix(id, name)} leaves too little of 64 characters for the tools' names. Give a shorter --name.`, {exit: 2})
      const capArgs = cap < MAX_TOOL_NAME && flags['max-tool-name'] === undefined ? ['--max-tool-name', String(cap)] : []
      const target = remote ? remote(id) : resolveLaunch(this.config, [...passed, '--client', id, ...capArgs])
      const setup = clientSetup(id, name, target, place, {env, locations})
      return flags['config-path'] ? {...setup, path: resolve(flags['config-path'])} : setup
    })
    // A client asked for by name that cannot pass the variables on would start a server that silently lacks them;
    // one that cannot reach a server over HTTP gets no entry at all.
    if (flags.client && (clients[0].unreachable ?? clients[0].unpassable)) this.error((clients[0].unreachable ?? clients[0].unpassable)!, {exit: 2})
    if (flags.trust && flags.client !== 'gemini') this.error('--trust records a folder Gemini CLI trusts: it goes with --client gemini.', {exit: 2})
    if (!flags.write) {
      for (const [i, setup] of clients.entries()) this.show(setup, i > 0)
      return {clients, launch, name}
    }

    const [setup] = clients
    let written: WriteOutcome
    try {
      written = await writeClientConfig(setup.client, name, setup.target, setup.path, place, {env, locations})
    } catch (error) {
      if (!(error instanceof ClientConfigError)) throw error
      this.error(`Cannot update ${setup.path}: ${error.message}. The file was not changed.`, {
        code: error.code,
        exit: 1,
        suggestions: [`Run "${spelled(this.config, 'config', '--client', setup.client)}" (without --write) and add the entry by hand.`],
      })
    }

    const backup = written.backup ? ` (previous version kept as ${written.backup})` : ''
    this.log(`${WRITTEN[written.status]} "${name}" in ${setup.label}'s ${written.path}${backup}`)
    if (setup.client === 'claude-code') this.log(CLAUDE_SCOPE_NOTES[flags.scope ?? 'local'](place.cwd, name))
    if (setup.client === 'gemini') {
      if (flags.trust) {
        const trusted = await trustGeminiFolder(place).catch((error: Error) => this.error(`Cannot record ${place.cwd} as trusted: ${error.message}. Nothing else changed.`, {exit: 1}))
        if (trusted.status !== 'unchanged') this.log(`Recorded ${place.cwd} as a folder Gemini CLI trusts, in ${trusted.path}${trusted.backup ? ` (previous version kept as ${trusted.backup})` : ''}`)
      }

      for (const note of geminiNotes(place, this.config.bin)) this.log(note)
    }

    return {clients, launch, name, written}
  }

  /**
   * The URL each client reaches the server at (`?client=<id>`, so a server that cannot tell from the request knows
   * the host), with the variable holding the token; a bad URL, or server flags that belong to `mcp serve`, exit 2.
   */
  private remoteOf(url: string, tokenVariable: string | undefined, passed: readonly string[], env: readonly string[]): (id: string) => Remote {
    let parsed: URL
    try {
      parsed = new URL(url)
    } catch {
      this.error(`--url "${url}" is not a URL: give the address "mcp serve" printed (http://127.0.0.1:5757/mcp).`, {exit: 2})
    }

    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') this.error(`--url must be an http:// or https:// URL, not ${parsed.protocol}`, {exit: 2})
    if (parsed.username || parsed.password) this.error('--url must not carry a user name or password: give the token with --token-env.', {exit: 2})
    if (passed.length > 0) this.error(`${passed.filter((arg) => arg.startsWith('--')).join(', ')} belong to the server: give them to "mcp serve", which a client of --url only reaches.`, {exit: 2})
    if (env.length > 0) this.error('--env passes variables to a server the client starts; a server at --url runs with its own environment.', {exit: 2})
    const bad = tokenVariable === undefined ? undefined : checkEnvName(tokenVariable)
    if (bad) this.error(bad, {exit: 2})
    return (id) => {
      const own = new URL(parsed)
      own.searchParams.set('client', id)
      return {url: own.href, ...(tokenVariable ? {tokenVariable} : {})}
    }
  }

  /** The text to paste on stdout; what it is and where it goes on stderr, so stdout can be piped as it is. */
  private show(setup: ClientSetup, separate: boolean): void {
    if (this.jsonEnabled()) return
    if (separate) this.log('')
    if (setup.unreachable) {
      this.logToStderr(`# ${setup.unreachable}`)
      return
    }

    if (setup.unpassable) this.logToStderr(`# ${setup.unpassable} The entry below goes without them.`)
    if (setup.addCommand) {
      this.logToStderr(`# ${setup.label}: register it with the claude CLI`)
      this.log(setup.addCommand)
      this.logToStderr(`# or put this into ${setup.path} (what --write does):`)
    } else {
      this.logToStderr(`# ${setup.label}: add this to ${setup.path} (or run again with --client ${setup.client} --write):`)
    }

    this.log(setup.snippet)
    if (setup.client === 'gemini') for (const note of geminiNotes(currentPlace(), this.config.bin)) this.logToStderr(`# ${note}`)
  }
}
