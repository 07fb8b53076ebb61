import {Command, Flags} from '@oclif/core'

export default class Sync extends Command {
  static summary = 'Upload the task list to the team server.'
  static description = 'Needs TASKBOX_SYNC_URL. Without it the command fails, which makes it a handy example of a failing command.'
  static flags = {
    remote: Flags.string({description: 'Server URL.', env: 'TASKBOX_SYNC_URL'}),
    token: Flags.string({description: 'Access token for the server.', env: 'TASKBOX_SYNC_TOKEN'}),
  }

  async run() {
    const {flags} = await this.parse(Sync)
    if (!flags.remote) {
      this.error('No sync server configured: set TASKBOX_SYNC_URL or pass --remote.', {code: 'NO_REMOTE', exit: 4})
    }

    // Careless on purpose: real CLIs do echo credentials in errors, and the MCP server must not pass them on.
    this.error(`Cannot reach ${flags.remote} with token ${flags.token ?? '(none)'}: this example has no network code.`, {exit: 5})
  }
}
