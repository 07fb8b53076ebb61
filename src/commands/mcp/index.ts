import {HostCommand} from '../../host/command.js'
import {spelled, topicSeparator} from '../../host/spelling.js'

/** This plugin's commands, in the order a person meets them. */
const COMMANDS: [name: string, summary: string][] = [
  ['stdio', 'serve the commands as MCP tools on stdin/stdout (what Claude Code, Cursor and VS Code launch)'],
  ['serve', 'serve them over Streamable HTTP on POST /mcp'],
  ['config', 'print (or write) what an MCP client needs to launch the server'],
  ['skill', "write an Agent Skill for this CLI: how to use it from a shell, from the CLI's own metadata"],
  ['tools', 'show what a server would expose'],
  ['call', 'call one tool and print its result'],
]

export default class Mcp extends HostCommand {
  static summary = 'Serve this CLI as a Model Context Protocol server: the commands, as this CLI spells them.'
  static description = `Lists this plugin's commands as this CLI spells them. In a CLI whose topic separator is ":" (oclif's default, heroku's), "mcp stdio" is not a command: "mcp:stdio" is. Given one of them the other way round, it says how to spell it and exits 2, so an MCP host configured with the wrong spelling fails at once instead of waiting for a server that never answers.`
  static strict = false
  static examples = ['<%= config.bin %> <%= command.id %>']

  async run(): Promise<void> {
    // Read as given: the flags belong to the command it stands for (`mcp stdio --cwd DIR`), so none is refused here.
    await this.parse(Mcp).catch(() => {})
    const [first, ...rest] = this.argv
    if (first && COMMANDS.some(([name]) => name === first)) {
      this.error(`This CLI spells it "${spelled(this.config, first)}" (its topic separator is "${topicSeparator(this.config)}"). Run: ${spelled(this.config, first, ...rest)}`, {exit: 2})
    }

    if (first) this.error(`No mcp command "${first}". The commands are: ${COMMANDS.map(([name]) => spelled(this.config, name)).join(', ')}.`, {exit: 2})
    this.log(COMMANDS.map(([name, summary]) => `${spelled(this.config, name).padEnd(this.config.bin.length + 12)}  ${summary}`).join('\n'))
  }
}
