import type {Config} from '@oclif/core'

import type {Settings} from '../config.js'
import type {CommandTool} from './registry.js'

import {ArgvError, buildArgv} from './argv.js'
import {CommandLimiter} from './limiter.js'
import {childEnv, hostBinScript} from './child-env.js'
import {type ToolResult, toToolResult} from './result.js'
import {runCommand} from './runner.js'
import {checkWorkdir, type DefaultWorkdir} from './workdir.js'

/** What running a command tool needs besides its input; built once per server process. */
export interface CallEnvironment {
  binScript: string
  config: Config
  limiter: CommandLimiter
  settings: Settings
  workdir: DefaultWorkdir
}

export function callEnvironment(config: Config, settings: Settings, workdir: DefaultWorkdir): CallEnvironment {
  const limiter = new CommandLimiter(settings.maxConcurrency, settings.maxQueue)
  return {binScript: hostBinScript(config), config, limiter, settings, workdir}
}

export function errorResult(message: string): ToolResult {
  return {content: [{text: message, type: 'text'}], isError: true}
}

function quote(arg: string): string {
  return /^[\w./:=@%+-]+$/.test(arg) ? arg : JSON.stringify(arg)
}

/** Runs one command tool in a child process and maps the outcome to a tool result. Never throws for a bad call. */
export async function callCommandTool(
  tool: CommandTool,
  input: Record<string, unknown>,
  env: CallEnvironment,
  signal?: AbortSignal,
): Promise<ToolResult> {
  const requested = typeof input.cwd === 'string' ? input.cwd : undefined
  const workdir = requested === undefined ? {dir: await env.workdir.get(), ok: true as const} : await checkWorkdir(requested)
  if (!workdir.ok) return errorResult(`${workdir.message} Nothing was run.`)

  let argv: string[]
  try {
    argv = buildArgv(tool.input.params, input, tool.json)
  } catch (error) {
    if (error instanceof ArgvError) return errorResult(`${error.message} Nothing was run.`)
    throw error
  }

  const slot = env.limiter.acquire(signal)
  if (!slot) {
    return errorResult(
      `Busy: ${env.limiter.maxRunning} commands are running and ${env.limiter.maxQueued} are waiting. Nothing was run; try again shortly.`,
    )
  }

  const release = await slot.catch(() => undefined)
  if (!release) return errorResult('Cancelled while waiting for a free slot. Nothing was run.')
  let outcome
  try {
    outcome = await runCommand({
      args: [env.binScript, tool.id, ...argv],
      cwd: workdir.dir,
      env: childEnv(env.config, tool.env),
      file: process.execPath,
      maxOutputBytes: env.settings.maxOutputBytes,
      signal,
      timeoutMs: tool.timeoutMs,
    })
  } finally {
    release()
  }

  const commandLine = [env.config.bin, tool.displayId, ...argv].map((a, i) => (i < 2 ? a : quote(a))).join(' ')
  return toToolResult(outcome, {argv, commandLine, cwd: workdir.dir, id: tool.id, json: tool.json}, tool.timeoutMs)
}
