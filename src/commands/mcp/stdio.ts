import {Command, Flags} from '@oclif/core'
import {resolve} from 'node:path'

import {ConfigError, parseAuthorConfig, resolveSettings} from '../../config.js'
import {buildServerPlan} from '../../mcp/plan.js'
import {createServerFactory} from '../../mcp/server.js'
import {serveOnStdio} from '../../mcp/stdio.js'
import {claimStdout} from '../../mcp/stdout-guard.cjs'
import {killRunningCommands} from '../../tools/runner.js'

export default class McpStdio extends Command {
  static summary = "Serve this CLI's commands as MCP tools on stdin/stdout."
  static description = `Starts a Model Context Protocol server that speaks JSON-RPC on stdin and stdout, the way Claude Code, Cursor and VS Code launch local servers. Every visible command becomes a tool; each call runs the command in a fresh child process.

stdout carries protocol messages only: anything else printed by hooks or plugins goes to stderr. The server exits when its input ends and every request read has been answered.`
  static examples = [
    {command: 'claude mcp add <%= config.bin %> -- <%= config.bin %> <%= command.id %>', description: 'Add this CLI to Claude Code'},
    {command: '<%= config.bin %> <%= command.id %> --cwd ~/projects/app', description: 'Run commands in ~/projects/app unless a call says otherwise'},
    {
      command: `printf '%s\\n' '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"sh","version":"1"}}}' | <%= config.bin %> <%= command.id %>`,
      description: 'Talk to it from a script',
    },
  ]
  static flags = {
    cwd: Flags.directory({description: 'Directory commands run in when a call gives no cwd (default: an empty private directory).', exists: true}),
    'max-output': Flags.integer({description: 'Bytes of stdout and of stderr kept per call (default 1 MiB).', min: 1024}),
    timeout: Flags.integer({description: 'Seconds a command may run before it and its children are killed (default 60).', min: 1}),
  }

  async run(): Promise<void> {
    const protocolOut = claimStdout()
    const {flags} = await this.parse(McpStdio)
    const settings = (() => {
      try {
        return resolveSettings(parseAuthorConfig((this.config.pjson.oclif as {mcp?: unknown}).mcp), {...flags, cwd: flags.cwd && resolve(flags.cwd)})
      } catch (error) {
        if (error instanceof ConfigError) this.error(error.message, {exit: 2})
        throw error
      }
    })()
    const {plan, workdir} = buildServerPlan(this.config, settings)
    const serving = serveOnStdio(createServerFactory(plan), protocolOut)
    const shutdown = async () => {
      killRunningCommands()
      await serving.close()
    }

    process.once('SIGINT', shutdown)
    process.once('SIGTERM', shutdown)
    await serving.closed
    killRunningCommands()
    await workdir.dispose()
  }
}
