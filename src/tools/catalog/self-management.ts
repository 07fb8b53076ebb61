import type {Command} from '@oclif/core'

/**
 * Commands that manage the CLI itself — install, link, update or remove plugins, update the CLI, set up shell
 * completion — are outside every server's boundary unless the author opts in (`oclif.mcp.allowSelfManagement`):
 * installing a plugin is running someone else's code in every later command and in the next server, and updating
 * the CLI swaps the code the server runs.
 */

/** The oclif plugins whose commands (and hooks) exist to manage the CLI: recognised by who provides the command. */
export const SELF_MANAGEMENT_PLUGINS: ReadonlySet<string> = new Set([
  '@oclif/plugin-autocomplete',
  '@oclif/plugin-plugins',
  '@oclif/plugin-update',
  '@oclif/plugin-warn-if-update-available',
  // Salesforce's plugin allowlist and signature checks: which plugins `plugins install` may install.
  '@salesforce/plugin-trust',
])

/**
 * The ids those plugins give their commands. A CLI that bundles them (@shopify/cli reports every command as its
 * own) or ships its own copy (heroku's autocomplete) is recognised by these instead.
 */
const SELF_MANAGEMENT_ROOTS = new Set(['autocomplete', 'plugins'])
/** Words that, alone or after `cli` or `self`, name a command that replaces the CLI (`update`, `cli:upgrade`, `self-update`). */
const UPDATE_WORDS = new Set(['latest', 'selfupdate', 'self-update', 'update', 'update-cli', 'upgrade', 'upgrade-cli'])
const SELF_WORDS = new Set(['cli', 'self'])

/**
 * A summary that says the command installs, updates or upgrades the CLI itself ("Upgrades Shopify CLI.", "Update
 * Commerce Layer CLI to the latest version", "Enable automatic upgrades for Shopify CLI."), not something the CLI
 * keeps ("update Twilio CLI configurations"): the brand before "CLI" may be up to three words.
 */
const UPDATES_THE_CLI =
  /\b(?:install|reinstall|uninstall|update|upgrade)(?:s|d|ing)?(?:\s+(?:the|this|for|of|your))?(?:\s+[\w@./-]+){0,3}?\s+CLI\b(?!\s+(?:alias|config|credential|option|profile|propert|setting))/i

/** A description that says the command installs a package globally (`npm install --location=global @acme/cli`). */
const GLOBAL_INSTALL = /\b(?:npm|pnpm|yarn)\s+(?:(?:global\s+)?(?:add|i|install|update|upgrade)\b[^\n]*?(?:\s(?:-g|--global|--location[= ]global)\b)|global\s+(?:add|upgrade)\b)/i

/** An id (or alias) that names updating the CLI: `update`, `upgrade`, `cli:update`, `self-update`, `cli latest`. */
function namesSelfUpdate(id: string): boolean {
  const words = id.toLowerCase().split(/[:\s]+/).filter(Boolean)
  const last = words.at(-1) ?? ''
  return UPDATE_WORDS.has(last) && words.slice(0, -1).every((word) => SELF_WORDS.has(word)) && (words.length > 1 || last !== 'latest')
}

/**
 * Why a command manages the CLI itself, or undefined when it does not: by who provides it, its id and its aliases
 * in every spelling, what its summary says it does, and a description that installs a package globally. `summary`
 * is the rendered summary.
 */
export function selfManagementReason(command: Pick<Command.Cached, 'id' | 'pluginName'> & Partial<Pick<Command.Cached, 'aliases' | 'description'>>, summary: string): string | undefined {
  if (command.pluginName && SELF_MANAGEMENT_PLUGINS.has(command.pluginName)) return `provided by ${command.pluginName}, which manages the CLI itself`
  const root = command.id.split(':')[0]
  if (SELF_MANAGEMENT_ROOTS.has(root)) return `a ${root} command: it manages the CLI's own ${root === 'plugins' ? 'plugins' : 'shell completion'}`
  const named = [command.id, ...(command.aliases ?? [])].find((id) => namesSelfUpdate(id))
  if (named) return named === command.id ? 'it updates the CLI itself' : `it updates the CLI itself (its alias "${named}")`
  if (UPDATES_THE_CLI.test(summary)) return `its summary says it changes how the CLI is installed or updated ("${summary}")`
  const installs = GLOBAL_INSTALL.exec(command.description ?? '')
  if (installs) return `its description says it installs a package globally ("${installs[0].trim()}")`
  return undefined
}
