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
const SELF_MANAGEMENT_IDS = new Set(['update', 'upgrade'])

/**
 * A summary that says the command installs, updates or upgrades the CLI itself ("Upgrades Shopify CLI.", "Enable
 * automatic upgrades for Shopify CLI."), not something the CLI keeps ("update Twilio CLI configurations").
 */
const UPDATES_THE_CLI =
  /\b(?:install|reinstall|uninstall|update|upgrade)(?:s|d|ing)?(?:\s+(?:the|this|for|of))?(?:\s+[\w-]+)?\s+CLI\b(?!\s+(?:alias|config|credential|option|profile|propert|setting))/i

/** Why a command manages the CLI itself, or undefined when it does not. `summary` is the rendered summary. */
export function selfManagementReason(command: Pick<Command.Cached, 'id' | 'pluginName'>, summary: string): string | undefined {
  if (command.pluginName && SELF_MANAGEMENT_PLUGINS.has(command.pluginName)) return `provided by ${command.pluginName}, which manages the CLI itself`
  const root = command.id.split(':')[0]
  if (SELF_MANAGEMENT_ROOTS.has(root)) return `a ${root} command: it manages the CLI's own ${root === 'plugins' ? 'plugins' : 'shell completion'}`
  if (SELF_MANAGEMENT_IDS.has(command.id)) return 'it updates the CLI itself'
  if (UPDATES_THE_CLI.test(summary)) return `its summary says it changes how the CLI is installed or updated ("${summary}")`
  return undefined
}
