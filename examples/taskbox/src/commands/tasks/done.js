import {Args, Command} from '@oclif/core'

import {findTask, loadStore, saveStore} from '../../store.js'

export default class Done extends Command {
  static summary = 'Mark a task as done.'
  static examples = ['<%= config.bin %> <%= command.id %> 3']
  static args = {
    id: Args.integer({description: 'Task id.', required: true}),
  }

  async run() {
    const {args} = await this.parse(Done)
    const store = loadStore(this)
    const task = findTask(this, store, args.id)
    task.done = true
    saveStore(store)
    this.log(`Done: ${task.title}`)
  }
}
