// Build step of `npm run readme`: the tables of docs/ made from the tables the server reads (built into dist/), each
// between its markers: the host facts in docs/hosts.md (src/settings/agent-hosts.ts) and the server options in
// docs/settings.md (src/settings/server-options.ts), the error codes in docs/calls.md (src/error-codes.ts). test/docs-tables.test.ts fails when a page differs from them.
import {readFileSync, writeFileSync} from 'node:fs'
import {dirname, join} from 'node:path'
import {fileURLToPath} from 'node:url'

import {agentHostsMarkdown} from '../dist/settings/agent-hosts.js'
import {errorCodesMarkdown} from '../dist/error-codes.js'
import {optionsMarkdown} from '../dist/settings/server-options.js'

const DOCS = join(dirname(fileURLToPath(import.meta.url)), '../docs')

/** Replaces what lies between `<!-- name -->` and `<!-- namestop -->` in a page of docs/ with `table`. */
function fill(page, name, table) {
  const file = join(DOCS, page)
  const text = readFileSync(file, 'utf8')
  const pattern = new RegExp(`<!-- ${name} -->[\\s\\S]*?<!-- ${name}stop -->`)
  if (!pattern.test(text)) throw new Error(`docs/${page} has no <!-- ${name} --> markers`)
  writeFileSync(file, text.replace(pattern, () => `<!-- ${name} -->\n${table}\n<!-- ${name}stop -->`))
}

fill('hosts.md', 'hosts', agentHostsMarkdown())
fill('settings.md', 'server-options', optionsMarkdown('server'))
fill('settings.md', 'serve-options', optionsMarkdown('http'))
fill('calls.md', 'error-codes', errorCodesMarkdown())
