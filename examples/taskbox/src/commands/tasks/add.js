import {Args, Command, Flags} from '@oclif/core'

import {loadStore, saveStore} from '../../store.js'

export default class Add extends Command {
  static summary = 'Add a task.'
  static examples = [
    '<%= config.bin %> <%= command.id %> "Write the release notes" --priority 2 --tag docs --tag release',
    '<%= config.bin %> <%= command.id %> "Call the plumber" --assignee sam --notify',
  ]
  static enableJsonFlag = true
  static args = {
    title: Args.string({description: 'What needs doing.', required: true}),
  }
  static flags = {
    priority: Flags.integer({char: 'p', description: 'Priority from 1 (urgent) to 5 (someday).', min: 1, max: 5, default: 3}),
    tag: Flags.string({char: 't', description: 'Tag to attach; repeat for several.', multiple: true}),
    due: Flags.string({description: 'Due date.', helpValue: 'YYYY-MM-DD'}),
    assignee: Flags.string({description: 'Who does it.', exclusive: ['unassigned']}),
    unassigned: Flags.boolean({description: 'Leave the task unassigned.'}),
    notify: Flags.boolean({description: 'Tell the assignee.', dependsOn: ['assignee']}),
  }

  async run() {
    const {args, flags} = await this.parse(Add)
    const store = loadStore(this)
    const task = {
      id: store.nextId++,
      title: args.title,
      priority: flags.priority,
      tags: flags.tag ?? [],
      due: flags.due ?? null,
      assignee: flags.assignee ?? null,
      done: false,
    }
    store.tasks.push(task)
    saveStore(store)
    this.log(`Added task ${task.id}: ${task.title}`)
    if (flags.notify) this.log(`Notified ${task.assignee}.`)
    return task
  }
}
