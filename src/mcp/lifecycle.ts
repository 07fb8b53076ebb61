import type {StateQuota} from '../settings/state-url.js'
import type {Command, Config} from '@oclif/core'

import {realpathSync} from 'node:fs'
import {resolve} from 'node:path'

import {ConfigError, parseAuthorConfig} from '../settings/author-config.js'
import {resolveSettings, type ServerFlags, type Settings} from '../settings/settings.js'
import {type CallEnvironment, createCallEnvironment} from '../tools/execution/call-environment.js'
import {buildServerPlan, type ServerPlan} from './plan.js'

// Start and end of a command: the settings and the plan (planFor: all `mcp tools`, `mcp skill` and `mcp config`
// need); for a server (`mcp stdio`, `mcp serve`, `mcp call`) also the call environment (prepareServer), its workers
// started and, on shutdown, stopCommands and dispose (tools/execution/call-environment.ts carries both out).

/** A server of one command run: its plan, what its calls run with, and how everything it starts ends. */
export interface PreparedServer {
  /** The end of every server command: no idle worker, no running command, no private working directory left. */
  dispose(): Promise<void>
  /** Connects what the server needs before it serves (the shared state store); rejects saying what is wrong. */
  open(): Promise<void>
  /** What the server's calls run with (workers, jobs, limits, kept outputs, the shared state store). */
  env: CallEnvironment
  plan: ServerPlan
  settings: Settings
  /**
   * Lets prewarmed workers start: the first once a call has run (warming earlier would compete for the CPU with the
   * first answers of this server and of the other servers a host starts with it).
   */
  startWorkers(): void
  /** Kills idle workers and every running command (their calls end as killed). */
  stopCommands(): void
}

export interface PrepareOptions {
  /** Commands still running at their foreground budget go on as jobs (false: `mcp call`, which ends with its call). */
  background?: boolean
  /** Other machines reach the server (`mcp serve --allow-remote`): calls run only where the person allowed. */
  remote?: boolean
  /** The shared state store (`mcp serve --state`). */
  state?: string
  /** What that store may hold (`--state-quota`, `--state-quota-per-person`). */
  stateQuota?: StateQuota
}

/**
 * Settings from the host's `oclif.mcp` section and the command's flags, then the plan; nothing is started. Throws
 * ConfigError (naming the bad key) when the author's settings are invalid.
 */
export function planServer(config: Config, flags: ServerFlags, {background = true, remote = false, state, stateQuota}: PrepareOptions = {}): ServerPlan {
  const author = parseAuthorConfig((config.pjson.oclif as {mcp?: unknown}).mcp)
  // Directories by their real paths, resolved as a call's cwd is (workdir.ts: the native realpath, but on Windows,
  // where it would turn a mapped drive into the share behind it), so both sides of the comparison agree.
  const real = (dir: string) => (process.platform === 'win32' ? realpathSync(resolve(dir)) : realpathSync.native(resolve(dir)))
  const dirs = {'allow-cwd': flags['allow-cwd']?.map((dir) => real(dir)), cwd: flags.cwd && real(flags.cwd)}
  const settings = {...resolveSettings(author, {...flags, ...dirs}, background, remote), state, ...(stateQuota ? {stateQuota} : {})}
  return buildServerPlan(config, settings)
}

/** The call environment a server of this plan runs its calls with (its workers wait for workers.allow()). */
export function callEnvironmentFor(plan: ServerPlan): CallEnvironment {
  // Warm workers import the listed commands ahead: the band's, fitted by the time a worker starts (after a call).
  return createCallEnvironment(plan.config, plan.settings, plan.projection, () => plan.projection.band.map((tool) => tool.id))
}

/** The plan, and the call environment a server runs its calls with (its workers wait for startWorkers). */
export function prepareServer(config: Config, flags: ServerFlags, options: PrepareOptions = {}): PreparedServer {
  const plan = planServer(config, flags, options)
  const call = callEnvironmentFor(plan)
  return {
    dispose: () => call.dispose(),
    env: call,
    open: () => call.open(),
    plan,
    settings: plan.settings,
    startWorkers() {
      call.workers.allow()
      // Whatever ends the process, no idle worker outlives it.
      process.once('exit', () => call.workers.close())
    },
    stopCommands: () => call.stopCommands(),
  }
}

/** Invalid author settings end the command with their message (exit 2), nothing half-started. */
function forCommand<T>(command: Command, make: () => T): T {
  try {
    return make()
  } catch (error) {
    if (error instanceof ConfigError) command.error(error.message, {exit: 2})
    throw error
  }
}

/** planServer for a command that only reads the plan (`mcp tools`, `mcp skill`, `mcp config`). */
export function planServerFor(command: Command, flags: ServerFlags, options?: PrepareOptions): ServerPlan {
  return forCommand(command, () => planServer(command.config, flags, options))
}

/** prepareServer for a command that serves or calls. */
export function prepareServerFor(command: Command, flags: ServerFlags, options?: PrepareOptions): PreparedServer {
  return forCommand(command, () => prepareServer(command.config, flags, options))
}
