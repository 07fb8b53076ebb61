import {homedir} from 'node:os'
import {posix, win32} from 'node:path'

import {AGENT_HOST_IDS, type AgentHostId} from '../settings/agent-hosts.js'
import {isRemote, type Launch, type Target} from './launch.js'

import {type TomlEntry, tomlTable} from './toml-edit.js'
import {stringify} from 'yaml'

/** The hosts `mcp config` sets up: the agent hosts of the one host table. */
export const CLIENT_IDS = AGENT_HOST_IDS
export type ClientId = AgentHostId

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

/**
 * How a client's entry hands variables of the client's own environment to the server: the keys to add to the entry
 * for those names, or why it cannot (the client neither passes its environment on nor expands variables).
 */
export type EnvPassing = {cannot: string} | {keys: (names: readonly string[]) => Record<string, unknown>}

/** What an entry is made of besides the launch: the server's name, and the variables to pass on. */
export interface EntryOptions {
  env?: readonly string[]
  /**
   * Where the CLI keeps its data, config and cache, as this environment sets them (`XDG_DATA_HOME`, `<BIN>_DATA_DIR`,
   * …): a CLI whose plugins are installed under a moved data folder finds none of them, `mcp` included, without them.
   */
  locations?: Readonly<Record<string, string>>
  name: string
}

/**
 * How a client's server gets the location variables: `inherited` from the client's own environment (passed on
 * whole), `named` in the entry's list of variables to copy from it, or `literal` values in the entry (a client that
 * starts servers with an environment of its own and expands nothing). Paths, never secrets, so writing them is fine.
 */
export type LocationPassing = 'inherited' | 'literal' | 'named'

/**
 * How a client's entry reaches a server over HTTP: its keys for the URL and for the bearer token taken from a
 * variable of its environment, or why it cannot (at all, or with a token).
 */
export type RemoteSpec = {cannot: string} | {shape(url: string, tokenVariable: string | undefined, name: string): Record<string, unknown>; tokenCannot?: string}

interface ClientBase {
  configPath(place: Place): string
  env: EnvPassing
  locations: LocationPassing
  remote: RemoteSpec
  /** The client's own keys of a server entry around the launch (clientEntry adds what passes variables on). */
  shape(launch: Launch, name: string): Record<string, unknown>
  id: ClientId
  label: string
}

/** One MCP client: its config file, the format of that file, and the entry that launches a stdio server. */
export type ClientSpec =
  | (ClientBase & {format: 'json' | 'yaml'; /** The keys down to the object that holds the servers by name. */ serversPath(place: Place): string[]})
  | (ClientBase & {format: 'toml'})

/** An `env` map whose values the client expands from its own environment when it starts the server. */
const expanded = (reference: (name: string) => string): EnvPassing => ({keys: (names) => ({env: Object.fromEntries(names.map((n) => [n, reference(n)]))})})

/**
 * A client's server entry (for TOML, the keys of its table): its own keys around the launch, then what passes the
 * variables on; or, for a server over HTTP, its keys for the URL and the token (the caller has checked it can).
 */
export function clientEntry(client: ClientSpec, target: Target, {env = [], locations = {}, name}: EntryOptions): Record<string, unknown> {
  if (isRemote(target)) return 'shape' in client.remote ? client.remote.shape(target.url, target.tokenVariable, name) : {}
  const located = Object.keys(locations)
  const passed = client.locations === 'named' ? [...new Set([...env, ...located])] : env
  const literal = client.locations === 'literal' && located.length > 0 ? {env: {...locations}} : {}
  return {...client.shape(target, name), ...literal, ...(passed.length > 0 && 'keys' in client.env ? client.env.keys(passed) : {})}
}

/** The location variables this environment sets for the CLI (`XDG_DATA_HOME`…, and the CLI's own `<BIN>_DATA_DIR`…). */
export function locationVariables(scopedKey: (name: string) => string, env: NodeJS.ProcessEnv): Record<string, string> {
  const names = ['XDG_DATA_HOME', 'XDG_CONFIG_HOME', 'XDG_CACHE_HOME', ...['DATA_DIR', 'CONFIG_DIR', 'CACHE_DIR'].map((n) => scopedKey(n))]
  return Object.fromEntries(names.filter((n) => env[n]).map((n) => [n, env[n]!]))
}

/** Why this client cannot reach the server at `target`, or undefined when it can. */
export function unreachable(client: ClientSpec, target: Target): string | undefined {
  if (!isRemote(target)) return undefined
  if ('cannot' in client.remote) return `${client.label} cannot reach a server over HTTP from its config file: ${client.remote.cannot}.`
  return target.tokenVariable && client.remote.tokenCannot ? `${client.label} cannot send a token from a variable: ${client.remote.tokenCannot}.` : undefined
}

/** An Authorization header whose token the client expands from a variable of its environment, written its way. */
const bearer = (reference: (name: string) => string) => (tokenVariable?: string) => (tokenVariable ? {headers: {Authorization: `Bearer ${reference(tokenVariable)}`}} : {})
const dollar = bearer((name) => `\${${name}}`)
const dollarEnv = bearer((name) => `\${env:${name}}`)

const plainShape = (launch: Launch) => ({command: launch.command, args: launch.args})
const typedShape = (launch: Launch) => ({type: 'stdio', command: launch.command, args: launch.args})

/** Paths as the place's platform writes them (a Windows place described on another system too). */
const pathsOf = (place: Place) => (place.platform === 'win32' ? win32 : posix)
const join = (place: Place, ...parts: string[]) => pathsOf(place).join(...parts)

/**
 * The key Claude Code keeps a directory's servers under in ~/.claude.json: the absolute path, written with forward
 * slashes on Windows too (`C:/work/app`), as Claude Code itself writes it.
 */
export function claudeProjectKey(place: Place): string {
  const absolute = pathsOf(place).resolve(place.cwd)
  return place.platform === 'win32' ? absolute.replaceAll('\\', '/') : absolute
}

/** Windows' roaming application data folder (`%APPDATA%`). */
const appData = (place: Place) => place.env.APPDATA || join(place, place.home, 'AppData', 'Roaming')
/** The XDG configuration folder (`$XDG_CONFIG_HOME`, else ~/.config). */
const xdgConfig = (place: Place) => place.env.XDG_CONFIG_HOME || join(place, place.home, '.config')

function desktopConfigDir(place: Place): string {
  if (place.platform === 'darwin') return join(place, place.home, 'Library', 'Application Support', 'Claude')
  if (place.platform === 'win32') return join(place, appData(place), 'Claude')
  return join(place, xdgConfig(place), 'Claude')
}

/** Zed's config folder: ~/.config/zed on macOS too, %APPDATA%\Zed on Windows, the XDG one (Flatpak's first) on Linux. */
function zedConfigDir(place: Place): string {
  if (place.platform === 'win32') return join(place, appData(place), 'Zed')
  if (place.platform === 'darwin') return join(place, place.home, '.config', 'zed')
  return join(place, place.env.FLATPAK_XDG_CONFIG_HOME || xdgConfig(place), 'zed')
}

/** Goose's config folder: %APPDATA%\Block\goose\config on Windows, the XDG one elsewhere; GOOSE_PATH_ROOT overrides. */
function gooseConfigDir(place: Place): string {
  const root = place.env.GOOSE_PATH_ROOT
  if (root && pathsOf(place).isAbsolute(root)) return join(place, root, 'config')
  if (place.platform === 'win32') return join(place, appData(place), 'Block', 'goose', 'config')
  return join(place, xdgConfig(place), 'goose')
}

const CANNOT_DESKTOP =
  'Claude Desktop starts servers with a small environment of its own (HOME, PATH, USER…) and expands no variables in its config file'
const CANNOT_ZED = 'Zed expands no variables in settings.json, and what environment it gives a server is not documented'

export const CLIENTS: Record<ClientId, ClientSpec> = {
  'claude-code': {
    locations: 'inherited',
    remote: {shape: (url, token) => ({type: 'http', url, ...dollar(token)})},
    configPath: (place) => ((place.scope ?? 'local') === 'project' ? join(place, place.cwd, '.mcp.json') : join(place, place.env.CLAUDE_CONFIG_DIR || place.home, '.claude.json')),
    shape: typedShape,
    // Claude Code passes its whole environment on; naming a variable keeps it passed if that ever narrows.
    env: expanded((name) => `\${${name}}`),
    format: 'json',
    id: 'claude-code',
    label: 'Claude Code',
    // What `claude mcp add` writes: a local server under its directory's entry in `projects`, others at the top.
    serversPath: (place) => ((place.scope ?? 'local') === 'local' ? ['projects', claudeProjectKey(place), 'mcpServers'] : ['mcpServers']),
  },
  'claude-desktop': {
    locations: 'literal',
    remote: {cannot: 'it adds remote servers as connectors, in its settings (Settings, Connectors)'},
    configPath: (place) => join(place, desktopConfigDir(place), 'claude_desktop_config.json'),
    shape: plainShape,
    env: {cannot: CANNOT_DESKTOP},
    format: 'json',
    id: 'claude-desktop',
    label: 'Claude Desktop',
    serversPath: () => ['mcpServers'],
  },
  codex: {
    locations: 'named',
    // What `codex mcp add --url … --bearer-token-env-var …` writes.
    remote: {shape: (url, token) => ({url, ...(token ? {bearer_token_env_var: token} : {})})},
    configPath: (place) => join(place, place.env.CODEX_HOME || join(place, place.home, '.codex'), 'config.toml'),
    shape: plainShape,
    // Codex passes only HOME, LANG, PATH, SHELL, TERM and a few more; env_vars names what else it copies.
    env: {keys: (names) => ({env_vars: [...names]})},
    format: 'toml',
    id: 'codex',
    label: 'Codex',
  },
  cursor: {
    locations: 'inherited',
    remote: {shape: (url, token) => ({url, ...dollarEnv(token)})},
    configPath: (place) => join(place, place.home, '.cursor', 'mcp.json'),
    shape: plainShape,
    env: expanded((name) => `\${env:${name}}`),
    format: 'json',
    id: 'cursor',
    label: 'Cursor',
    serversPath: () => ['mcpServers'],
  },
  vscode: {
    locations: 'inherited',
    remote: {shape: (url, token) => ({type: 'http', url, ...dollarEnv(token)})},
    configPath: (place) => join(place, place.cwd, '.vscode', 'mcp.json'),
    shape: typedShape,
    env: expanded((name) => `\${env:${name}}`),
    format: 'json',
    id: 'vscode',
    label: 'VS Code',
    serversPath: () => ['servers'],
  },
  gemini: {
    locations: 'inherited',
    // What `gemini mcp add --transport http … -H …` writes.
    remote: {shape: (url, token) => ({url, type: 'http', ...dollar(token)})},
    // The user's settings: a project's .gemini/settings.json is read only in a folder Gemini CLI trusts.
    configPath: (place) => join(place, place.env.GEMINI_CLI_HOME || place.home, '.gemini', 'settings.json'),
    shape: plainShape,
    // Gemini CLI drops every variable named like a token, key or secret from a server's environment, unless the
    // entry's env names it; `$NAME` is expanded from Gemini's own environment.
    env: expanded((name) => `\${${name}}`),
    format: 'json',
    id: 'gemini',
    label: 'Gemini CLI',
    serversPath: () => ['mcpServers'],
  },
  windsurf: {
    locations: 'inherited',
    remote: {shape: (url, token) => ({serverUrl: url, ...dollarEnv(token)})},
    configPath: (place) => join(place, place.home, '.codeium', 'windsurf', 'mcp_config.json'),
    shape: plainShape,
    env: expanded((name) => `\${env:${name}}`),
    format: 'json',
    id: 'windsurf',
    label: 'Windsurf',
    serversPath: () => ['mcpServers'],
  },
  zed: {
    locations: 'literal',
    remote: {shape: (url) => ({url}), tokenCannot: CANNOT_ZED},
    configPath: (place) => join(place, zedConfigDir(place), 'settings.json'),
    shape: (launch) => ({source: 'custom', command: launch.command, args: launch.args}),
    env: {cannot: CANNOT_ZED},
    format: 'json',
    id: 'zed',
    label: 'Zed',
    serversPath: () => ['context_servers'],
  },
  goose: {
    locations: 'named',
    remote: {
      shape: (url, _token, name) => ({enabled: true, type: 'streamable_http', name, description: `${name} commands as MCP tools`, uri: url, timeout: 300}),
      tokenCannot: 'how Goose fills a header from its environment is not documented',
    },
    configPath: (place) => join(place, gooseConfigDir(place), 'config.yaml'),
    shape: (launch, name) => ({enabled: true, type: 'stdio', name, description: `${name} commands as MCP tools`, cmd: launch.command, args: launch.args, timeout: 300}),
    // env_keys: Goose takes each value from its environment (or its secret store).
    env: {keys: (names) => ({env_keys: [...names]})},
    format: 'yaml',
    id: 'goose',
    label: 'Goose',
    serversPath: () => ['extensions'],
  },
}

/**
 * Where Gemini CLI keeps the folders it trusts (it starts no MCP server of a folder it does not): its
 * GEMINI_CLI_TRUSTED_FOLDERS_PATH, else trustedFolders.json in its own folder (read in Gemini CLI 0.61's source).
 */
export function geminiTrustPath(place: Place): string {
  return place.env.GEMINI_CLI_TRUSTED_FOLDERS_PATH || join(place, place.env.GEMINI_CLI_HOME || place.home, '.gemini', 'trustedFolders.json')
}

/** A word a POSIX shell (or, on Windows, cmd) reads back as itself. */
export function shellQuote(word: string, platform: NodeJS.Platform = process.platform): string {
  if (/^[\w./:=@%+,-]+$/.test(word)) return word
  return platform === 'win32' ? `"${word.replaceAll('"', '""')}"` : `'${word.replaceAll("'", String.raw`'\''`)}'`
}

/**
 * The `claude mcp add` line that registers the server with Claude Code, in the given scope (default local), with
 * `-e NAME=${NAME}` for each variable to pass on (Claude Code expands it when it starts the server).
 */
export function claudeAddCommand(name: string, target: Target, platform: NodeJS.Platform = process.platform, scope: ClaudeScope = 'local', env: readonly string[] = []): string {
  const scoped = scope === 'local' ? [] : ['--scope', scope]
  if (isRemote(target)) {
    const header = target.tokenVariable ? ['--header', `Authorization: Bearer \${${target.tokenVariable}}`] : []
    return ['claude', 'mcp', 'add', ...scoped, '--transport', 'http', name, target.url, ...header].map((w) => shellQuote(w, platform)).join(' ')
  }

  const launch = target
  const passed = env.flatMap((variable) => ['-e', `${variable}=\${${variable}}`])
  // The name before -e: claude's -e takes every value up to `--`, and would take the name as one.
  return ['claude', 'mcp', 'add', ...scoped, name, ...passed, '--', launch.command, ...launch.args].map((w) => shellQuote(w, platform)).join(' ')
}

/** What a person pastes into the client's config file: the entry inside its enclosing object, or the TOML table. */
export function configSnippet(client: ClientSpec, name: string, target: Target, place: Place, options: Omit<EntryOptions, 'name'> = {}): string {
  const entry = clientEntry(client, target, {...options, name})
  if (client.format === 'toml') return tomlTable(name, entry as TomlEntry).trimEnd()
  const nested = client.serversPath(place).reduceRight<Record<string, unknown>>((inner, key) => ({[key]: inner}), {[name]: entry})
  return client.format === 'yaml' ? stringify(nested).trimEnd() : JSON.stringify(nested, null, 2)
}

/** A variable name as environments and hosts accept it. */
export function checkEnvName(name: string): string | undefined {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) ? undefined : `"${name}" is not an environment variable name (letters, digits and "_", not starting with a digit).`
}

/** Names JavaScript objects keep for themselves: clients written in JavaScript may lose or misread such an entry. */
const RESERVED_NAMES = new Set(['__proto__', 'constructor', 'prototype'])

/** A server name every client accepts, and a bare TOML key: letters, digits, `_` and `-`. */
export function checkServerName(name: string): string | undefined {
  if (RESERVED_NAMES.has(name)) return `The server name "${name}" is a name JavaScript objects reserve; MCP clients written in JavaScript may lose or misread it. Choose another with --name.`
  return /^[\w-]{1,64}$/.test(name) ? undefined : `The server name "${name}" may only contain letters, digits, "_" and "-" (at most 64).`
}
