import {describe, expect, it} from '@jest/globals'
import {readFileSync} from 'node:fs'
import {join} from 'node:path'

import {agentHostsMarkdown} from '../src/settings/agent-hosts.js'

// Every host fact the docs state comes from the table the server reads: `npm run readme` writes it into docs/hosts.md,
// which the README links to.
describe('the host facts of docs/hosts.md', () => {
  it('are the host table, as it is now', () => {
    const hosts = readFileSync(join(import.meta.dirname, '..', 'docs', 'hosts.md'), 'utf8')
    expect(hosts).toContain(`<!-- hosts -->\n${agentHostsMarkdown()}\n<!-- hostsstop -->`)
  })

  it('are reached from the README', () => {
    const readme = readFileSync(join(import.meta.dirname, '..', 'README.md'), 'utf8')
    expect(readme).toContain('](docs/hosts.md#what-each-host-is-shown)')
  })
})
