import {Command, Flags} from '@oclif/core'

import {loadStore} from '../../store.js'

export default class List extends Command {
  static summary = 'List tasks, most urgent first.'
  static examples = ['<%= config.bin %> <%= command.id %> --status all --json', '<%= config.bin %> <%= command.id %> --tag docs --limit 5']
  static enableJsonFlag = true
  static aliases = ['ls']
  static flags = {
    status: Flags.string({description: 'Which tasks to show.', options: ['open', 'done', 'all'], default: 'open'}),
    tag: Flags.string({description: 'Only tasks with this tag; repeat to match any of several.', multiple: true}),
    limit: Flags.integer({description: 'At most this many tasks.', default: 20}),
    header: Flags.boolean({description: 'Print a header line.', allowNo: true, default: true}),
  }

  async run() {
    const {flags} = await this.parse(List)
    const store = loadStore(this)
    const tasks = store.tasks
      .filter((t) => flags.status === 'all' || (flags.status === 'done') === t.done)
      .filter((t) => !flags.tag || flags.tag.some((tag) => t.tags.includes(tag)))
      .sort((a, b) => a.priority - b.priority || a.id - b.id)
      .slice(0, flags.limit)
    if (flags.header) this.log(`${store.name} (${tasks.length} shown)`)
    for (const t of tasks) this.log(`${t.done ? '[x]' : '[ ]'} ${t.id}  p${t.priority}  ${t.title}${t.tags.length > 0 ? '  #' + t.tags.join(' #') : ''}`)
    return {name: store.name, tasks}
  }
}
