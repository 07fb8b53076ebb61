import type {Config} from '@oclif/core'

import {randomBytes} from 'node:crypto'
import {join} from 'node:path'

import type {Settings} from '../../settings/settings.js'
import type {Boundary} from '../exposure/projection.js'
import type {IdempotencyRecords, OutputStream} from '../records/state-store.js'

import {hostBinScript} from '../../host/bin-script.js'
import {uriScheme} from '../../host/spelling.js'
import {AuditLog} from '../records/audit-log.js'
import {fileIdempotency} from '../records/idempotency-files.js'
import {DEFAULT_KEPT_CHARS, OutputStore} from '../records/output-store.js'
import {redisIdempotency} from '../records/redis-idempotency.js'
import {RedisRecords} from '../records/redis-records.js'
import {childEnv} from './child-env.js'
import {ProcessGroups} from './child-process.js'
import {JobTable} from './job-table.js'
import {ParkedCalls} from './parked-calls.js'
import {PromptChannel} from './prompt-channel.js'
import {CommandLimiter} from './limiter.js'
import {DefaultWorkdir} from './workdir.js'
import {commandModules, hookModules} from './warm-modules.js'
import {WorkerPool} from './worker-pool.js'

/**
 * What running a command tool needs besides its input, and everything a server's calls leave running: built once per
 * server, it owns the commands in flight, the workers, the idempotency claims and the private working directory, and
 * `dispose()` ends them all.
 */
export interface CallEnvironment {
  /** Undefined when auditing is off (--no-audit). */
  readonly audit?: AuditLog
  readonly binScript: string
  /** The capability boundary: a command outside it is answered like an unknown one, whoever asks. */
  readonly boundary: Boundary
  readonly config: Config
  /** Ends every running command and idle worker, then removes the private working directory. */
  dispose(): Promise<void>
  /** The process groups of the commands running now. */
  readonly groups: ProcessGroups
  /** Files in the CLI's cache dir, or the shared store (--state). */
  readonly idempotency: IdempotencyRecords
  /** Commands that outlived their call (jobs.ts). */
  readonly jobs: JobTable
  /** 2026-07-28 calls' commands waiting for the person's answer to their question (parked-calls.ts). */
  readonly parked: ParkedCalls
  /** Where running commands' questions arrive (prompt-channel.ts). */
  readonly prompts: PromptChannel
  readonly limiter: CommandLimiter
  /**
   * Answers to the person's confirmation that were used (their one-time ids): true the first time an id is spent,
   * in this process or, with a shared store, on any replica.
   */
  spendAnswer(id: string, ms: number): Promise<boolean>
  /**
   * The key that seals the questions the server asks (mcp/elicitation.ts): random per process, or shared by every replica
   * of a shared store once open() has run, so an answer may come back to any replica.
   */
  questionKey(): Uint8Array
  /** Connects to the shared state store, when there is one; throws StateError saying what is wrong. */
  open(): Promise<void>
  /** The resource URIs of a kept output's streams (resources/read answers them while the output is kept). */
  outputLinks(id: string): Record<OutputStream, string>
  /** Whole outputs of cut results and of jobs, for read_output and resources/read. */
  readonly outputs: OutputStore
  readonly settings: Settings
  /** Kills idle workers (no more are made) and every running command: their calls end as killed, jobs as cancelled. */
  stopCommands(): void
  readonly workdir: DefaultWorkdir
  readonly workers: WorkerPool
}

/** How long dispose waits for stopped jobs to record their end. */
const DRAIN_MS = 3000

/** How many commands' modules a warm worker is told to import ahead, at most. */
const MAX_WARM_COMMANDS = 64

/** `likely`: the ids of the commands a warm worker imports ahead (the listed ones), read each time one starts. */
export function createCallEnvironment(config: Config, settings: Settings, boundary: Boundary, likely: () => readonly string[] = () => []): CallEnvironment {
  const binScript = hostBinScript(config)
  const groups = new ProcessGroups()
  const workdir = new DefaultWorkdir(settings.defaultCwd, config.bin)
  // Found once per command: a worker is started after every call, and the files do not change while the server runs.
  let hooks: string[] | undefined
  const files = new Map<string, string[]>()
  const filesOf = (id: string) => files.get(id) ?? files.set(id, commandModules(config, [id])).get(id)!
  const warm = (recent: readonly string[]) => {
    hooks ??= hookModules(config)
    return {commands: [...new Set([...recent, ...likely()].slice(0, MAX_WARM_COMMANDS).flatMap(filesOf))], hooks}
  }
  const workers = new WorkerPool({bin: binScript, env: childEnv(config, {}), root: config.root, size: settings.workers, warm})
  // With --state, what outlives a call is shared with the other replicas on the same store.
  const shared = settings.state ? new RedisRecords(settings.state, `oclif-mcp:${config.bin}`, settings.stateQuota) : undefined
  // Half of what is kept may be one person's (OAuth): the rest stays for the others' runs.
  const outputs = new OutputStore({maxChars: DEFAULT_KEPT_CHARS, perPersonChars: DEFAULT_KEPT_CHARS / 2}, shared)
  const jobs = new JobTable(outputs, shared && {replica: shared.replica, store: shared})
  const parked = new ParkedCalls()
  const prompts = new PromptChannel()
  const stopCommands = () => {
    parked.clear()
    workers.close()
    jobs.cancelAll()
    groups.killAll()
  }
  const scheme = uriScheme(config.bin)
  let questionKey: Uint8Array = randomBytes(32)
  const spent = new Map<string, number>()

  return {
    // In the CLI's data dir: the record of what was changed outlives caches.
    audit: settings.audit ? new AuditLog(join(config.dataDir, 'mcp-audit.jsonl')) : undefined,
    binScript,
    boundary,
    config,
    async dispose() {
      stopCommands()
      // The cancelled jobs' ends are written to the shared store before its connection goes.
      await jobs.settled(DRAIN_MS)
      await shared?.close()
      await workdir.dispose()
      prompts.close()
    },
    groups,
    // In the CLI's cache dir, so a retry after a server restart still finds the first run's result.
    idempotency: shared ? redisIdempotency(shared) : fileIdempotency({dir: join(config.cacheDir, 'mcp-idempotency')}),
    jobs,
    limiter: new CommandLimiter(settings.maxConcurrency, settings.maxQueue),
    async open() {
      await shared?.connect()
      if (shared) questionKey = await shared.sharedSecret('questions')
    },
    questionKey: () => questionKey,
    async spendAnswer(id, ms) {
      if (shared) return shared.consumeOnce(id, ms)
      const now = Date.now()
      for (const [old, until] of spent) if (until < now) spent.delete(old)
      if (spent.has(id)) return false
      spent.set(id, now + ms)
      return true
    },
    outputs,
    parked,
    prompts,
    outputLinks: (id) => ({stderr: `${scheme}://output/${id}/stderr`, stdout: `${scheme}://output/${id}/stdout`}),
    settings,
    stopCommands,
    workdir,
    workers,
  }
}
