import {Flags} from '@oclif/core'

import {HostCommand} from '../../host/command.js'
import {stopSignals} from '../../host/signals.js'
import {serveOnHttp} from '../../mcp/http/http-server.js'
import {listeningBanner, type ServeSetup, ServeSetupError, setUpServe} from '../../mcp/http/serve-setup.js'
import {prepareServerFor} from '../../mcp/lifecycle.js'
import {httpFlags, serverFlags} from '../../settings/server-options.js'

export default class McpServe extends HostCommand {
  static summary = "Serve this CLI's commands as MCP tools over Streamable HTTP."
  static description = `Starts a stateless Model Context Protocol server on one endpoint, POST /mcp, serving 2025-11-25 clients (initialize handshake) and 2026-07-28 clients (server/discover, per-request headers) alike. Every visible command becomes a tool; each call runs the command in a fresh child process.

It listens on 127.0.0.1 only, unless --allow-remote is given together with authentication. Either a bearer token: from a file only you can read (--token-file), or from the <%= config.scopedEnvVarKey('MCP_TOKEN') %> environment variable, never from the command line (every local user can read a process's arguments); the token is not passed on to the commands the server runs. Or OAuth (--auth-issuer, --auth-audience, or oclif.mcp.auth): every request carries a JWT access token from that issuer for this server's URL, checked against the issuer's published keys, and its scopes decide what it reaches: the write scope everything the server exposes, the read scope its read-only commands only. Host and Origin headers are checked on every request against DNS rebinding.`
  static examples = [
    {command: '<%= config.bin %> <%= command.id %>', description: 'Listen on http://127.0.0.1:5757/mcp'},
    {command: '<%= config.bin %> <%= command.id %> --port 0 --cwd ~/projects/app', description: 'Take any free port; run commands in ~/projects/app by default'},
    {
      command: '(umask 077; openssl rand -hex 32 > ~/.<%= config.bin %>-mcp-token) && <%= config.bin %> <%= command.id %> --host 0.0.0.0 --allow-remote --token-file ~/.<%= config.bin %>-mcp-token --allowed-host build-box.local',
      description: 'Accept other machines, with a token kept in a private file',
    },
  ]
  static flags = {
    ...serverFlags,
    ...httpFlags,
    // Refused with an explanation: a token on the command line is readable by every local user.
    token: Flags.string({description: 'Not accepted: use --token-file or the <BIN>_MCP_TOKEN environment variable.', hidden: true}),
  }

  async run(): Promise<{url: string}> {
    const {flags} = await this.parse(McpServe)
    let setup: ServeSetup
    try {
      setup = await setUpServe(this.config, flags)
    } catch (error) {
      if (error instanceof ServeSetupError) this.error(error.message, {exit: error.exit})
      throw error
    }

    const prepared = prepareServerFor(this, flags, {remote: flags['allow-remote'], state: setup.state, stateQuota: setup.stateQuota})
    await prepared.open().catch(async (error: Error) => {
      await prepared.dispose()
      this.error(error.message, {exit: 1})
    })

    const serving = await serveOnHttp(prepared.plan, prepared.env, {
      allowedHosts: flags['allowed-host'] ?? [],
      allowedOrigins: flags['allowed-origin'] ?? [],
      host: setup.host,
      maxConnections: flags['max-connections'],
      oauth: setup.oauth,
      port: flags.port,
      token: setup.token,
    }).catch((error: NodeJS.ErrnoException) => this.error(`Cannot listen on ${flags.host} port ${flags.port}: ${error.message}`, {exit: 1}))

    prepared.startWorkers()
    process.stderr.write(listeningBanner(this.config.bin, serving, setup, prepared.settings))
    await new Promise<void>((resolve) => {
      const stop = async () => {
        process.stderr.write('Stopping: letting calls in flight finish…\n')
        await serving.close(flags.grace * 1000)
        await prepared.dispose()
        resolve()
      }

      for (const signal of stopSignals()) process.once(signal, stop)
    })
    return {url: serving.url}
  }
}
