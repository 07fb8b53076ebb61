import {describe, expect, it} from '@jest/globals'
import {readFileSync} from 'node:fs'
import {join} from 'node:path'

import {agentHostsMarkdown} from '../src/settings/agent-hosts.js'
import {optionsMarkdown} from '../src/settings/server-options.js'

// Every host fact and server option the docs state comes from the table the server reads: `npm run readme` writes
// them into docs/ (bin/docs-tables.mjs), which the README links to.
const page = (name: string) => readFileSync(join(import.meta.dirname, '..', 'docs', name), 'utf8')

describe('the tables of docs/', () => {
  it('state the host facts as the host table has them now', () => {
    expect(page('hosts.md')).toContain(`<!-- hosts -->\n${agentHostsMarkdown()}\n<!-- hostsstop -->`)
  })

  it('state every server option as the option table declares it (flag, group, default, author key, launch line)', () => {
    expect(page('settings.md')).toContain(`<!-- server-options -->\n${optionsMarkdown('server')}\n<!-- server-optionsstop -->`)
    expect(page('settings.md')).toContain(`<!-- serve-options -->\n${optionsMarkdown('http')}\n<!-- serve-optionsstop -->`)
  })

  it('are reached from the README', () => {
    const readme = readFileSync(join(import.meta.dirname, '..', 'README.md'), 'utf8')
    expect(readme).toContain('](docs/hosts.md#what-each-host-is-shown)')
    expect(readme).toContain('docs/settings.md')
  })
})
