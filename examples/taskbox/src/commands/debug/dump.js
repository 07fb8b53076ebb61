import {Command} from '@oclif/core'

import {loadStore} from '../../store.js'

export default class Dump extends Command {
  static hidden = true
  static summary = 'Print the raw task file (for debugging).'

  async run() {
    this.log(JSON.stringify(loadStore(this), null, 2))
  }
}
