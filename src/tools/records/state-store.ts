import type {CallToolResult} from '@modelcontextprotocol/server'

import type {Execution, IdempotentOutcome} from './idempotency.js'

// What outlives a call, behind one interface: idempotency records, and (when several `mcp serve` replicas share a
// store) the status and output of jobs and the outputs kept for cut results. The embedded store is files for the
// idempotency records (idempotency-files.ts) and this process's memory for jobs and outputs; the Redis store shares
// all three between replicas (redis-idempotency.ts, redis-records.ts).

/** The two streams of a command's output. */
export type OutputStream = 'stderr' | 'stdout'
export const OUTPUT_STREAMS: readonly OutputStream[] = ['stdout', 'stderr']

/** The states of a job: the MCP tasks extension's. */
export type JobStatus = 'cancelled' | 'completed' | 'failed' | 'working'

/** One run per tool + key + arguments; a retry gets the first run's result (the protocol: idempotency.ts). */
export interface IdempotencyRecords {
  /** `principal`: whose key it is (an OAuth token's subject); one person's key never answers for another's call. */
  run(tool: string, key: string, args: unknown, execute: () => Promise<Execution>, principal?: string): Promise<IdempotentOutcome>
}

/** A job as the store keeps it, for replicas other than the one running it. */
export interface JobRecord {
  command: string
  commandLine: string
  cwd: string
  end?: {cancelled: boolean; durationMs: number; exitCode: null | number; result: CallToolResult}
  id: string
  /** The replica whose process runs the command. */
  owner: string
  /** Who started it (an OAuth token's subject): only they can follow or cancel it. */
  principal?: string
  startedAt: number
  status: JobStatus
  timeoutMs: number
}

/** Jobs and kept outputs shared between replicas; every method may throw when the store cannot be reached. */
export interface SharedRecords {
  /** Adds text written to a running job's stream (complete lines), within the store's quotas for `principal`. */
  appendOutput(id: string, stream: OutputStream, text: string, principal?: string): Promise<void>
  /** Whether some replica asked for the job to be cancelled. */
  cancelRequested(id: string): Promise<boolean>
  /** The job has ended: its record with the end, and its whole streams. */
  finishJob(record: JobRecord, streams: Record<OutputStream, string>): Promise<void>
  /** Keeps a cut result's whole output (and whose it is), within the store's quotas; answers whether it was kept. */
  keepOutput(id: string, commandLine: string, streams: Record<OutputStream, string>, principal?: string, command?: string): Promise<boolean>
  /** Says the replica running the job is alive (a job whose owner stopped saying so has lost its process). */
  ownJob(record: JobRecord): Promise<void>
  /** A job's record, and whether the replica running it is alive. */
  readJob(id: string): Promise<undefined | {alive: boolean; record: JobRecord}>
  /** A kept output (a cut result's, or a job's). */
  readOutput(id: string): Promise<undefined | {command?: string; commandLine: string; principal?: string; streams: Record<OutputStream, string>}>
  requestCancel(id: string): Promise<void>
  /** What the store is, for messages (a URL without its password). */
  readonly shown: string
}
