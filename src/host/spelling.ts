import type {Config} from '@oclif/core'

/** What spelling needs of a host's Config: its separator setting, and its plugins (a Map on core 2–5, an array on 1). */
export type Spelling = Pick<Config, 'topicSeparator'> & {plugins?: unknown}

/**
 * A plugin that makes the host find commands by words only (`vtex deps list`; `vtex deps:list` is "not found"): oclif
 * v1 CLIs took spaced commands this way, before core 2 had a topic separator setting.
 */
const SPACED_COMMANDS = /(?:^|\/)oclif-plugin-spaced-commands$/

function takesSpacedCommands(config: Spelling): boolean {
  const {plugins} = config
  const list: unknown[] = plugins instanceof Map ? [...plugins.values()] : Array.isArray(plugins) ? plugins : []
  return list.some((plugin) => SPACED_COMMANDS.test((plugin as {name?: string} | undefined)?.name ?? ''))
}

/** The separator people type between topics: the host's setting, or a space where a plugin takes spaced commands. */
export function topicSeparator(config: Spelling): ' ' | ':' {
  return config.topicSeparator === ' ' || takesSpacedCommands(config) ? ' ' : ':'
}

/**
 * A command id as the words of a command line that runs it: one word (`tasks:add`, which oclif takes whatever its
 * separator), or each topic a word of its own where only words are understood (takesSpacedCommands).
 */
export function commandWords(config: Spelling, id: string): string[] {
  return takesSpacedCommands(config) ? id.split(':') : [id]
}

/** The id as people type it: `tasks:add` → `tasks add` in a CLI whose topic separator is a space. */
export function displayId(id: string, config: Spelling): string {
  return topicSeparator(config) === ' ' ? id.replaceAll(':', ' ') : id
}

/** One of this plugin's commands as the host parses it: `['mcp', 'stdio']` where topics are separated by spaces, `['mcp:stdio']` where by `:`. */
export function ourCommandWords(config: Spelling, command: string): string[] {
  return topicSeparator(config) === ' ' ? ['mcp', command] : [`mcp:${command}`]
}

/**
 * One of this plugin's commands as the host CLI spells it: `mycli mcp stdio` where topics are separated by spaces,
 * `heroku mcp:stdio` where by `:` (oclif's default). Every command line this plugin prints goes through here.
 */
export function spelled(config: Pick<Config, 'bin'> & Spelling, command: string, ...rest: string[]): string {
  return [config.bin, ...ourCommandWords(config, command), ...rest].join(' ')
}

/** The URI scheme of the server's resources, from the bin name: lowercase letters, digits, `+ . -`, starting with a letter. */
export function uriScheme(bin: string): string {
  const cleaned = bin.toLowerCase().replaceAll(/[^a-z0-9+.-]+/g, '-')
  return /^[a-z]/.test(cleaned) ? cleaned : `cli-${cleaned}`
}
