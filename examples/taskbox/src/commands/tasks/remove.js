import {Args, Command} from '@oclif/core'

import {findTask, loadStore, saveStore} from '../../store.js'

export default class Remove extends Command {
  static summary = 'Delete a task for good.'
  static examples = ['<%= config.bin %> <%= command.id %> 3']
  static aliases = ['tasks:rm']
  static enableJsonFlag = true
  static args = {
    id: Args.integer({description: 'Task id.', required: true}),
  }

  async run() {
    const {args} = await this.parse(Remove)
    const store = loadStore(this)
    const task = findTask(this, store, args.id)
    store.tasks = store.tasks.filter((t) => t !== task)
    saveStore(store)
    this.log(`Removed task ${task.id}: ${task.title}`)
    return {removed: task}
  }
}
