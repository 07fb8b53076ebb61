import type {CallToolResult, InputRequiredResult} from '@modelcontextprotocol/server'

import type {Execution} from '../records/idempotency.js'
import type {CallEnvironment} from './call-environment.js'
import type {Redact} from './redact.js'

import {ownFile} from '../../host/own-files.js'
import {commandWords} from '../../host/spelling.js'
import {type CommandTool, PLUGIN_NAME} from '../catalog/registry.js'
import {finishedOutput, newOutputId} from '../records/output-store.js'
import {ArgvError, commandLineProblem, concealedArgv, type ConcealedArgv} from './argv.js'
import {CapturedStream, type RunOutcome, runChild} from './child-process.js'
import {jobView} from './job-view.js'
import type {Job, JobEnd} from './job-table.js'
import {fitResult, overBudget} from './result-budget.js'
import {errorResult, stripAnsi, toToolResult, withoutHostWarnings} from './tool-result.js'
import {checkWorkdir} from './workdir.js'
import {CallQuestions, type Prompting} from './call-questions.js'
import {avoidingFlags, shownQuestion, stopMessage} from './command-questions.js'

const ORPHAN_GUARD = ownFile('tools/execution/orphan-guard.cjs')
const SECRET_ARGV = ownFile('tools/execution/secret-argv.cjs')
const PROMPT_BRIDGE = ownFile('tools/execution/prompt-bridge.cjs')
/** The variable that gives a cold command's prompt bridge the server's address (prompt-bridge.cts reads and removes it). */
const PROMPTS_VARIABLE = 'OCLIF_MCP_PROMPTS'
/** Where the command's own arguments start in its process.argv: after node and the bin script, and the command's words. */
const FIRST_ARGUMENT = 2

/** A command silent for this long still gets a progress notification (when the client asked for progress). */
const PROGRESS_TICK_MS = 5000
/** The longest stderr line a progress message carries. */
const MAX_PROGRESS_LINE = 1000

function clipLine(line: string): string {
  return line.length <= MAX_PROGRESS_LINE ? line : `${line.slice(0, MAX_PROGRESS_LINE - 1)}…`
}

export interface Execute {
  /** Characters the result may hold for the model (resultBudget). */
  budget: number
  childVars: Record<string, string | undefined>
  /** The client can be given resource_link blocks (it speaks 2025-06-18 or later). */
  links?: boolean
  /** Whose call it is (CallContext.principal): its job and kept output are theirs. */
  principal?: string
  progress?: (message: string) => void
  /** How the command's questions reach the person (absent: nobody can be asked). */
  prompting?: Prompting
  redact: Redact
  signal?: AbortSignal
}

export interface Ran extends Execution {
  cwd?: string
  durationMs?: number
  exitCode?: null | number
  /** The job the command goes on as, when it outlived the call's foreground budget. */
  job?: Job
  /** 2026-07-28: the command asked a question, and this round asks it of the person (the command waits, parked). */
  pending?: InputRequiredResult
  /** The questions the command asked of the person in this call (never their answers). */
  questions?: CallQuestions['asked']
}

function quote(arg: string): string {
  return /^[\w./:=@%+-]+$/.test(arg) ? arg : JSON.stringify(arg)
}

/** Resolves after `ms`, unless cancelled first. */
function delay(ms: number): {cancel: () => void; done: Promise<'foreground budget'>} {
  let timer: NodeJS.Timeout | undefined
  const done = new Promise<'foreground budget'>((resolve) => {
    timer = setTimeout(() => resolve('foreground budget'), ms)
  })
  return {cancel: () => clearTimeout(timer), done}
}

/**
 * One command in a child process (a warm worker when one is ready): cwd checked, argv built, a concurrency slot
 * taken, progress streamed, the outcome mapped, redacted and fitted to the model's budget (the whole output kept
 * when it had to be cut). A command still running at its foreground budget goes on as a job, and the call answers
 * with the job's handle and its output so far. `ran` is false when nothing was started (bad input, busy), so a
 * retry may run.
 */
export async function executeCommand(tool: CommandTool, input: Record<string, unknown>, env: CallEnvironment, how: Execute): Promise<Ran> {
  const notRun = (message: string): Ran => ({ran: false, result: errorResult(how.redact(`${message} Nothing was run.`))})
  const requested = typeof input.cwd === 'string' ? input.cwd : undefined
  const workdir = requested === undefined ? {dir: await env.workdir.get(how.principal), ok: true as const} : await checkWorkdir(requested, env.settings.allowedCwd)
  if (!workdir.ok) return notRun(workdir.message)

  // What the command receives (shown, redacted, in the result), and the same with its secrets kept off every
  // process's command line (what is started).
  let concealed: ConcealedArgv
  try {
    concealed = concealedArgv(tool.input.params, input, tool.json, tool.input.flagTokens)
  } catch (error) {
    if (error instanceof ArgvError) return notRun(error.message)
    throw error
  }

  const argv = concealed.plain
  const childVars = {...how.childVars, ...concealed.env}
  const words = commandWords(env.config, tool.id)
  const secrets = concealed.secrets.map(([index, entry]): [number, string] => [FIRST_ARGUMENT + words.length + index, entry])
  const tooLong = commandLineProblem([process.execPath, env.binScript, ...words, ...concealed.argv], childVars)
  if (tooLong) return notRun(`${tooLong} Pass less in one call (a file the command reads, fewer values).`)

  const slot = env.limiter.acquire(how.signal)
  if (!slot) return notRun(`Busy: ${env.limiter.maxRunning} commands are running and ${env.limiter.maxQueued} are waiting; try again shortly.`)
  const release = await slot.catch(() => undefined)
  if (!release) return notRun('Cancelled while waiting for a free slot.')

  // Secrets come out of each argument before it is quoted, so no escaped form of one is left behind.
  const shown = argv.map((arg) => how.redact(arg))
  const commandLine = [env.config.bin, tool.displayId, ...shown].map((a, i) => (i < 2 ? a : quote(a))).join(' ')
  const readable = (raw: string) => how.redact(withoutHostWarnings(stripAnsi(raw)))

  // The command's questions come to this call (prompt-bridge.cts in its process, prompt-channel.ts here).
  const questions = new CallQuestions(how.prompting ?? {cannot: 'this client cannot be asked'}, `"${env.config.bin} ${tool.displayId}"`, how.redact)
  const enrolled = await env.prompts.enrol(questions.handler).catch(() => undefined)
  const prestarted = env.workers.take({argv: [...words, ...concealed.argv], cwd: workdir.dir, env: childVars, prompts: enrolled?.address, secrets})
  const started = Date.now()
  // Progress goes to the call while it waits, then (as a job) to whoever waits on the job.
  const watchers = new Set<(message: string) => void>(how.progress ? [how.progress] : [])
  const report = (message: string) => {
    for (const watch of watchers) watch(message)
  }

  const ticker = setInterval(() => report(`still running (${Math.round((Date.now() - started) / 1000)} s)`), PROGRESS_TICK_MS)
  // The call's cancellation stops the command only while the call waits for it: a job is stopped by cancel_job.
  const control = new AbortController()
  const onCallAbort = () => control.abort()
  if (how.signal?.aborted) control.abort()
  else how.signal?.addEventListener('abort', onCallAbort, {once: true})
  const capture = {stderr: new CapturedStream(env.settings.maxOutputBytes), stdout: new CapturedStream(env.settings.maxOutputBytes)}
  const running = runChild({
    // The guard ends the command should the server die without stopping it (orphan-guard.cts); secret values come
    // on a pipe of their own (secret-argv.cts); the bridge catches its questions (prompt-bridge.cts).
    args: ['--require', ORPHAN_GUARD, ...(secrets.length > 0 ? ['--require', SECRET_ARGV] : []), '--require', PROMPT_BRIDGE, env.binScript, ...words, ...concealed.argv],
    capture,
    cwd: workdir.dir,
    env: enrolled ? {...childVars, [PROMPTS_VARIABLE]: enrolled.address} : childVars,
    file: process.execPath,
    groups: env.groups,
    maxOutputBytes: env.settings.maxOutputBytes,
    // Redacted whole, then cut: a cut made first could leave part of a long secret in the message.
    onStderrLine: (line) => watchers.size > 0 && report(clipLine(readable(line))),
    prestarted,
    ...(secrets.length > 0 ? {secrets: JSON.stringify(secrets)} : {}),
    signal: control.signal,
    timeoutMs: tool.timeoutMs,
  }).finally(() => {
    clearInterval(ticker)
    how.signal?.removeEventListener('abort', onCallAbort)
    questions.leaveForeground()
    enrolled?.leave()
    release()
    // Warm the next worker only now: warming one while the command runs would compete with it for the CPU, and
    // warming before the server's first call would compete with the host's other servers starting (a host starts
    // them all at once and waits 3 s for each one's first answer: bench/first-answer.mjs).
    env.workers.fill()
  })

  const mapped = (outcome: RunOutcome) => {
    const ran = toToolResult({...outcome, stderr: withoutHostWarnings(stripAnsi(outcome.stderr))}, {argv: shown, commandLine, cwd: workdir.dir, id: tool.id, json: tool.json}, tool.timeoutMs)
    const result = how.redact(questions.stopped ? stoppedByQuestion(ran, tool, questions.stopped, `${env.config.bin} ${tool.displayId}`) : ran)
    // Whether a prewarmed worker ran it (diagnostics and benchmarks; the output is the same either way).
    result._meta = {[`${PLUGIN_NAME}/run`]: {warm: prestarted !== undefined}}
    return {result, streams: {stderr: readable(outcome.stderr), stdout: readable(outcome.stdout)}}
  }

  const links = (id: string) => (how.links ? env.outputLinks(id) : undefined)
  const finished = async (outcome: RunOutcome): Promise<Ran> => {
    const {result, streams} = mapped(outcome)
    const ran: Ran = {cwd: workdir.dir, durationMs: outcome.durationMs, exitCode: outcome.exitCode ?? null, questions: questions.asked, ran: !outcome.spawnError, result}
    if (!overBudget(result, how.budget)) return ran
    const id = newOutputId()
    await env.outputs.keep(finishedOutput(id, commandLine, streams, {command: tool.displayId, principal: how.principal}), {share: true})
    const size = {stderr: streams.stderr.length, stdout: streams.stdout.length}
    // An output larger than what the store may hold is not kept: the result then names no call that cannot answer.
    const kept = env.outputs.get(id) ? {id, links: links(id), size} : undefined
    return {...ran, result: fitResult(result, how.budget, kept)}
  }

  // The call waits for the command's end, its questions (each asked of the person while the foreground clock
  // stands still), or its foreground budget (then it goes on as a job).
  let foregroundLeft = tool.foregroundMs
  const background = env.settings.background && tool.foregroundMs < tool.timeoutMs
  const wait = async (): Promise<Ran> => {
    for (;;) {
      const since = Date.now()
      const budget = background ? delay(foregroundLeft) : undefined
      const first = await Promise.race([running, questions.arrival(), ...(budget ? [budget.done] : [])])
      budget?.cancel()
      if (first === 'foreground budget') return asJob()
      if (first !== 'question') return finished(first)
      foregroundLeft = Math.max(0, foregroundLeft - (Date.now() - since))
      const park = newOutputId()
      const round = await questions.askNext(park)
      if (!round) continue
      // 2026-07-28: this round ends with the question; the command waits for the round that brings the answer.
      how.signal?.removeEventListener('abort', onCallAbort)
      if (how.progress) watchers.delete(how.progress)
      env.parked.park(park, {
        expire: () => round.resume({unanswered: 'before the question expired'}),
        ...(how.principal === undefined ? {} : {principal: how.principal}),
        resume(outcome, signal) {
          // The answering round's cancellation stops the command while that round waits for it, as the first's did.
          const onRoundAbort = () => control.abort()
          if (signal?.aborted) control.abort()
          else signal?.addEventListener('abort', onRoundAbort, {once: true})
          round.resume(outcome)
          return wait().finally(() => signal?.removeEventListener('abort', onRoundAbort))
        },
      })
      return {cwd: workdir.dir, pending: round.pending, ran: true, result: {content: []}}
    }
  }

  // Past the foreground budget: the command goes on as a job, and this call answers with its handle.
  const asJob = (): Ran => {
    questions.leaveForeground()
    how.signal?.removeEventListener('abort', onCallAbort)
    if (how.progress) watchers.delete(how.progress)
    const end: Promise<JobEnd> = running.then(
      (outcome) => ({cancelled: outcome.cancelled, durationMs: outcome.durationMs, exitCode: outcome.exitCode ?? null, ...mapped(outcome)}),
      (error: unknown) => {
        const message = `The command's process failed: ${error instanceof Error ? error.message : String(error)}`
        // Said in the structured content too: hosts that show their model only that must read why.
        return {
          cancelled: false,
          durationMs: Date.now() - started,
          exitCode: null,
          result: {...errorResult(message), structuredContent: {error: {message}}},
          streams: {stderr: readable(capture.stderr.text()), stdout: readable(capture.stdout.text())},
        }
      },
    )
    // While it runs, only complete lines are shown: a line still being written could end in half a secret.
    const upToLastLine = (text: string) => text.slice(0, text.lastIndexOf('\n') + 1)
    const job = env.jobs.start({
      command: tool.displayId,
      commandLine,
      cwd: workdir.dir,
      end,
      ...(how.principal === undefined ? {} : {principal: how.principal}),
      read: (stream) => upToLastLine(readable(capture[stream].text())),
      size: () => capture.stderr.bytes + capture.stdout.bytes,
      startedAt: started,
      stop: () => control.abort(),
      timeoutMs: tool.timeoutMs,
      watchers,
    })
    const result = jobView(job, {stderr: 0, stdout: 0}, how.budget, env.outputs.get(job.id), links(job.id))
    return {cwd: workdir.dir, exitCode: null, job, questions: questions.asked, ran: true, result}
  }

  return wait()
}

/**
 * The result of a command its question ended: why, what it asked, and what to give instead, in its text and its
 * structured content (hosts show their model one or the other), with the output it wrote before.
 */
function stoppedByQuestion(result: CallToolResult, tool: CommandTool, stopped: NonNullable<CallQuestions['stopped']>, command: string): CallToolResult {
  // A confirmation the person let lapse is not the model's to skip: skipping flags are named only where nobody could be asked.
  const flags = avoidingFlags(tool, stopped.question, stopped.reason === 'nobody' || stopped.reason === 'background')
  const message = stopMessage(stopped.reason, stopped.question, command, flags, stopped.detail)
  const code = stopped.reason === 'declined' || stopped.reason === 'cancelled' ? 'QUESTION_DECLINED' : stopped.reason === 'secret' ? 'QUESTION_SECRET' : 'QUESTION_UNANSWERED'
  const structured = result.structuredContent as Record<string, unknown> | undefined
  return {
    content: [{text: message, type: 'text'}, ...result.content],
    isError: true,
    structuredContent: {...structured, code, message, question: {...shownQuestion(stopped.question), avoidWith: flags, ended: stopped.reason}},
  }
}
