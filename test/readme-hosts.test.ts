import {describe, expect, it} from '@jest/globals'
import {readFileSync} from 'node:fs'
import {join} from 'node:path'

import {agentHostsMarkdown} from '../src/settings/agent-hosts.js'

// Every host fact the README states comes from the table the server reads: `npm run readme` writes it there.
describe('the README\'s host facts', () => {
  it('are the host table, as it is now', () => {
    const readme = readFileSync(join(import.meta.dirname, '..', 'README.md'), 'utf8')
    expect(readme).toContain(`<!-- hosts -->\n${agentHostsMarkdown()}\n<!-- hostsstop -->`)
  })
})
