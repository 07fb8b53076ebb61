import {HostCommand} from '../../host/command.js'
import {stopSignals} from '../../host/signals.js'
import {claimStdout} from '../../host/stdout-guard.cjs'
import {createServerFactory} from '../../mcp/factory.js'
import {prepareServerFor} from '../../mcp/lifecycle.js'
import {serveOnStdio} from '../../mcp/stdio/stdio-server.js'
import {serverFlags} from '../../settings/server-options.js'

export default class McpStdio extends HostCommand {
  static summary = "Serve this CLI's commands as MCP tools on stdin/stdout."
  static description = `Starts a Model Context Protocol server that speaks JSON-RPC on stdin and stdout, the way Claude Code, Cursor and VS Code launch local servers. Every visible command becomes a tool; each call runs the command in a fresh child process.

stdout carries protocol messages only: anything else printed by hooks or plugins goes to stderr. The server exits when its input ends and every request read has been answered.`
  static examples = [
    {command: 'claude mcp add <%= config.bin %> -- <%= config.bin %> <%= command.id %>', description: 'Add this CLI to Claude Code'},
    {command: '<%= config.bin %> <%= command.id %> --cwd ~/projects/app', description: 'Run commands in ~/projects/app unless a call says otherwise'},
    // Short enough that help never wraps it inside its quotes, so it can be copied and run as printed.
    {command: `echo '{"jsonrpc":"2.0","id":1,"method":"tools/list"}' | <%= config.bin %> <%= command.id %>`, description: 'Talk to it from a script'},
  ]
  static flags = serverFlags

  async run(): Promise<void> {
    const protocolOut = claimStdout()
    const {flags} = await this.parse(McpStdio)
    const prepared = prepareServerFor(this, flags)

    const serving = serveOnStdio(createServerFactory(prepared.plan, prepared.env, {warnUnaskable: true}), protocolOut)
    prepared.startWorkers()
    const shutdown = async () => {
      prepared.stopCommands()
      await serving.close()
    }

    for (const signal of stopSignals()) process.once(signal, shutdown)
    await serving.closed
    await prepared.dispose()
  }
}
