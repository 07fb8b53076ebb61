import type {Config} from '@oclif/core'

/** The id as people type it: `tasks:add` → `tasks add` in a CLI whose topic separator is a space. */
export function displayId(id: string, config: Pick<Config, 'topicSeparator'>): string {
  return config.topicSeparator === ' ' ? id.replaceAll(':', ' ') : id
}

/** One of this plugin's commands as the host parses it: `['mcp', 'stdio']` where topics are separated by spaces, `['mcp:stdio']` where by `:`. */
export function ourCommandWords(config: Pick<Config, 'topicSeparator'>, command: string): string[] {
  return config.topicSeparator === ' ' ? ['mcp', command] : [`mcp:${command}`]
}

/**
 * One of this plugin's commands as the host CLI spells it: `mycli mcp stdio` where topics are separated by spaces,
 * `heroku mcp:stdio` where by `:` (oclif's default). Every command line this plugin prints goes through here.
 */
export function spelled(config: Pick<Config, 'bin' | 'topicSeparator'>, command: string, ...rest: string[]): string {
  return [config.bin, ...ourCommandWords(config, command), ...rest].join(' ')
}
