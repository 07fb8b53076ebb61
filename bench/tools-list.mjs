// tools/list size per profile: bytes (and estimated tokens) of what a client receives, from the built dist/, for a
// generated 1,000-command CLI and the published heroku@11.10.0. Run: npm run bench:tools
import {Client} from '@modelcontextprotocol/client'
import {InMemoryTransport} from '@modelcontextprotocol/server'
import {Config} from '@oclif/core'
import {mkdtempSync, rmSync} from 'node:fs'
import {cpus, tmpdir} from 'node:os'
import {dirname, join} from 'node:path'
import {fileURLToPath} from 'node:url'

import {parseAuthorConfig} from '../dist/settings/author-config.js'
import {resolveSettings} from '../dist/settings/settings.js'
import {buildServerPlan} from '../dist/mcp/plan.js'
import {createServerFactory} from '../dist/mcp/factory.js'
import {callEnvironmentFor} from '../dist/mcp/lifecycle.js'
import {isolatedHome} from './common.mjs'
import {generateCli} from './generate-cli.mjs'

const here = dirname(fileURLToPath(import.meta.url))
Object.assign(process.env, isolatedHome('bench-tools-').env)

/** A rough rule of thumb for English-and-JSON text: about 4 bytes per token. */
const tokens = (bytes) => Math.round(bytes / 4)

async function measure(config, flags) {
  const plan = buildServerPlan(config, resolveSettings(parseAuthorConfig({}), flags))
  const env = callEnvironmentFor(plan)
  const server = createServerFactory(plan, env)()
  const client = new Client({name: 'bench', version: '1'})
  const [a, b] = InMemoryTransport.createLinkedPair()
  await Promise.all([server.connect(b), client.connect(a)])
  const {tools} = await client.listTools()
  await client.close()
  await server.close()
  await env.dispose()
  return {bytes: Buffer.byteLength(JSON.stringify({tools})), commands: plan.projection.band.length, reachable: plan.projection.executable.size, tools: tools.length}
}

const generatedRoot = mkdtempSync(join(tmpdir(), 'bench-tools-cli-'))
const clis = [
  {config: (generateCli(generatedRoot, 1000), await Config.load(generatedRoot)), name: 'generated, 1,000 commands', topic: 'data'},
  {config: await Config.load(join(here, '.cache/heroku/node_modules/heroku')), name: 'heroku@11.10.0', topic: 'apps'},
]
const profiles = (topic) => [
  ['every command listed (--max-tools 100000 --max-bytes 100000000)', {'max-bytes': 100_000_000, 'max-tools': 100_000}],
  ['default (40 tools, 32 KB)', {}],
  ['--read-only', {'read-only': true}],
  [`--tools ${topic}`, {tools: [topic]}],
  ['--max-tools 10', {'max-tools': 10}],
]

console.log(`machine: ${cpus().length} × ${cpus()[0]?.model}, Node ${process.version}`)
for (const cli of clis) {
  console.log(`\n${cli.name} (${cli.config.commands.length} manifest entries)`)
  console.log('| profile | tools listed | command tools | reachable commands | bytes | ~tokens |')
  console.log('| --- | ---: | ---: | ---: | ---: | ---: |')
  for (const [label, flags] of profiles(cli.topic)) {
    const m = await measure(cli.config, flags)
    console.log(`| ${label} | ${m.tools} | ${m.commands} | ${m.reachable} | ${m.bytes.toLocaleString('en')} | ${tokens(m.bytes).toLocaleString('en')} |`)
  }
}

rmSync(generatedRoot, {force: true, recursive: true})
