// Build step of `npm run readme`: the table of host facts in docs/hosts.md, made from the one table the server reads
// (src/settings/agent-hosts.ts, built into dist/), between the `<!-- hosts -->` markers. test/readme-hosts.test.ts
// fails when docs/hosts.md differs from it.
import {readFileSync, writeFileSync} from 'node:fs'
import {dirname, join} from 'node:path'
import {fileURLToPath} from 'node:url'

import {agentHostsMarkdown} from '../dist/settings/agent-hosts.js'

const HOSTS = join(dirname(fileURLToPath(import.meta.url)), '../docs/hosts.md')
const text = readFileSync(HOSTS, 'utf8')
const replaced = text.replace(/<!-- hosts -->[\s\S]*?<!-- hostsstop -->/, `<!-- hosts -->\n${agentHostsMarkdown()}\n<!-- hostsstop -->`)
if (replaced === text && !text.includes(agentHostsMarkdown())) throw new Error('docs/hosts.md has no <!-- hosts --> markers')
writeFileSync(HOSTS, replaced)
