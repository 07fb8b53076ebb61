import {Flags} from '@oclif/core'

import {HostCommand} from '../../host/command.js'
import {stopSignals} from '../../host/signals.js'
import {checkBind} from '../../mcp/http/guards.js'
import {type OAuthGate, OAuthSetupError, openOAuthGate, resolveOAuth} from '../../mcp/http/oauth.js'
import {serveOnHttp} from '../../mcp/http/http-server.js'
import {readToken, restartWithoutSecrets, TokenError} from '../../mcp/http/token-file.js'
import {prepareServerFor} from '../../mcp/lifecycle.js'
import {ConfigError, parseAuthorConfig} from '../../settings/author-config.js'
import {PROTOCOL_REVISIONS} from '../../mcp/plan.js'
import {httpFlags, optionValue, serverFlags} from '../../settings/server-options.js'
import {resolveStateUrl, shownUrl} from '../../settings/state-url.js'

const MIB = 1024 * 1024

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
    // `[::1]` as URLs write it is `::1` to listen on.
    const host = flags.host.replace(/^\[(.*)\]$/, '$1')
    const variable = this.config.scopedEnvVarKey('MCP_TOKEN')
    const stateVariable = this.config.scopedEnvVarKey('MCP_STATE')
    // Started again (Node 22.15+) so that neither secret stays in this process's /proc/PID/environ.
    const restarted = restartWithoutSecrets([variable, stateVariable], this.config.scopedEnvVarKey('MCP_HANDOVER'))
    if (restarted.kept) {
      process.stderr.write(`Warning: ${[variable, stateVariable].filter((name) => process.env[name]).join(' and ')} stay in this process's original environment, which /proc/${process.pid}/environ shows to this user's processes (the commands this server runs included) while it runs: Node ${process.version} cannot start a process again in place (22.15 and later can). Prefer --token-file for the token.\n`)
    }

    if (flags.token !== undefined) {
      this.error(`--token is not accepted: every user of this machine can read a process's command line. Put the token in a file only you can read and pass --token-file, or set ${variable}.`, {exit: 2})
    }

    const given = {...process.env, ...restarted.taken}
    // Gone from this process's environment either way, so no command started later inherits it.
    delete process.env[variable]
    const token = await readToken(flags['token-file'], variable, given).catch((error: unknown) => {
      if (error instanceof TokenError) this.error(error.message, {exit: 2})
      throw error
    })
    const oauthOptions = this.oauthOptions(flags)
    if (oauthOptions && token) this.error(`A bearer token (--token-file or ${variable}) and OAuth (--auth-issuer) cannot be used together: choose one.`, {exit: 2})
    const bind = checkBind(host, flags['allow-remote'], oauthOptions ? true : token)
    if (!bind.ok) this.error(bind.message, {exit: 1})
    let oauth: OAuthGate | undefined
    if (oauthOptions) {
      oauth = await openOAuthGate(oauthOptions, this.config.bin).catch((error: Error) => this.error(error.message, {exit: 1}))
    }

    const state = resolveStateUrl(flags.state, restarted.taken[stateVariable] ?? process.env[stateVariable], stateVariable)
    delete process.env[stateVariable]
    if ('error' in state) this.error(state.error, {exit: 2})
    const stateQuota = {
      perPersonBytes: Math.min(optionValue<number>('state-quota-per-person', flags), flags['state-quota'] ?? Infinity) * MIB,
      totalBytes: optionValue<number>('state-quota', flags) * MIB,
    }
    const prepared = prepareServerFor(this, flags, {remote: flags['allow-remote'], state: state.url, stateQuota})
    await prepared.open().catch(async (error: Error) => {
      await prepared.dispose()
      this.error(error.message, {exit: 1})
    })

    const serving = await serveOnHttp(prepared.plan, prepared.env, {
      allowedHosts: flags['allowed-host'] ?? [],
      allowedOrigins: flags['allowed-origin'] ?? [],
      host,
      maxConnections: flags['max-connections'],
      oauth,
      port: flags.port,
      token: token || undefined,
    }).catch((error: NodeJS.ErrnoException) => this.error(`Cannot listen on ${flags.host} port ${flags.port}: ${error.message}`, {exit: 1}))

    prepared.startWorkers()
    const {confirmDestructive, trustHostApproval} = prepared.settings
    process.stderr.write(
      [
        `${this.config.bin} MCP server listening on ${serving.url}`,
        `Health check: ${serving.healthUrl}`,
        `Protocol revisions: ${PROTOCOL_REVISIONS.join(', ')}`,
        ...(token ? ['Clients must send the bearer token.'] : []),
        ...(oauth
          ? [
              `Clients must send an access token of ${oauth.options.issuer} for ${oauth.options.audience.href}: scope ${oauth.options.scopes.write} reaches every command served, ${oauth.options.scopes.read} the read-only ones.`,
              `Protected resource metadata: ${oauth.metadataUrl}`,
            ]
          : []),
        ...(state.url ? [`State shared through ${shownUrl(state.url)}: idempotency records, jobs and kept outputs, at most ${stateQuota.totalBytes / MIB} MiB in all and ${stateQuota.perPersonBytes / MIB} MiB per person (give Redis room for that and its own overhead).`] : []),
        ...(confirmDestructive && !trustHostApproval
          ? [
              'Warning: --confirm-destructive over HTTP can ask only 2026-07-28 clients that declare elicitation. 2025-era clients (most hosts today) can never be asked here, so their destructive calls are refused; --trust-host-approval lets those hosts\' own approval decide instead.',
            ]
          : []),
        'Press Ctrl-C to stop.',
        '',
      ].join('\n'),
    )

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

  /** The OAuth settings from the flags over oclif.mcp.auth; exits 2 saying what is wrong. */
  private oauthOptions(flags: {'auth-audience'?: string; 'auth-issuer'?: string; 'auth-read-scope'?: string; 'auth-write-scope'?: string}) {
    try {
      const author = parseAuthorConfig((this.config.pjson.oclif as {mcp?: unknown}).mcp)
      return resolveOAuth(author.auth, {audience: flags['auth-audience'], issuer: flags['auth-issuer'], readScope: flags['auth-read-scope'], writeScope: flags['auth-write-scope']})
    } catch (error) {
      if (error instanceof OAuthSetupError || error instanceof ConfigError) this.error(error.message, {exit: 2})
      throw error
    }
  }
}
