import {isRemote, type Target} from './launch.js'
import type {TomlEntry} from './toml-edit.js'

import {parse} from 'jsonc-parser'
import {readFileSync} from 'node:fs'
import {dirname} from 'node:path'

import {isWithin} from '../host/paths.js'

import {claudeAddCommand, clientEntry, type ClientId, CLIENTS, configSnippet, type EntryOptions, geminiTrustPath, type Place, unreachable} from './client-specs.js'

/** The variables an entry passes on (`--env`) and the CLI's location variables set here. */
export type SetupOptions = Omit<EntryOptions, 'name'>
import {updateConfigFile, type WriteOutcome} from './config-file-update.js'
import {mergeJsonServer, setJsonValue} from './jsonc-edit.js'
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
  /** How this client starts or reaches the server (naming the client: `--client` on the line, `?client=` in the URL). */
  target: Target
  /** The client's config file on this machine, for this directory. */
  path: string
  /** The text to paste into that file: JSON or YAML with its enclosing object, or the TOML table. */
  snippet: string
  /** Why the client cannot pass on the variables asked for (`--env`): the entry goes without them. */
  unpassable?: string
  /** Why the client cannot reach a server over HTTP (or not with a token) from its config file: it has no entry. */
  unreachable?: string
}

/**
 * The entry of one client for this launch, passing on the variables named in `env` where the client can, and the
 * CLI's location variables its way (client-specs.ts LocationPassing).
 */
export function clientSetup(id: ClientId, name: string, target: Target, place: Place, options: SetupOptions = {}): ClientSetup {
  const {env = []} = options
  const client = CLIENTS[id]
  const passing = client.env
  const cannot = unreachable(client, target)
  return {
    ...(id === 'claude-code' ? {addCommand: claudeAddCommand(name, target, place.platform, place.scope, env)} : {}),
    client: id,
    entry: cannot ? {} : clientEntry(client, target, {...options, name}),
    label: client.label,
    path: client.configPath(place),
    snippet: cannot ? '' : configSnippet(client, name, target, place, options),
    target,
    ...(env.length > 0 && 'cannot' in passing ? {unpassable: `${client.label} cannot pass ${env.join(', ')} on: ${passing.cannot}.`} : {}),
    ...(cannot ? {unreachable: cannot} : {}),
  }
}

/**
 * Merges the server into the client's config file at `path`: only the entry named `name` is added or updated, a
 * backup of the previous file is kept, and a file that cannot be read with certainty is refused untouched.
 */
export function writeClientConfig(id: ClientId, name: string, target: Target, path: string, place: Place, options: SetupOptions = {}): Promise<WriteOutcome> {
  const client = CLIENTS[id]
  const entry = clientEntry(client, target, {...options, name})
  // Writing one form drops what the other form wrote and this one does not set (a `command`, `args` and `env` where a
  // `url` goes; a `url`, `headers` and `type` where a command goes): a host refuses or misreads an entry of both.
  const started = [...Object.keys(client.shape({args: [], command: ''}, name)), 'env', 'cwd', 'env_keys']
  const reached = 'shape' in client.remote ? Object.keys(client.remote.shape('', 'X', name)) : []
  const drop = isRemote(target) ? started : reached
  // A file of the project (VS Code's .vscode/mcp.json, Claude Code's project .mcp.json) must stay in the project.
  const project = place.cwd !== place.home && isWithin(path, place.cwd) ? place.cwd : undefined
  return updateConfigFile(
    path,
    (text) => {
      if (client.format === 'toml') return upsertTomlServer(text, name, entry as TomlEntry)
      const merge = client.format === 'yaml' ? mergeYamlServer : mergeJsonServer
      return merge(text, client.serversPath(place), name, entry, drop)
    },
    project === undefined ? {} : {project},
  )
}

/**
 * Whether Gemini CLI trusts `folder`, by its own rule (0.61's isPathTrusted): of the recorded folders that hold it —
 * a TRUST_PARENT entry standing for the folder above it — the longest entry decides, TRUST_FOLDER and TRUST_PARENT
 * trusting, DO_NOT_TRUST not. The file is JSON with comments allowed.
 */
export function geminiTrusts(place: Place, folder = place.cwd): boolean {
  let recorded: unknown
  try {
    recorded = parse(readFileSync(geminiTrustPath(place), 'utf8'))
  } catch {
    return false
  }

  if (!recorded || typeof recorded !== 'object') return false
  let decides: {length: number; level: unknown} | undefined
  for (const [rule, level] of Object.entries(recorded)) {
    const holder = level === 'TRUST_PARENT' ? dirname(rule) : rule
    if (isWithin(folder, holder) && (!decides || rule.length > decides.length)) decides = {length: rule.length, level}
  }

  return decides?.level === 'TRUST_FOLDER' || decides?.level === 'TRUST_PARENT'
}

/** Records the current folder as trusted where Gemini CLI keeps its trusted folders (`mcp config --trust`). */
export function trustGeminiFolder(place: Place): Promise<WriteOutcome> {
  return updateConfigFile(geminiTrustPath(place), (text) => setJsonValue(text, place.cwd, 'TRUST_FOLDER'))
}

/**
 * What a person must know before Gemini CLI runs the server: it starts none in a folder it does not trust (`gemini
 * mcp list` shows it Disabled there), and headless `gemini -p` offers its model no tool that asks for confirmation.
 */
export function geminiNotes(place: Place, bin: string): string[] {
  const trust = geminiTrusts(place)
    ? `Gemini CLI trusts ${place.cwd}, so it starts the server there.`
    : `Gemini CLI starts MCP servers only in folders it trusts: in ${place.cwd} "gemini mcp list" shows this one Disabled until you trust the folder (Gemini asks when you start it there), or run this again with --trust to record it in ${geminiTrustPath(place)}.`
  return [trust, `Headless, "gemini -p" offers the model no ${bin} tool unless it runs with --approval-mode yolo, which runs every tool without asking.`]
}
