import {Flags} from '@oclif/core'

import type {AuthorConfig} from './author-config.js'

import {AGENT_HOST_IDS} from './agent-hosts.js'
import {DEFAULT_STATE_QUOTA} from './state-url.js'

// Every option of the servers, declared once: its flag (and the help group `--help` shows it in), its default, the
// author's key that sets that default, whether `mcp config` writes it into a client's launch line, and where the docs
// explain it. The commands' flags, the settings' defaults (settings.ts), the launch line `mcp config` writes
// (launchArguments) and the tables in docs/settings.md are all derived from it.

export type OptionGroup = 'Exposure' | 'HTTP' | 'Limits' | 'OAuth' | 'Safety' | 'State'

/** Which commands take an option: every server command (`server`), or `mcp serve` only (`http`). */
type OptionScope = 'http' | 'server'

interface OptionSpec {
  /** The `oclif.mcp` key whose value is the default when the flag is not given. */
  author?: keyof AuthorConfig
  /** The value used when neither the flag nor the author says (none: the option is off or derived elsewhere). */
  default?: boolean | number | string
  /** The default as the help and the docs say it, where the value alone does not. */
  defaultText?: string
  /** The flag, given its description and help group. */
  flag: (common: {description: string; helpGroup: OptionGroup}) => unknown
  group: OptionGroup
  /** What it does (the flag's help, without its default, which is added). */
  help: string
  /** The page and section of docs/ that explain it. */
  more: string
  scope: OptionScope
  /** `mcp config` writes it, when given, into the client's launch line of `mcp stdio`. */
  travels: boolean
}

const MIB = 1024 * 1024

/**
 * Hosts prefix tool names with the server name (`mcp__<server>__`); keeping ours this short leaves them room under the
 * 64-character limit. A plugin's longer prefix (`mcp__plugin_<plugin>_<server>__`) asks for less (`--max-tool-name`).
 */
export const MAX_TOOL_NAME = 45
/** The shortest cap: room for the longest built-in name (`describe_capabilities`) and a hashed command name. */
export const MIN_TOOL_NAME = 24

/** Connections the HTTP server holds open at once by default. */
export const DEFAULT_MAX_CONNECTIONS = 128

const option = <S extends OptionSpec>(spec: S) => spec

/** The options, in the order `--help` lists them within their group (alphabetical, as oclif sorts). */
export const SERVER_OPTIONS = {
  'allow-cwd': option({
    defaultText: "anywhere; with mcp serve --allow-remote, only --cwd's directory",
    flag: (common) => Flags.directory({...common, exists: true, multiple: true}),
    group: 'Safety',
    help: "A directory a call's cwd may be in (with everything below it); repeat for several. A command may read and even run files of the directory it runs in.",
    more: 'tools.md#where-commands-run-cwd',
    scope: 'server',
    travels: true,
  }),
  audit: option({
    default: true,
    flag: (common) => Flags.boolean({...common, allowNo: true}),
    group: 'Safety',
    help: "Append every mutating or destructive call to the audit log in the CLI's data dir (--no-audit turns it off).",
    more: 'calls.md#secrets-audit-log-confirmation',
    scope: 'server',
    travels: true,
  }),
  client: option({
    defaultText: 'an unknown host, within the smallest limits measured',
    flag: (common) => Flags.option({...common, options: AGENT_HOST_IDS})(),
    group: 'Exposure',
    help: 'The agent host this server is for (mcp config writes it), for requests that do not say who sends them: results, pages and tool entries are shaped for what that host shows its model. The clientInfo a host sends comes first.',
    more: 'hosts.md#what-each-host-is-shown',
    scope: 'server',
    // `mcp config` names each entry's host itself.
    travels: false,
  }),
  'confirm-destructive': option({
    author: 'confirmDestructive',
    default: false,
    flag: (common) => Flags.boolean({...common, allowNo: true}),
    group: 'Safety',
    help: 'Ask the person before a destructive command runs; where the client cannot be asked, refuse it.',
    more: 'calls.md#secrets-audit-log-confirmation',
    scope: 'server',
    travels: true,
  }),
  cwd: option({
    defaultText: 'an empty private directory',
    flag: (common) => Flags.directory({...common, exists: true}),
    group: 'Safety',
    help: 'Directory commands run in when a call gives no cwd.',
    more: 'tools.md#where-commands-run-cwd',
    scope: 'server',
    travels: true,
  }),
  exclude: option({
    flag: (common) => Flags.string({...common, multiple: true}),
    group: 'Exposure',
    help: 'Command ids, topics or globs to leave out entirely; repeat for several.',
    more: 'tools.md#large-clis-the-typed-band-and-the-gateway',
    scope: 'server',
    travels: true,
  }),
  exposure: option({
    author: 'exposure',
    default: 'auto',
    flag: (common) => Flags.option({...common, options: ['auto', 'band', 'search'] as const})(),
    group: 'Exposure',
    help: 'How commands are listed as tools: band (a typed band within --max-tools and --max-bytes, the rest through find_commands and run_command), search (every command, for a host that searches its tools itself), auto (by the host: search for Claude Code and Codex, band for the others).',
    more: 'tools.md#large-clis-the-typed-band-and-the-gateway',
    scope: 'server',
    travels: true,
  }),
  foreground: option({
    author: 'foreground',
    default: 45,
    defaultText: '45, below the 60 s hosts wait',
    flag: (common) => Flags.integer({...common, min: 1}),
    group: 'Limits',
    help: 'Seconds a call waits for its command; one still running then goes on as a job the call answers with.',
    more: 'calls.md#long-commands-and-big-outputs',
    scope: 'server',
    travels: true,
  }),
  'job-timeout': option({
    author: 'timeout',
    default: 1800,
    flag: (common) => Flags.integer({...common, aliases: ['timeout'], min: 1}),
    group: 'Limits',
    help: 'Seconds a command may run in all, as a job included, before it and its children are killed.',
    more: 'calls.md#running-the-command',
    scope: 'server',
    travels: true,
  }),
  'max-bytes': option({
    default: 32 * 1024,
    flag: (common) => Flags.integer({...common, min: 1024}),
    group: 'Exposure',
    help: 'Byte budget of the whole tools/list, built-in tools included.',
    more: 'tools.md#large-clis-the-typed-band-and-the-gateway',
    scope: 'server',
    travels: true,
  }),
  'max-concurrency': option({
    defaultText: 'the number of CPUs',
    flag: (common) => Flags.integer({...common, min: 1}),
    group: 'Limits',
    help: 'Command processes that may run at once.',
    more: 'servers.md#mcp-serve',
    scope: 'server',
    travels: true,
  }),
  'max-output': option({
    author: 'maxOutputBytes',
    default: 4 * MIB,
    defaultText: '4 MiB',
    flag: (common) => Flags.integer({...common, min: 1024}),
    group: 'Limits',
    help: 'Bytes of stdout and of stderr captured per call, readable in pages when the result is cut.',
    more: 'calls.md#running-the-command',
    scope: 'server',
    travels: true,
  }),
  'max-queue': option({
    default: 32,
    flag: (common) => Flags.integer({...common, min: 0}),
    group: 'Limits',
    help: 'Calls that may wait for a free slot; past that a call is answered "busy".',
    more: 'servers.md#mcp-serve',
    scope: 'server',
    travels: true,
  }),
  'max-result-tokens': option({
    author: 'maxResultTokens',
    default: 20_000,
    flag: (common) => Flags.integer({...common, min: 1000}),
    group: 'Limits',
    help: 'About how many tokens a result may hold for the model; longer output is cut to its head and tail, and the whole stays readable.',
    more: 'calls.md#long-commands-and-big-outputs',
    scope: 'server',
    travels: true,
  }),
  'max-tool-name': option({
    default: MAX_TOOL_NAME,
    flag: (common) => Flags.integer({...common, max: MAX_TOOL_NAME, min: MIN_TOOL_NAME}),
    group: 'Exposure',
    help: "The longest name a command's tool may have (a longer one is cut and given a short hash): what the host's prefix (mcp__<server>__, mcp__plugin_<plugin>_<server>__) leaves of its 64 characters. mcp pack sets it for a plugin's longer prefix.",
    more: 'tools.md#tool-names',
    scope: 'server',
    travels: true,
  }),
  'max-tools': option({
    default: 40,
    flag: (common) => Flags.integer({...common, min: 0}),
    group: 'Exposure',
    help: 'At most this many command tools in tools/list; the rest stay reachable through run_command.',
    more: 'tools.md#large-clis-the-typed-band-and-the-gateway',
    scope: 'server',
    travels: true,
  }),
  profile: option({
    defaultText: "the author's defaultProfile",
    flag: (common) => Flags.string(common),
    group: 'Exposure',
    help: "A profile from the CLI's package.json (oclif.mcp.profiles): which commands are listed as tools.",
    more: 'tools.md#large-clis-the-typed-band-and-the-gateway',
    scope: 'server',
    travels: true,
  }),
  'read-only': option({
    default: false,
    flag: (common) => Flags.boolean(common),
    group: 'Exposure',
    help: 'Expose read-only commands only; nothing that changes state is reachable by any path.',
    more: 'tools.md#large-clis-the-typed-band-and-the-gateway',
    scope: 'server',
    travels: true,
  }),
  tools: option({
    flag: (common) => Flags.string({...common, multiple: true}),
    group: 'Exposure',
    help: 'Command ids, topics or globs to list as tools (instead of a profile); repeat for several.',
    more: 'tools.md#large-clis-the-typed-band-and-the-gateway',
    scope: 'server',
    travels: true,
  }),
  'trust-host-approval': option({
    author: 'trustHostApproval',
    default: false,
    defaultText: 'refuse',
    flag: (common) => Flags.boolean({...common, allowNo: true}),
    group: 'Safety',
    help: "With --confirm-destructive: where the person cannot be asked, run the call and let the host's own approval of tool calls decide.",
    more: 'calls.md#secrets-audit-log-confirmation',
    scope: 'server',
    travels: true,
  }),
  workers: option({
    author: 'workers',
    default: 1,
    defaultText: '1; 0 starts every command cold',
    flag: (common) => Flags.integer({...common, max: 16, min: 0}),
    group: 'Limits',
    help: 'Prewarmed processes kept ready to run the next command.',
    more: 'calls.md#running-the-command',
    scope: 'server',
    travels: true,
  }),

  'allow-remote': option({
    flag: (common) => Flags.boolean(common),
    group: 'HTTP',
    help: 'Allow listening on a non-loopback address (needs a token or OAuth).',
    more: 'servers.md#mcp-serve',
    scope: 'http',
    travels: false,
  }),
  'allowed-host': option({
    flag: (common) => Flags.string({...common, multiple: true}),
    group: 'HTTP',
    help: 'Another host name the Host header may carry; repeat for several.',
    more: 'servers.md#mcp-serve',
    scope: 'http',
    travels: false,
  }),
  'allowed-origin': option({
    flag: (common) => Flags.string({...common, multiple: true}),
    group: 'HTTP',
    help: 'Another browser origin host name to accept; repeat for several.',
    more: 'servers.md#mcp-serve',
    scope: 'http',
    travels: false,
  }),
  'auth-audience': option({
    flag: (common) => Flags.string(common),
    group: 'OAuth',
    help: "This server's public URL as clients reach it (e.g. https://mcp.example.com/mcp), which access tokens must name as their audience.",
    more: 'servers.md#oauth-for-a-server-several-people-use',
    scope: 'http',
    travels: false,
  }),
  'auth-issuer': option({
    flag: (common) => Flags.string(common),
    group: 'OAuth',
    help: 'The authorization server (issuer URL) whose JWT access tokens the server accepts; its metadata and keys are read from it.',
    more: 'servers.md#oauth-for-a-server-several-people-use',
    scope: 'http',
    travels: false,
  }),
  'auth-read-scope': option({
    defaultText: 'mcp:read',
    flag: (common) => Flags.string(common),
    group: 'OAuth',
    help: 'The scope that reaches read-only commands only.',
    more: 'servers.md#oauth-for-a-server-several-people-use',
    scope: 'http',
    travels: false,
  }),
  'auth-write-scope': option({
    defaultText: 'mcp:write',
    flag: (common) => Flags.string(common),
    group: 'OAuth',
    help: 'The scope that reaches every command the server exposes.',
    more: 'servers.md#oauth-for-a-server-several-people-use',
    scope: 'http',
    travels: false,
  }),
  grace: option({
    default: 10,
    flag: (common) => Flags.integer({...common, default: 10, min: 0}),
    group: 'HTTP',
    help: 'Seconds calls in flight may take to finish when the server stops.',
    more: 'servers.md#mcp-serve',
    scope: 'http',
    travels: false,
  }),
  host: option({
    default: '127.0.0.1',
    flag: (common) => Flags.string({...common, default: '127.0.0.1'}),
    group: 'HTTP',
    help: 'Address to listen on.',
    more: 'servers.md#mcp-serve',
    scope: 'http',
    travels: false,
  }),
  'max-connections': option({
    default: DEFAULT_MAX_CONNECTIONS,
    flag: (common) => Flags.integer({...common, min: 1}),
    group: 'HTTP',
    help: 'Connections open at once; more are closed as they arrive.',
    more: 'servers.md#mcp-serve',
    scope: 'http',
    travels: false,
  }),
  port: option({
    default: 5757,
    flag: (common) => Flags.integer({...common, default: 5757, max: 65_535, min: 0}),
    group: 'HTTP',
    help: 'Port to listen on; 0 takes a free one.',
    more: 'servers.md#mcp-serve',
    scope: 'http',
    travels: false,
  }),
  state: option({
    defaultText: 'files and this process',
    flag: (common) => Flags.string(common),
    group: 'State',
    help: 'A Redis URL (redis://host:port[/db], rediss:// for TLS) where idempotency records, jobs and kept outputs are shared with other replicas; a URL with a password goes in <BIN>_MCP_STATE.',
    more: 'servers.md#several-replicas-behind-a-load-balancer',
    scope: 'http',
    travels: false,
  }),
  'state-quota': option({
    default: DEFAULT_STATE_QUOTA.totalBytes / MIB,
    flag: (common) => Flags.integer({...common, min: 1}),
    group: 'State',
    help: "MiB the --state store may hold in all: kept outputs, finished jobs' results, idempotency results; past it they are kept without their output.",
    more: 'servers.md#several-replicas-behind-a-load-balancer',
    scope: 'http',
    travels: false,
  }),
  'state-quota-per-person': option({
    default: DEFAULT_STATE_QUOTA.perPersonBytes / MIB,
    flag: (common) => Flags.integer({...common, min: 1}),
    group: 'State',
    help: 'MiB of that one person (an OAuth subject) may hold.',
    more: 'servers.md#several-replicas-behind-a-load-balancer',
    scope: 'http',
    travels: false,
  }),
  'token-file': option({
    defaultText: 'the <BIN>_MCP_TOKEN environment variable',
    flag: (common) => Flags.file({...common, exists: true}),
    group: 'HTTP',
    help: 'File holding the bearer token clients must send; only its owner may read it.',
    more: 'servers.md#mcp-serve',
    scope: 'http',
    travels: false,
  }),
} as const satisfies Record<string, OptionSpec>

export type OptionName = keyof typeof SERVER_OPTIONS

/** The flag of an option as its spec makes it (its type, for the commands' parsed flags). */
type FlagOf<N extends OptionName> = ReturnType<(typeof SERVER_OPTIONS)[N]['flag']>

/** An option's default as people read it: its text, else its value (a switch: on or off), else none. */
function shownDefault(spec: OptionSpec): string | undefined {
  if (spec.defaultText !== undefined) return spec.defaultText
  if (typeof spec.default === 'boolean') return spec.default ? 'on' : 'off'
  return spec.default === undefined ? undefined : String(spec.default)
}

/**
 * The help of an option: what it does, then its default and the author's key that changes it (a switch says its
 * default only when the author can change it: `--[no-]flag` says the rest).
 */
export function optionHelp(spec: OptionSpec): string {
  const shown = shownDefault(spec)
  const said = typeof spec.default === 'boolean' && !spec.author ? undefined : shown
  if (said === undefined) return spec.help
  return `${spec.help.replace(/\.$/, '')} (default: ${said}${spec.author ? `, unless the CLI's author sets oclif.mcp.${spec.author}` : ''}).`
}

function flagsOf<N extends OptionName>(names: readonly N[]): {[K in N]: FlagOf<K>} {
  return Object.fromEntries(names.map((name) => {
    const spec: OptionSpec = SERVER_OPTIONS[name]
    const flag = spec.flag({description: optionHelp(spec), helpGroup: spec.group}) as {default?: unknown; description: string}
    // A default oclif knows shows in --help as `[default: …]`: the text does not say it again.
    if (flag.default !== undefined) flag.description = spec.help
    return [name, flag]
  })) as {[K in N]: FlagOf<K>}
}

const namesOf = (scope: OptionScope) => (Object.keys(SERVER_OPTIONS) as OptionName[]).filter((name) => SERVER_OPTIONS[name].scope === scope)

/** The flags every server command takes (`mcp stdio`, `mcp serve`, `mcp tools`, `mcp call`, and `mcp config` to pass on). */
export const serverFlags = flagsOf(namesOf('server') as Extract<OptionName, ServerOptionName>[])

/** The flags only `mcp serve` takes: where and how it listens, OAuth, the shared state store. */
export const httpFlags = flagsOf(namesOf('http') as Exclude<OptionName, ServerOptionName>[])

type ServerOptionName = {[N in OptionName]: (typeof SERVER_OPTIONS)[N]['scope'] extends 'server' ? N : never}[OptionName]

/** The options `mcp config` writes into a client's launch line when given. */
export const TRAVELLING: readonly OptionName[] = (Object.keys(SERVER_OPTIONS) as OptionName[]).filter((name) => SERVER_OPTIONS[name].travels)

/**
 * An option's value: the flag given, else the author's key, else the option's default (undefined when it has none).
 */
export function optionValue<T>(name: OptionName, flags: object, author: AuthorConfig = {}): T {
  const spec: OptionSpec = SERVER_OPTIONS[name]
  return ((flags as Record<string, unknown>)[name] ?? (spec.author ? author[spec.author] : undefined) ?? spec.default) as T
}

/** The docs/settings.md table of the options of one scope: flag, group, default, author key, where it is explained. */
export function optionsMarkdown(scope: OptionScope): string {
  const rows = (Object.entries(SERVER_OPTIONS) as [OptionName, OptionSpec][])
    .filter(([, spec]) => spec.scope === scope)
    .map(([name, spec]) => {
      const cells = [`\`--${name}\``, spec.group, spec.help.replaceAll('|', '\\|'), shownDefault(spec) ?? '—', spec.author ? `\`${spec.author}\`` : '—', spec.travels ? 'yes' : 'no', `[${spec.more.split('#')[0]}](${spec.more})`]
      return `| ${cells.join(' | ')} |`
    })
  return ['| flag | group | what it does | default | author key | in `mcp config`\'s launch line | more |', '| --- | --- | --- | --- | --- | --- | --- |', ...rows].join('\n')
}

/** What launchArguments needs of a flag's definition. */
interface FlagDefinition {
  allowNo?: boolean
  multiple?: boolean
  type: string
}

/**
 * The flags of a server command a set-up writes into its launch line (`mcp config` passes on the server flags it was
 * given): only the flags given, each as the server command parses it — `--name value` (once per value of a repeated
 * flag), `--name` for a boolean set, `--no-name` for one turned off. Paths must already be absolute.
 */
export function launchArguments(given: Readonly<Record<string, unknown>>, definitions: Readonly<Record<string, FlagDefinition>>): string[] {
  return Object.entries(definitions).flatMap(([name, definition]) => {
    const value = given[name]
    if (value === undefined) return []
    if (definition.type === 'boolean') return value ? [`--${name}`] : definition.allowNo ? [`--no-${name}`] : []
    return (Array.isArray(value) ? value : [value]).flatMap((item) => [`--${name}`, String(item)])
  })
}
