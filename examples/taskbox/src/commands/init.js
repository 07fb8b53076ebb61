import {Command, Flags} from '@oclif/core'
import {basename} from 'node:path'

import {hasStore, saveStore, storePath} from '../store.js'

export default class Init extends Command {
  static summary = 'Start a task list in the current directory.'
  static description = 'Creates .taskbox.json in the working directory. Every other command reads and writes that file.'
  static examples = ['<%= config.bin %> <%= command.id %>', '<%= config.bin %> <%= command.id %> --name groceries']
  static enableJsonFlag = true
  static flags = {
    name: Flags.string({description: 'Name of the list (default: the directory name).'}),
    force: Flags.boolean({description: 'Replace an existing list with an empty one.'}),
  }

  async run() {
    const {flags} = await this.parse(Init)
    if (hasStore() && !flags.force) {
      this.error(`A task list already exists at ${storePath()}.`, {code: 'STORE_EXISTS', exit: 2, suggestions: ['Pass --force to start over.']})
    }

    const store = {name: flags.name ?? basename(process.cwd()), nextId: 1, tasks: []}
    saveStore(store)
    this.log(`Started task list "${store.name}" in ${process.cwd()}`)
    return {name: store.name, path: storePath()}
  }
}
