import {Command} from '@oclif/core'

import {hasStore, loadStore} from '../store.js'

export default class Status extends Command {
  static description = 'Show how many tasks are open and done in the current directory.'
  static examples = ['<%= config.bin %> <%= command.id %> --json']
  static enableJsonFlag = true

  async run() {
    if (!hasStore()) {
      this.log(`No task list in ${process.cwd()}.`)
      return {directory: process.cwd(), initialized: false, open: 0, done: 0}
    }

    const store = loadStore(this)
    const done = store.tasks.filter((t) => t.done).length
    const open = store.tasks.length - done
    this.log(`${store.name}: ${open} open, ${done} done`)
    return {directory: process.cwd(), initialized: true, name: store.name, open, done}
  }
}
