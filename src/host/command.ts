import {Command, type Config, type Interfaces} from '@oclif/core'

import {claimedStdout} from './stdout-guard.cjs'

type LoadOptions = Interfaces.LoadOptions

/** Resolves once everything written to stdout so far has left the process (at once when nothing is pending). */
function stdoutDrained(): Promise<void> {
  const {stdout} = process
  if (stdout.writableLength === 0 || stdout.destroyed) return Promise.resolve()
  return new Promise((resolve) => {
    const done = () => {
      stdout.off('drain', done).off('error', done).off('close', done)
      resolve()
    }

    stdout.on('drain', done).once('error', done).once('close', done)
  })
}

/**
 * The base of this plugin's commands.
 * - A host on @oclif/core 1 (twilio-cli) hands our commands its own Config, which @oclif/core 4 reloads through
 *   `getPluginsList()`, a method core 1 does not have: it is lent one over the host's plugin list, so the reload
 *   reads the same plugins the host loaded.
 * - A command returns only once its output has left the process: bins that end with `.then(flush)` pass the
 *   command's result to `flush` as its timeout, so a large `--json` answer still in the pipe would be cut short.
 */
export abstract class HostCommand extends Command {
  static async run<T extends Command>(this: new (argv: string[], config: Config) => T, argv?: string[], opts?: LoadOptions): Promise<ReturnType<T['run']>> {
    const host = opts as undefined | {getPluginsList?: unknown; plugins?: Map<string, unknown> | unknown[]}
    if (host && typeof host === 'object' && typeof host.getPluginsList !== 'function' && host.plugins) {
      const list = Array.isArray(host.plugins) ? host.plugins : [...host.plugins.values()]
      host.getPluginsList = () => list
    }

    const result = (await Command.run.call(this, argv, opts)) as ReturnType<T['run']>
    await stdoutDrained()
    return result
  }

  /** `--json` output goes to the real stdout, which the init hook has kept for it: other plugins' noise goes to stderr. */
  logJson(json: unknown): void {
    const claimed = claimedStdout()
    if (!claimed) return super.logJson(json)
    claimed.write(`${JSON.stringify(json, null, 2)}\n`)
  }
}
