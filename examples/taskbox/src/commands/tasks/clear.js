import {Command, Flags} from '@oclif/core'
import {createInterface} from 'node:readline'

import {loadStore, saveStore} from '../../store.js'

function ask(question) {
  return new Promise((resolve) => {
    const rl = createInterface({input: process.stdin, output: process.stderr})
    let answered = false
    rl.question(question, (answer) => {
      answered = true
      rl.close()
      resolve(answer)
    })
    rl.on('close', () => answered || resolve(undefined))
  })
}

export default class Clear extends Command {
  static summary = 'Delete every done task, after asking.'
  static description = 'Asks for confirmation on the terminal unless --yes is given.'
  static examples = ['<%= config.bin %> <%= command.id %> --yes']
  static flags = {
    yes: Flags.boolean({char: 'y', description: 'Do not ask for confirmation.'}),
  }

  async run() {
    const {flags} = await this.parse(Clear)
    const store = loadStore(this)
    const done = store.tasks.filter((t) => t.done)
    if (!flags.yes) {
      const answer = await ask(`Delete ${done.length} done task(s)? [y/N] `)
      if (answer === undefined) this.error('No answer: standard input is closed. Pass --yes to skip the question.', {exit: 6})
      if (!/^y(es)?$/i.test(answer.trim())) this.error('Cancelled.', {exit: 7})
    }

    store.tasks = store.tasks.filter((t) => !t.done)
    saveStore(store)
    this.log(`Deleted ${done.length} done task(s).`)
  }
}
