import type {CallToolResult} from '@modelcontextprotocol/server'
import {Args, Flags} from '@oclif/core'

import {HostCommand} from '../../host/command.js'
import {CallRequestError, callToolInProcess, readToolArguments, resultText, secretKeysIn} from '../../mcp/in-process-client.js'
import {prepareServerFor} from '../../mcp/lifecycle.js'
import {terminalAsker, terminalFormAsker} from '../../cli/terminal-ask.js'
import {serverFlags} from '../../settings/server-options.js'

function withoutForeground<T extends {foreground: unknown}>(flags: T): Omit<T, 'foreground'> {
  const {foreground, ...rest} = flags
  void foreground
  return rest
}

export default class McpCall extends HostCommand {
  static summary = 'Call one MCP tool of this CLI and print its result.'
  static description = `Runs one tool exactly as "mcp stdio" and "mcp serve" would: the same tools, argument validation, capability boundary and results, through an in-process server and the official MCP client. Useful to try a tool, or to script one without an MCP host.

Arguments are a JSON object, from --args or, when --args is absent and standard input is not a terminal, from standard input. Prints the result's text (on stderr when it is an error); with --json, the whole CallToolResult. Exits 1 when the result is an error (isError). An unknown tool, or arguments that are not a JSON object, are refused before anything runs.

With --confirm-destructive, a destructive command is put to you at the terminal first (y/N); with no terminal to ask at, it is refused unless --trust-host-approval.`
  static enableJsonFlag = true
  static args = {
    tool: Args.string({description: 'Tool name, as "mcp tools" lists it (e.g. tasks_add, find_commands).', required: true}),
  }
  static examples = [
    {command: `<%= config.bin %> <%= command.id %> cli_info`, description: 'A built-in tool, no arguments'},
    {command: `<%= config.bin %> <%= command.id %> find_commands --args '{"query": "list"}'`, description: 'Search the commands'},
    {command: `echo '{"query": "delete"}' | <%= config.bin %> <%= command.id %> find_commands --json`, description: 'Arguments from standard input; the raw CallToolResult as JSON'},
  ]
  static flags = {
    // No --foreground: `mcp call` waits for its command to end (its process ends with the call, so a job could not outlive it).
    ...withoutForeground(serverFlags),
    args: Flags.string({description: 'The tool\'s arguments as a JSON object (default: standard input when piped, else none).'}),
  }

  async run(): Promise<CallToolResult> {
    const {args, flags} = await this.parse(McpCall)
    const prepared = prepareServerFor(this, flags, {background: false})

    // Under --confirm-destructive the person is asked at the terminal; with none (a script), destructive calls are refused.
    const {settings} = prepared
    const ask = settings.confirmDestructive ? terminalAsker() : undefined
    if (settings.confirmDestructive && !ask && !settings.trustHostApproval) {
      this.warn('--confirm-destructive: there is no terminal to ask at, so a destructive command will be refused (--trust-host-approval runs it unasked).')
    }

    let result: CallToolResult
    try {
      const toolArgs = await readToolArguments(flags.args)
      const secret = flags.args === undefined ? [] : secretKeysIn(prepared.plan, args.tool, toolArgs)
      if (secret.length > 0) {
        this.warn(`--args holds ${secret.map((key) => `"${key}"`).join(', ')}, named like a secret: this command's own command line, readable by every local user while it runs, shows it. Pass the arguments on standard input instead (echo '{…}' | ${this.config.bin} … ${args.tool}).`)
      }

      // A running command's questions are asked at the terminal too, where there is one.
      result = await callToolInProcess(prepared.plan, prepared.env, args.tool, toolArgs, ask, terminalFormAsker())
    } catch (error) {
      if (error instanceof CallRequestError) this.error(error.message, {code: error.code, exit: 2, suggestions: error.suggestions})
      throw error
    } finally {
      await prepared.dispose()
    }

    if (result.isError) {
      process.exitCode = 1
      if (!this.jsonEnabled()) this.logToStderr(resultText(result))
    } else {
      this.log(resultText(result))
    }

    return result
  }
}
