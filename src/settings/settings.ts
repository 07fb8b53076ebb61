import type {Interfaces} from '@oclif/core'

import {availableParallelism} from 'node:os'

import type {AuthorConfig} from './author-config.js'
import type {projectionFlags, serverFlags} from './flags.js'

/** What the user asked the server to expose (see src/tools/exposure/projection.ts). */
export interface ProjectionOptions {
  exclude: string[]
  maxBytes: number
  maxTools: number
  profile?: string
  readOnly: boolean
  tools?: string[]
}

/** What the server was started with: the author's config plus the user's flags. */
export interface Settings {
  /** Append mutating and destructive calls to the audit log. */
  audit: boolean
  author: AuthorConfig
  confirmDestructive: boolean
  /** Directory commands run in when a call gives no `cwd`; undefined means a private empty directory. */
  defaultCwd?: string
  /** Command processes that may run at once. */
  maxConcurrency: number
  maxOutputBytes: number
  /** Calls that may wait for a free slot before further calls are refused as busy. */
  maxQueue: number
  projection: ProjectionOptions
  timeoutMs: number
  /**
   * With confirmDestructive, where the person cannot be asked (a client without elicitation, 2025-era HTTP), run the
   * destructive call and leave the approval to the host; otherwise such a call is refused.
   */
  trustHostApproval: boolean
  /** Prewarmed one-shot workers kept ready (0: spawn every command cold). */
  workers: number
}

export const DEFAULT_TIMEOUT_SECONDS = 60
export const DEFAULT_MAX_OUTPUT_BYTES = 1024 * 1024
export const DEFAULT_MAX_QUEUE = 32
export const DEFAULT_WORKERS = 1
export const DEFAULT_MAX_TOOLS = 40
export const DEFAULT_MAX_BYTES = 32 * 1024

/** The flags every server command shares (src/settings/flags.ts), as parsed; any may be missing. */
export type ServerFlags = Partial<Interfaces.InferredFlags<typeof projectionFlags & typeof serverFlags>>

export function resolveSettings(author: AuthorConfig, flags: ServerFlags): Settings {
  return {
    audit: flags.audit ?? true,
    author,
    confirmDestructive: flags['confirm-destructive'] ?? author.confirmDestructive ?? false,
    defaultCwd: flags.cwd,
    maxConcurrency: flags['max-concurrency'] ?? availableParallelism(),
    maxOutputBytes: flags['max-output'] ?? author.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES,
    maxQueue: flags['max-queue'] ?? DEFAULT_MAX_QUEUE,
    projection: {
      exclude: flags.exclude ?? [],
      maxBytes: flags['max-bytes'] ?? DEFAULT_MAX_BYTES,
      maxTools: flags['max-tools'] ?? DEFAULT_MAX_TOOLS,
      profile: flags.profile,
      readOnly: flags['read-only'] ?? false,
      tools: flags.tools,
    },
    timeoutMs: 1000 * (flags.timeout ?? author.timeout ?? DEFAULT_TIMEOUT_SECONDS),
    trustHostApproval: flags['trust-host-approval'] ?? author.trustHostApproval ?? false,
    workers: flags.workers ?? author.workers ?? DEFAULT_WORKERS,
  }
}
