import {Args, Command} from '@oclif/core'

import {findTask, loadStore} from '../../store.js'

export default class Show extends Command {
  static summary = 'Show one task.'
  static examples = ['<%= config.bin %> <%= command.id %> 3 --json']
  static enableJsonFlag = true
  static args = {
    id: Args.integer({description: 'Task id.', required: true}),
  }

  async run() {
    const {args} = await this.parse(Show)
    const task = findTask(this, loadStore(this), args.id)
    this.log(`${task.id}: ${task.title}`)
    this.log(`  priority ${task.priority}, ${task.done ? 'done' : 'open'}${task.assignee ? ', assigned to ' + task.assignee : ''}`)
    if (task.tags.length > 0) this.log(`  tags: ${task.tags.join(', ')}`)
    if (task.due) this.log(`  due ${task.due}`)
    return task
  }
}
