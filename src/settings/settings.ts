import type {Interfaces} from '@oclif/core'

import {availableParallelism} from 'node:os'

import type {AgentHostId} from './agent-hosts.js'
import type {AuthorConfig} from './author-config.js'
import type {projectionFlags, serverFlags} from './flags.js'

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
  /** What the shared state store may hold, in all and per person (redis-state.ts DEFAULT_STATE_QUOTA when not given). */
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

export const DEFAULT_FOREGROUND_SECONDS = 45
export const DEFAULT_TIMEOUT_SECONDS = 30 * 60
export const DEFAULT_MAX_OUTPUT_BYTES = 4 * 1024 * 1024
export const DEFAULT_MAX_RESULT_TOKENS = 20_000
export const DEFAULT_MAX_QUEUE = 32
export const DEFAULT_WORKERS = 1
export const DEFAULT_MAX_TOOLS = 40
export const DEFAULT_MAX_BYTES = 32 * 1024

/** The flags every server command shares (src/settings/flags.ts), as parsed; any may be missing. */
export type ServerFlags = Partial<Interfaces.InferredFlags<typeof projectionFlags & typeof serverFlags>>

/**
 * Where calls may run: the directories given with --allow-cwd; else, for a server other machines reach
 * (`--allow-remote`), only its default directory (--cwd's, or the private one); else anywhere.
 */
function allowedCwd(flags: ServerFlags, remote: boolean): string[] | undefined {
  if (flags['allow-cwd']) return flags['allow-cwd']
  return remote ? (flags.cwd ? [flags.cwd] : []) : undefined
}

export function resolveSettings(author: AuthorConfig, flags: ServerFlags, background = true, remote = false): Settings {
  return {
    agentHost: flags.client,
    allowedCwd: allowedCwd(flags, remote),
    audit: flags.audit ?? true,
    author,
    background,
    confirmDestructive: flags['confirm-destructive'] ?? author.confirmDestructive ?? false,
    defaultCwd: flags.cwd,
    foregroundMs: 1000 * (flags.foreground ?? author.foreground ?? DEFAULT_FOREGROUND_SECONDS),
    maxConcurrency: flags['max-concurrency'] ?? availableParallelism(),
    maxOutputBytes: flags['max-output'] ?? author.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES,
    maxResultTokens: flags['max-result-tokens'] ?? author.maxResultTokens ?? DEFAULT_MAX_RESULT_TOKENS,
    maxQueue: flags['max-queue'] ?? DEFAULT_MAX_QUEUE,
    projection: {
      exclude: flags.exclude ?? [],
      exposure: flags.exposure ?? author.exposure ?? 'auto',
      maxBytes: flags['max-bytes'] ?? DEFAULT_MAX_BYTES,
      maxTools: flags['max-tools'] ?? DEFAULT_MAX_TOOLS,
      profile: flags.profile,
      readOnly: flags['read-only'] ?? false,
      tools: flags.tools,
    },
    timeoutMs: 1000 * (flags['job-timeout'] ?? author.timeout ?? DEFAULT_TIMEOUT_SECONDS),
    trustHostApproval: flags['trust-host-approval'] ?? author.trustHostApproval ?? false,
    workers: flags.workers ?? author.workers ?? DEFAULT_WORKERS,
  }
}
