// Build step of `npm run readme`: the README's table of host facts, made from the one table the server reads
// (src/settings/agent-hosts.ts, built into dist/), between the `<!-- hosts -->` markers. test/readme-hosts.test.ts
// fails when the README differs from it.
import {readFileSync, writeFileSync} from 'node:fs'
import {dirname, join} from 'node:path'
import {fileURLToPath} from 'node:url'

import {agentHostsMarkdown} from '../dist/settings/agent-hosts.js'

const README = join(dirname(fileURLToPath(import.meta.url)), '../README.md')
const text = readFileSync(README, 'utf8')
const replaced = text.replace(/<!-- hosts -->[\s\S]*?<!-- hostsstop -->/, `<!-- hosts -->\n${agentHostsMarkdown()}\n<!-- hostsstop -->`)
if (replaced === text && !text.includes(agentHostsMarkdown())) throw new Error('README.md has no <!-- hosts --> markers')
writeFileSync(README, replaced)
