import {HostCommand} from '../../host/command.js'
import {formatInventory, type Inventory, takeInventory} from '../../cli/inventory.js'
import {planServerFor} from '../../mcp/lifecycle.js'
import {serverFlags} from '../../settings/server-options.js'

export default class McpTools extends HostCommand {
  static summary = 'Show the tools an MCP server of this CLI would expose.'
  static description = `Lists what "mcp stdio" or "mcp serve" started with the same flags would offer: every tool in tools/list (built-in tools and command tools, with their annotations), every command reachable only through run_command, and the totals: tools listed, the size of the typed tools, and why the other commands are left out. Nothing is started and no command runs.

HINTS: "ro" read-only or "rw" may change state, then "destructive", "idempotent", "open-world" when the tool says so.`
  static enableJsonFlag = true
  static examples = [
    {command: '<%= config.bin %> <%= command.id %>', description: 'What a default server lists'},
    {command: '<%= config.bin %> <%= command.id %> --read-only --max-tools 10', description: 'The same for a read-only server with at most 10 command tools'},
    {command: '<%= config.bin %> <%= command.id %> --json', description: 'As JSON, with the exact tool names in "listed"'},
  ]
  // The server flags too: --cwd changes the tools' descriptions, so the byte count, and all are accepted as given.
  static flags = serverFlags

  async run(): Promise<Inventory> {
    const {flags} = await this.parse(McpTools)
    const inventory = takeInventory(planServerFor(this, flags))
    this.log(formatInventory(inventory))
    return inventory
  }
}
