import {Command, Flags} from '@oclif/core'
import {setTimeout as sleep} from 'node:timers/promises'

import {loadStore} from '../../store.js'

export default class Weekly extends Command {
  static summary = 'Build the weekly report (slow: it takes a few seconds).'
  static examples = ['<%= config.bin %> <%= command.id %> --delay 1']
  static enableJsonFlag = true
  static mcp = {annotations: {readOnlyHint: true, openWorldHint: false}}
  static flags = {
    delay: Flags.integer({description: 'Seconds to spend "crunching numbers".', default: 3}),
  }

  async run() {
    const {flags} = await this.parse(Weekly)
    const store = loadStore(this)
    for (let i = 1; i <= flags.delay; i++) {
      process.stderr.write(`crunching ${i}/${flags.delay}\n`)
      await sleep(1000)
    }

    const done = store.tasks.filter((t) => t.done).length
    const report = {name: store.name, total: store.tasks.length, done, open: store.tasks.length - done}
    this.log(`Weekly report for ${report.name}: ${report.done}/${report.total} done`)
    return report
  }
}
