import type {Interfaces} from '@oclif/core'

import {availableParallelism} from 'node:os'

import type {AgentHostId} from './agent-hosts.js'
import type {AuthorConfig} from './author-config.js'
import {type OptionName, optionValue, SERVER_OPTIONS, type serverFlags} from './server-options.js'

/**
 * How commands are listed as tools: `band` (a typed band within the tool and byte budgets, the rest through the
 * gateway), `search` (every command in reach, for a host that searches its tools itself), `auto` (by the host: its
 * kind in settings/agent-hosts.ts).
 */
export type ExposureChoice = 'auto' | 'band' | 'search'

/** What the user asked the server to expose (see src/tools/exposure/projection.ts). */
export interface ProjectionOptions {
  exclude: string[]
  exposure: ExposureChoice
  maxBytes: number
  /** The longest name a command's tool gets (tools/catalog/tool-names.ts). */
  maxToolName: number
  maxTools: number
  profile?: string
  readOnly: boolean
  tools?: string[]
}

/** What the server was started with: the author's config plus the user's flags. */
export interface Settings {
  /** The agent host the set-up named (`--client`): it serves requests whose clientInfo names none it knows. */
  agentHost?: AgentHostId
  /**
   * The directories (real paths) a call's `cwd` must be in, each with everything below it; undefined: anywhere. The
   * default directory (`defaultCwd`, or the private one) is always allowed.
   */
  allowedCwd?: string[]
  /** Append mutating and destructive calls to the audit log. */
  audit: boolean
  author: AuthorConfig
  confirmDestructive: boolean
  /**
   * Whether a command still running at its foreground budget goes on as a job (servers), or the call waits for it to
   * end (`mcp call`, whose process ends with the call).
   */
  background: boolean
  /** Directory commands run in when a call gives no `cwd`; undefined means a private empty directory. */
  defaultCwd?: string
  /** How long a call waits for its command before it goes on as a job (per command: CommandTool.foregroundMs). */
  foregroundMs: number
  /** Command processes that may run at once. */
  maxConcurrency: number
  maxOutputBytes: number
  /** About how many tokens one result may hold for the model (result-budget.ts turns it into characters). */
  maxResultTokens: number
  /** Calls that may wait for a free slot before further calls are refused as busy. */
  maxQueue: number
  projection: ProjectionOptions
  /** The shared state store (`redis://…`) of `mcp serve --state`; undefined: files and this process's memory. */
  state?: string
  /** What the shared state store may hold, in all and per person (settings/state-url.ts DEFAULT_STATE_QUOTA when not given). */
  stateQuota?: {perPersonBytes: number; totalBytes: number}
  /** How long a command may run in all, as a job included (per command: CommandTool.timeoutMs). */
  timeoutMs: number
  /**
   * With confirmDestructive, where the person cannot be asked (a client without elicitation, 2025-era HTTP), run the
   * destructive call and leave the approval to the host; otherwise such a call is refused.
   */
  trustHostApproval: boolean
  /** Prewarmed one-shot workers kept ready (0: spawn every command cold). */
  workers: number
}

// The defaults, as the table of server options declares them (server-options.ts).
export const DEFAULT_FOREGROUND_SECONDS = SERVER_OPTIONS.foreground.default
export const DEFAULT_TIMEOUT_SECONDS = SERVER_OPTIONS['job-timeout'].default
export const DEFAULT_MAX_OUTPUT_BYTES = SERVER_OPTIONS['max-output'].default
export const DEFAULT_MAX_RESULT_TOKENS = SERVER_OPTIONS['max-result-tokens'].default
export const DEFAULT_MAX_QUEUE = SERVER_OPTIONS['max-queue'].default
export const DEFAULT_WORKERS = SERVER_OPTIONS.workers.default
export const DEFAULT_MAX_TOOLS = SERVER_OPTIONS['max-tools'].default
export const DEFAULT_MAX_BYTES = SERVER_OPTIONS['max-bytes'].default

/** The flags every server command shares (server-options.ts), as parsed; any may be missing. */
export type ServerFlags = Partial<Interfaces.InferredFlags<typeof serverFlags>>

/**
 * Where calls may run: the directories given with --allow-cwd; else, for a server other machines reach
 * (`--allow-remote`), only its default directory (--cwd's, or the private one); else anywhere.
 */
function allowedCwd(flags: ServerFlags, remote: boolean): string[] | undefined {
  if (flags['allow-cwd']) return flags['allow-cwd']
  return remote ? (flags.cwd ? [flags.cwd] : []) : undefined
}

/** Each option from its flag, else the author's key, else its default (server-options.ts). */
export function resolveSettings(author: AuthorConfig, flags: ServerFlags, background = true, remote = false): Settings {
  const value = <T>(name: OptionName) => optionValue<T>(name, flags, author)
  return {
    agentHost: flags.client,
    allowedCwd: allowedCwd(flags, remote),
    audit: value('audit'),
    author,
    background,
    confirmDestructive: value('confirm-destructive'),
    defaultCwd: flags.cwd,
    foregroundMs: 1000 * value<number>('foreground'),
    maxConcurrency: flags['max-concurrency'] ?? availableParallelism(),
    maxOutputBytes: value('max-output'),
    maxResultTokens: value('max-result-tokens'),
    maxQueue: value('max-queue'),
    projection: {
      exclude: flags.exclude ?? [],
      exposure: value('exposure'),
      maxBytes: value('max-bytes'),
      maxToolName: value('max-tool-name'),
      maxTools: value('max-tools'),
      profile: flags.profile,
      readOnly: value('read-only'),
      tools: flags.tools,
    },
    timeoutMs: 1000 * value<number>('job-timeout'),
    trustHostApproval: value('trust-host-approval'),
    workers: value('workers'),
  }
}
