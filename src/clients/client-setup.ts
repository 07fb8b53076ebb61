import type {Launch} from './launch.js'

import {claudeAddCommand, clientEntry, type ClientId, CLIENTS, configSnippet, type Place} from './client-specs.js'
import {updateConfigFile, type WriteOutcome} from './config-file-update.js'
import {mergeJsonServer} from './jsonc-edit.js'
import {upsertTomlServer} from './toml-edit.js'
import {mergeYamlServer} from './yaml-edit.js'

// `mcp config` for one client: which file (client-specs.ts), which edit (jsonc-edit.ts or toml-edit.ts), then the
// safe write (config-file-update.ts), or the snippet and command to paste when nothing is written.

/** What one client needs to launch this CLI's stdio server. */
export interface ClientSetup {
  /** For Claude Code: the `claude mcp add` line. */
  addCommand?: string
  client: ClientId
  /** The entry as the client's file holds it (for Codex, the keys of its TOML table). */
  entry: Record<string, unknown>
  label: string
  /** The client's config file on this machine, for this directory. */
  path: string
  /** The text to paste into that file: JSON or YAML with its enclosing object, or the TOML table. */
  snippet: string
  /** Why the client cannot pass on the variables asked for (`--env`): the entry goes without them. */
  unpassable?: string
}

/** The entry of one client for this launch, passing on the variables named in `env` where the client can. */
export function clientSetup(id: ClientId, name: string, launch: Launch, place: Place, env: readonly string[] = []): ClientSetup {
  const client = CLIENTS[id]
  const passing = client.env
  return {
    ...(id === 'claude-code' ? {addCommand: claudeAddCommand(name, launch, place.platform, place.scope, env)} : {}),
    client: id,
    entry: clientEntry(client, launch, {env, name}),
    label: client.label,
    path: client.configPath(place),
    snippet: configSnippet(client, name, launch, place, env),
    ...(env.length > 0 && 'cannot' in passing ? {unpassable: `${client.label} cannot pass ${env.join(', ')} on: ${passing.cannot}.`} : {}),
  }
}

/**
 * Merges the server into the client's config file at `path`: only the entry named `name` is added or updated, a
 * backup of the previous file is kept, and a file that cannot be read with certainty is refused untouched.
 */
export function writeClientConfig(id: ClientId, name: string, launch: Launch, path: string, place: Place, env: readonly string[] = []): Promise<WriteOutcome> {
  const client = CLIENTS[id]
  return updateConfigFile(path, (text) => {
    if (client.format === 'toml') return upsertTomlServer(text, name, launch, env)
    const merge = client.format === 'yaml' ? mergeYamlServer : mergeJsonServer
    return merge(text, client.serversPath(place), name, clientEntry(client, launch, {env, name}))
  })
}
