import type {Launch} from './launch.js'

import {claudeAddCommand, type ClientId, CLIENTS, configSnippet, type Place} from './client-specs.js'
import {updateConfigFile, type WriteOutcome} from './config-file-update.js'
import {mergeJsonServer} from './jsonc-edit.js'
import {upsertTomlServer} from './toml-edit.js'

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
  /** The text to paste into that file: JSON with its enclosing object, or the TOML table. */
  snippet: string
}

export function clientSetup(id: ClientId, name: string, launch: Launch, place: Place): ClientSetup {
  const client = CLIENTS[id]
  return {
    ...(id === 'claude-code' ? {addCommand: claudeAddCommand(name, launch, place.platform, place.scope)} : {}),
    client: id,
    entry: client.entry(launch),
    label: client.label,
    path: client.configPath(place),
    snippet: configSnippet(client, name, launch, place),
  }
}

/**
 * Merges the server into the client's config file at `path`: only the entry named `name` is added or updated, a
 * backup of the previous file is kept, and a file that cannot be read with certainty is refused untouched.
 */
export function writeClientConfig(id: ClientId, name: string, launch: Launch, path: string, place: Place): Promise<WriteOutcome> {
  const client = CLIENTS[id]
  return updateConfigFile(path, (text) =>
    client.format === 'toml' ? upsertTomlServer(text, name, launch) : mergeJsonServer(text, client.serversPath(place), name, client.entry(launch)),
  )
}
