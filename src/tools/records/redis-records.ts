import type {JobRecord, OutputStream, SharedRecords} from './state-store.js'

import {LEASE_MS, RedisConnection} from './redis-connection.js'
import {quotaFull} from './redis-quota.js'

// The jobs and kept outputs every `mcp serve` replica on one Redis shares (the idempotency records there are
// redis-idempotency.ts): a job's record, its lease and cancel request, its streams, and cut results' whole outputs.

/** Jobs and outputs are kept this long after they end (as in one server: jobs.ts JOB_RETENTION_MS). */
const KEPT_MS = 60 * 60 * 1000

/** What an output's meta key holds: its command line, whose run it was, and of which command. */
function outputMeta(commandLine: string, principal: string | undefined, command: string | undefined): string {
  return JSON.stringify({command, commandLine, principal})
}

/** An output's meta key read back; a replica of an earlier version wrote the command line alone. */
function readOutputMeta(meta: string): {command?: string; commandLine: string; principal?: string} {
  if (!meta.startsWith('{')) return {commandLine: meta}
  try {
    return JSON.parse(meta) as {command?: string; commandLine: string; principal?: string}
  } catch {
    return {commandLine: meta}
  }
}

/** The connection to Redis, with the jobs and outputs kept in it. */
export class RedisRecords extends RedisConnection implements SharedRecords {
  /** Running jobs of this replica whose output stopped being mirrored: a quota was reached. */
  private readonly unmirrored = new Set<string>()

  /** Appends to a running job's stream, within the quotas; past one, the job's output is no longer mirrored. */
  async appendOutput(id: string, stream: OutputStream, text: string, principal?: string): Promise<void> {
    if (this.unmirrored.has(id)) return
    const key = this.key('out', id, stream)
    const bytes = Buffer.byteLength(text)
    // Reserved for as long as the key lives after this append; the whole streams are reserved again when the job ends.
    if ((await this.reserve(id, bytes, KEPT_MS + LEASE_MS * 4, principal)) !== 'ok') {
      this.unmirrored.add(id)
      return
    }

    await this.cmd((redis) => redis.multi().append(key, text).pExpire(key, KEPT_MS + LEASE_MS * 4).exec())
  }

  async cancelRequested(id: string): Promise<boolean> {
    return (await this.cmd((redis) => redis.exists(this.key('job-cancel', id)))) === 1
  }

  /**
   * The job's end and its whole streams, within the quotas; past one, its record is kept with a result that says its
   * output was not kept, and the output is not there to read.
   */
  async finishJob(record: JobRecord, streams: Record<OutputStream, string>): Promise<void> {
    this.unmirrored.delete(record.id)
    const expiration = {expiration: {type: 'PX' as const, value: KEPT_MS}}
    const bytes = Buffer.byteLength(streams.stdout) + Buffer.byteLength(streams.stderr) + Buffer.byteLength(JSON.stringify(record))
    const room = await this.reserve(record.id, bytes, KEPT_MS, record.principal)
    if (room !== 'ok' && record.end) {
      const message = `The output and result of job ${record.id} were not kept in the shared state store: ${quotaFull(this.quota, room)}. It ended with exit code ${record.end.exitCode ?? 'none'}.`
      const end = {...record.end, result: {content: [{text: message, type: 'text' as const}], isError: record.end.result.isError ?? false, structuredContent: {message, outputForgotten: true}}}
      await this.cmd((redis) =>
        redis
          .multi()
          .set(this.key('job', record.id), JSON.stringify({...record, end}), expiration)
          .del([this.key('out', record.id, 'stdout'), this.key('out', record.id, 'stderr'), this.key('out', record.id, 'meta'), this.key('job-lease', record.id)])
          .exec(),
      )
      return
    }

    await this.cmd((redis) =>
      redis
        .multi()
        .set(this.key('job', record.id), JSON.stringify(record), expiration)
        .set(this.key('out', record.id, 'stdout'), streams.stdout, expiration)
        .set(this.key('out', record.id, 'stderr'), streams.stderr, expiration)
        .set(this.key('out', record.id, 'meta'), outputMeta(record.commandLine, record.principal, record.command), expiration)
        .del(this.key('job-lease', record.id))
        .exec(),
    )
  }

  /** Keeps a cut result's whole output, within the quotas; answers whether it was kept (past a quota, it is not). */
  async keepOutput(id: string, commandLine: string, streams: Record<OutputStream, string>, principal?: string, command?: string): Promise<boolean> {
    const meta = outputMeta(commandLine, principal, command)
    const bytes = Buffer.byteLength(streams.stdout) + Buffer.byteLength(streams.stderr) + Buffer.byteLength(meta)
    if ((await this.reserve(id, bytes, KEPT_MS, principal)) !== 'ok') return false
    const expiration = {expiration: {type: 'PX' as const, value: KEPT_MS}}
    await this.cmd((redis) =>
      redis
        .multi()
        .set(this.key('out', id, 'stdout'), streams.stdout, expiration)
        .set(this.key('out', id, 'stderr'), streams.stderr, expiration)
        .set(this.key('out', id, 'meta'), meta, expiration)
        .exec(),
    )
    return true
  }

  async ownJob(record: JobRecord): Promise<void> {
    const expiration = {expiration: {type: 'PX' as const, value: record.timeoutMs + KEPT_MS}}
    await this.cmd((redis) =>
      redis
        .multi()
        .set(this.key('job', record.id), JSON.stringify(record), expiration)
        .set(this.key('out', record.id, 'meta'), outputMeta(record.commandLine, record.principal, record.command), expiration)
        .set(this.key('job-lease', record.id), this.replica, {expiration: {type: 'PX', value: LEASE_MS}})
        .exec(),
    )
  }

  async readJob(id: string): Promise<undefined | {alive: boolean; record: JobRecord}> {
    const [text, lease] = await this.cmd((redis) => redis.mGet([this.key('job', id), this.key('job-lease', id)]))
    if (!text) return undefined
    const record = JSON.parse(text) as JobRecord
    return {alive: record.status !== 'working' || lease !== null, record}
  }

  async readOutput(id: string): Promise<undefined | {command?: string; commandLine: string; principal?: string; streams: Record<OutputStream, string>}> {
    const [meta, stdout, stderr] = await this.cmd((redis) => redis.mGet([this.key('out', id, 'meta'), this.key('out', id, 'stdout'), this.key('out', id, 'stderr')]))
    if (meta === null) return undefined
    const {command, commandLine, principal} = readOutputMeta(meta)
    return {...(command === undefined ? {} : {command}), commandLine, ...(principal === undefined ? {} : {principal}), streams: {stderr: stderr ?? '', stdout: stdout ?? ''}}
  }

  async requestCancel(id: string): Promise<void> {
    await this.cmd((redis) => redis.set(this.key('job-cancel', id), this.replica, {expiration: {type: 'PX', value: KEPT_MS}}))
  }
}
