import {Flags} from '@oclif/core'
import {resolve} from 'node:path'

import {type ClientSetup, clientSetup, writeClientConfig} from '../../clients/client-config.js'
import {checkServerName, CLIENT_IDS, currentPlace} from '../../clients/clients.js'
import {ClientConfigError, type WriteOutcome} from '../../clients/config-file.js'
import {type Launch, resolveLaunch} from '../../clients/launch.js'
import {projectionFlags, serverFlags} from '../../flags.js'
import {HostCommand, spelled} from '../../host-command.js'
import {prepareServerFor} from '../../mcp/plan.js'

interface ConfigResult {
  clients: ClientSetup[]
  launch: Launch
  name: string
  written?: WriteOutcome
}

const WRITTEN = {added: 'Added', unchanged: 'Already up to date:', updated: 'Updated'}

export default class McpConfig extends HostCommand {
  static summary = 'Print (or write) what an MCP client needs to launch this CLI as a server.'
  static description = `Prints the entry that makes Claude Code, Claude Desktop, Cursor, VS Code or Codex start "<%= config.bin %> mcp stdio", with absolute paths resolved on this machine and the flags given here (--cwd, --profile, --read-only, --tools, --exclude, --max-tools, --max-bytes) passed on. Without --client, prints the entry for every client.

The command is this CLI's executable on PATH when it resolves into this CLI's package, else the package's bin script; a plain Node script is launched with the absolute path of the Node running now, because hosts like Claude Desktop start servers with a minimal PATH.

--write merges the entry into the client's config file: Claude Code's .mcp.json and VS Code's .vscode/mcp.json in the current directory, Cursor's ~/.cursor/mcp.json, Claude Desktop's claude_desktop_config.json, Codex's ~/.codex/config.toml. The file is edited in place: only the entry of this name changes, and comments (VS Code and Cursor accept JSONC), formatting and every other value stay byte for byte; the previous file is kept as <file>.<time>.bak; a symlink is followed and stays a link; a file that cannot be read with certainty (not JSON, a key to edit given twice, not a regular file) is left untouched with an error.`
  static enableJsonFlag = true
  static examples = [
    {command: '<%= config.bin %> <%= command.id %> --client claude-code', description: 'The `claude mcp add` line and the .mcp.json entry'},
    {command: '<%= config.bin %> <%= command.id %> --client cursor --write --cwd ~/projects/app', description: 'Add the server to Cursor, running commands in ~/projects/app'},
    {command: '<%= config.bin %> <%= command.id %> --client codex --read-only --name <%= config.bin %>-ro', description: 'A read-only server for Codex, under another name'},
  ]
  static flags = {
    ...projectionFlags,
    client: Flags.option({description: 'The MCP client to configure (default: print for every client).', options: CLIENT_IDS})(),
    'config-path': Flags.string({dependsOn: ['client'], description: "Use this file instead of the client's usual config file."}),
    cwd: serverFlags.cwd,
    name: Flags.string({description: "The server's name in the client (default: the CLI's bin)."}),
    write: Flags.boolean({dependsOn: ['client'], description: "Merge the entry into the client's config file (a backup is kept)."}),
  }

  async run(): Promise<ConfigResult> {
    const {flags} = await this.parse(McpConfig)
    const name = flags.name ?? this.config.bin
    const badName = checkServerName(name)
    if (badName) this.error(badName, {exit: 2})
    // The same checks `mcp stdio` makes at start-up, so a client is never given a server that refuses to start.
    await prepareServerFor(this, flags).dispose()

    const launch = resolveLaunch(this.config, {...flags, maxBytes: flags['max-bytes'], maxTools: flags['max-tools'], readOnly: flags['read-only']})
    const place = currentPlace()
    const clients = (flags.client ? [flags.client] : CLIENT_IDS).map((id) => {
      const setup = clientSetup(id, name, launch, place)
      return flags['config-path'] ? {...setup, path: resolve(flags['config-path'])} : setup
    })
    if (!flags.write) {
      for (const [i, setup] of clients.entries()) this.show(setup, i > 0)
      return {clients, launch, name}
    }

    const [setup] = clients
    let written: WriteOutcome
    try {
      written = await writeClientConfig(setup.client, name, launch, setup.path)
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
    return {clients, launch, name, written}
  }

  /** The text to paste on stdout; what it is and where it goes on stderr, so stdout can be piped as it is. */
  private show(setup: ClientSetup, separate: boolean): void {
    if (this.jsonEnabled()) return
    if (separate) this.log('')
    if (setup.addCommand) {
      this.logToStderr(`# ${setup.label}: register it with the claude CLI`)
      this.log(setup.addCommand)
      this.logToStderr(`# or share it with the project in ${setup.path}:`)
    } else {
      this.logToStderr(`# ${setup.label}: add this to ${setup.path} (or run again with --client ${setup.client} --write):`)
    }

    this.log(setup.snippet)
  }
}
