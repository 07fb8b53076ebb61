import {homedir} from 'node:os'
import {join, resolve} from 'node:path'

import type {Launch} from './launch.js'

import {tomlTable} from './toml-edit.js'

export const CLIENT_IDS = ['claude-code', 'claude-desktop', 'cursor', 'vscode', 'codex'] as const
export type ClientId = (typeof CLIENT_IDS)[number]

/**
 * Where a Claude Code server is kept, as `claude mcp add --scope` names it: `local` (the default: for this directory,
 * in the user's ~/.claude.json), `user` (every directory, same file), `project` (the directory's .mcp.json, shared
 * with the project, which Claude Code asks each person to approve once).
 */
export const CLAUDE_SCOPES = ['local', 'user', 'project'] as const
export type ClaudeScope = (typeof CLAUDE_SCOPES)[number]

/** Where the machine keeps things; passed in so tests and other platforms can be described without touching them. */
export interface Place {
  cwd: string
  env: NodeJS.ProcessEnv
  home: string
  platform: NodeJS.Platform
  /** Claude Code's scope (default local). */
  scope?: ClaudeScope
}

export function currentPlace(scope?: ClaudeScope): Place {
  return {cwd: process.cwd(), env: process.env, home: homedir(), platform: process.platform, ...(scope ? {scope} : {})}
}

interface ClientBase {
  configPath(place: Place): string
  /** The server entry (for TOML, the keys of its table). */
  entry(launch: Launch): Record<string, unknown>
  id: ClientId
  label: string
}

/** One MCP client: its config file, the format of that file, and the entry that launches a stdio server. */
export type ClientSpec =
  | (ClientBase & {format: 'json'; /** The keys down to the JSON object that holds the servers by name. */ serversPath(place: Place): string[]})
  | (ClientBase & {format: 'toml'})

const plainEntry = (launch: Launch) => ({command: launch.command, args: launch.args})
const typedEntry = (launch: Launch) => ({type: 'stdio', command: launch.command, args: launch.args})

function desktopConfigDir(place: Place): string {
  if (place.platform === 'darwin') return join(place.home, 'Library', 'Application Support', 'Claude')
  if (place.platform === 'win32') return join(place.env.APPDATA ?? join(place.home, 'AppData', 'Roaming'), 'Claude')
  return join(place.env.XDG_CONFIG_HOME || join(place.home, '.config'), 'Claude')
}

export const CLIENTS: Record<ClientId, ClientSpec> = {
  'claude-code': {
    configPath: (place) => ((place.scope ?? 'local') === 'project' ? join(place.cwd, '.mcp.json') : join(place.env.CLAUDE_CONFIG_DIR || place.home, '.claude.json')),
    entry: typedEntry,
    format: 'json',
    id: 'claude-code',
    label: 'Claude Code',
    // What `claude mcp add` writes: a local server under its directory's entry in `projects`, others at the top.
    serversPath: (place) => ((place.scope ?? 'local') === 'local' ? ['projects', resolve(place.cwd), 'mcpServers'] : ['mcpServers']),
  },
  'claude-desktop': {
    configPath: (place) => join(desktopConfigDir(place), 'claude_desktop_config.json'),
    entry: plainEntry,
    format: 'json',
    id: 'claude-desktop',
    label: 'Claude Desktop',
    serversPath: () => ['mcpServers'],
  },
  codex: {
    configPath: (place) => join(place.env.CODEX_HOME || join(place.home, '.codex'), 'config.toml'),
    entry: plainEntry,
    format: 'toml',
    id: 'codex',
    label: 'Codex',
  },
  cursor: {
    configPath: (place) => join(place.home, '.cursor', 'mcp.json'),
    entry: plainEntry,
    format: 'json',
    id: 'cursor',
    label: 'Cursor',
    serversPath: () => ['mcpServers'],
  },
  vscode: {
    configPath: (place) => join(place.cwd, '.vscode', 'mcp.json'),
    entry: typedEntry,
    format: 'json',
    id: 'vscode',
    label: 'VS Code',
    serversPath: () => ['servers'],
  },
}

/** A word a POSIX shell (or, on Windows, cmd) reads back as itself. */
export function shellQuote(word: string, platform: NodeJS.Platform = process.platform): string {
  if (/^[\w./:=@%+,-]+$/.test(word)) return word
  return platform === 'win32' ? `"${word.replaceAll('"', '""')}"` : `'${word.replaceAll("'", String.raw`'\''`)}'`
}

/** The `claude mcp add` line that registers the server with Claude Code, in the given scope (default local). */
export function claudeAddCommand(name: string, launch: Launch, platform: NodeJS.Platform = process.platform, scope: ClaudeScope = 'local'): string {
  const scoped = scope === 'local' ? [] : ['--scope', scope]
  return ['claude', 'mcp', 'add', ...scoped, name, '--', launch.command, ...launch.args].map((w) => shellQuote(w, platform)).join(' ')
}

/** What a person pastes into the client's config file: the entry inside its enclosing object, or the TOML table. */
export function configSnippet(client: ClientSpec, name: string, launch: Launch, place: Place): string {
  if (client.format === 'toml') return tomlTable(name, launch).trimEnd()
  const nested = client.serversPath(place).reduceRight<Record<string, unknown>>((inner, key) => ({[key]: inner}), {[name]: client.entry(launch)})
  return JSON.stringify(nested, null, 2)
}

/** Names JavaScript objects keep for themselves: clients written in JavaScript may lose or misread such an entry. */
const RESERVED_NAMES = new Set(['__proto__', 'constructor', 'prototype'])

/** A server name every client accepts, and a bare TOML key: letters, digits, `_` and `-`. */
export function checkServerName(name: string): string | undefined {
  if (RESERVED_NAMES.has(name)) return `The server name "${name}" is a name JavaScript objects reserve; MCP clients written in JavaScript may lose or misread it. Choose another with --name.`
  return /^[\w-]{1,64}$/.test(name) ? undefined : `The server name "${name}" may only contain letters, digits, "_" and "-" (at most 64).`
}
