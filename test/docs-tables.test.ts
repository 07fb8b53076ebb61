import {describe, expect, it} from '@jest/globals'
import {execFileSync} from 'node:child_process'
import {readFileSync} from 'node:fs'
import {join} from 'node:path'

import {errorCodesMarkdown, ERROR_CODES} from '../src/error-codes.js'
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

  it('state every error code as the one list has it, and src/ uses no code that is not in it', () => {
    expect(page('calls.md')).toContain(`<!-- error-codes -->\n${errorCodesMarkdown()}\n<!-- error-codesstop -->`)
    // A code is written as a quoted upper-case word where an error or a refusal is made: every such word is listed.
    const used = execFileSync('grep', ['-rhoE', String.raw`(code: |Error\(|super\(|refusal\([^,]+, |missing\([^,]+, )'[A-Z][A-Z_]+'`, join(import.meta.dirname, '..', 'src')], {encoding: 'utf8'})
    const codes = new Set([...used.matchAll(/'([A-Z][A-Z_]+)'/g)].map((m) => m[1]))
    expect(codes.size).toBeGreaterThan(10)
    expect([...codes].filter((code) => !(code in ERROR_CODES))).toEqual([])
  })

  it('are reached from the README', () => {
    const readme = readFileSync(join(import.meta.dirname, '..', 'README.md'), 'utf8')
    expect(readme).toContain('](docs/hosts.md#what-each-host-is-shown)')
    expect(readme).toContain('docs/settings.md')
  })
})
