import {Command, type Config, type Interfaces} from '@oclif/core'

type LoadOptions = Interfaces.LoadOptions

/**
 * The base of this plugin's commands. A host on @oclif/core 1 (twilio-cli) hands our commands its own Config, which
 * @oclif/core 4 reloads through `getPluginsList()`, a method core 1 does not have: it is lent one over the host's
 * plugin list, so the reload reads the same plugins the host loaded.
 */
export abstract class HostCommand extends Command {
  static async run<T extends Command>(this: new (argv: string[], config: Config) => T, argv?: string[], opts?: LoadOptions): Promise<ReturnType<T['run']>> {
    const host = opts as undefined | {getPluginsList?: unknown; plugins?: Map<string, unknown> | unknown[]}
    if (host && typeof host === 'object' && typeof host.getPluginsList !== 'function' && host.plugins) {
      const list = Array.isArray(host.plugins) ? host.plugins : [...host.plugins.values()]
      host.getPluginsList = () => list
    }

    return Command.run.call(this, argv, opts) as Promise<ReturnType<T['run']>>
  }
}
