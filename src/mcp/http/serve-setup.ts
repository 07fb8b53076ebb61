import type {Config} from '@oclif/core'

import type {Settings} from '../../settings/settings.js'
import type {HttpServing} from './http-server.js'

import {ConfigError, parseAuthorConfig} from '../../settings/author-config.js'
import {optionValue} from '../../settings/server-options.js'
import {resolveStateUrl, shownUrl, type StateQuota} from '../../settings/state-url.js'
import {PROTOCOL_REVISIONS} from '../plan.js'
import {checkBind} from './guards.js'
import {type OAuthGate, OAuthSetupError, openOAuthGate, resolveOAuth} from './oauth.js'
import {readToken, restartWithoutSecrets, TokenError} from './token-file.js'

// What `mcp serve` settles before it serves: its secrets taken out of its own environment, the bearer token or the
// OAuth gate, whether it may listen where it was asked, the shared state store and its quotas; then the lines it says
// once it listens. The command (commands/mcp/serve.ts) only parses, calls these and waits for a stop signal.

const MIB = 1024 * 1024

/** A set-up `mcp serve` cannot start with: the message says why, `exit` is the status it ends with. */
export class ServeSetupError extends Error {
  constructor(
    message: string,
    readonly exit: 1 | 2,
  ) {
    super(message)
  }
}

/** The flags of `mcp serve` the set-up reads. */
export interface ServeSetupFlags {
  'allow-remote'?: boolean
  'auth-audience'?: string
  'auth-issuer'?: string
  'auth-read-scope'?: string
  'auth-write-scope'?: string
  host: string
  state?: string
  'state-quota'?: number
  'state-quota-per-person'?: number
  token?: string
  'token-file'?: string
}

export interface ServeSetup {
  /** Where to listen (`[::1]` as URLs write it is `::1`). */
  host: string
  oauth?: OAuthGate
  /** The shared state store's URL, when there is one, and what it may hold. */
  state?: string
  stateQuota: StateQuota
  token?: string
}

/** The OAuth settings from the flags over oclif.mcp.auth; undefined without OAuth. */
function oauthOptions(config: Config, flags: ServeSetupFlags) {
  try {
    const author = parseAuthorConfig((config.pjson.oclif as {mcp?: unknown}).mcp)
    return resolveOAuth(author.auth, {audience: flags['auth-audience'], issuer: flags['auth-issuer'], readScope: flags['auth-read-scope'], writeScope: flags['auth-write-scope']})
  } catch (error) {
    if (error instanceof OAuthSetupError || error instanceof ConfigError) throw new ServeSetupError(error.message, 2)
    throw error
  }
}

/** Everything `mcp serve` settles before it serves; throws ServeSetupError saying what is wrong. */
export async function setUpServe(config: Config, flags: ServeSetupFlags): Promise<ServeSetup> {
  const host = flags.host.replace(/^\[(.*)\]$/, '$1')
  const variable = config.scopedEnvVarKey('MCP_TOKEN')
  const stateVariable = config.scopedEnvVarKey('MCP_STATE')
  // Started again (Node 22.15+) so that neither secret stays in this process's /proc/PID/environ.
  const restarted = restartWithoutSecrets([variable, stateVariable], config.scopedEnvVarKey('MCP_HANDOVER'))
  if (restarted.kept) {
    process.stderr.write(`Warning: ${[variable, stateVariable].filter((name) => process.env[name]).join(' and ')} stay in this process's original environment, which /proc/${process.pid}/environ shows to this user's processes (the commands this server runs included) while it runs: Node ${process.version} cannot start a process again in place (22.15 and later can). Prefer --token-file for the token.\n`)
  }

  if (flags.token !== undefined) {
    throw new ServeSetupError(`--token is not accepted: every user of this machine can read a process's command line. Put the token in a file only you can read and pass --token-file, or set ${variable}.`, 2)
  }

  const given = {...process.env, ...restarted.taken}
  // Gone from this process's environment either way, so no command started later inherits it.
  delete process.env[variable]
  const token = await readToken(flags['token-file'], variable, given).catch((error: unknown) => {
    throw error instanceof TokenError ? new ServeSetupError(error.message, 2) : error
  })
  const oauth = oauthOptions(config, flags)
  if (oauth && token) throw new ServeSetupError(`A bearer token (--token-file or ${variable}) and OAuth (--auth-issuer) cannot be used together: choose one.`, 2)
  const bind = checkBind(host, flags['allow-remote'] ?? false, oauth ? true : token)
  if (!bind.ok) throw new ServeSetupError(bind.message, 1)
  const gate = oauth ? await openOAuthGate(oauth, config.bin).catch((error: Error) => Promise.reject(new ServeSetupError(error.message, 1))) : undefined

  const state = resolveStateUrl(flags.state, restarted.taken[stateVariable] ?? process.env[stateVariable], stateVariable)
  delete process.env[stateVariable]
  if ('error' in state) throw new ServeSetupError(state.error, 2)
  const stateQuota = {
    perPersonBytes: Math.min(optionValue<number>('state-quota-per-person', flags), flags['state-quota'] ?? Infinity) * MIB,
    totalBytes: optionValue<number>('state-quota', flags) * MIB,
  }
  return {host, oauth: gate, state: state.url, stateQuota, token: token || undefined}
}

/** What `mcp serve` says on stderr once it listens. */
export function listeningBanner(bin: string, serving: HttpServing, setup: ServeSetup, settings: Pick<Settings, 'confirmDestructive' | 'trustHostApproval'>): string {
  const {oauth, state, stateQuota, token} = setup
  return [
    `${bin} MCP server listening on ${serving.url}`,
    `Health check: ${serving.healthUrl}`,
    `Protocol revisions: ${PROTOCOL_REVISIONS.join(', ')}`,
    ...(token ? ['Clients must send the bearer token.'] : []),
    ...(oauth
      ? [
          `Clients must send an access token of ${oauth.options.issuer} for ${oauth.options.audience.href}: scope ${oauth.options.scopes.write} reaches every command served, ${oauth.options.scopes.read} the read-only ones.`,
          `Protected resource metadata: ${oauth.metadataUrl}`,
        ]
      : []),
    ...(state ? [`State shared through ${shownUrl(state)}: idempotency records, jobs and kept outputs, at most ${stateQuota.totalBytes / MIB} MiB in all and ${stateQuota.perPersonBytes / MIB} MiB per person (give Redis room for that and its own overhead).`] : []),
    ...(settings.confirmDestructive && !settings.trustHostApproval
      ? [
          "Warning: --confirm-destructive over HTTP can ask only 2026-07-28 clients that declare elicitation. 2025-era clients (most hosts today) can never be asked here, so their destructive calls are refused; --trust-host-approval lets those hosts' own approval decide instead.",
        ]
      : []),
    'Press Ctrl-C to stop.',
    '',
  ].join('\n')
}
