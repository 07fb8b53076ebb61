// What the job machinery adds to a short call: a call that ends inside its foreground budget should be answered as
// before. Side by side, interleaved round by round: `status --json` on the example CLI through `mcp stdio`, with a
// warm worker and cold, for this checkout and each other checkout given (each with its own built dist/).
//   node bench/short-call.mjs                 this checkout only
//   node bench/short-call.mjs OTHER_ROOT ...  also other checkouts
import {Client} from '@modelcontextprotocol/client'
import {StdioClientTransport} from '@modelcontextprotocol/client/stdio'
import {mkdirSync, writeFileSync} from 'node:fs'
import {cpus} from 'node:os'
import {dirname, join, resolve} from 'node:path'
import {fileURLToPath} from 'node:url'

import {isolatedHome, killAtExit, median} from './common.mjs'

const here = dirname(fileURLToPath(import.meta.url))
const ROUNDS = process.argv.includes('--smoke') ? 3 : 20
const roots = [join(here, '..'), ...process.argv.slice(2).filter((a) => !a.startsWith('--')).map((r) => resolve(r))]
const {env: homeEnv, home} = isolatedHome('bench-short-')
const env = {...process.env, ...homeEnv}
const work = join(home, 'work')
mkdirSync(work, {recursive: true})
writeFileSync(join(work, '.taskbox.json'), JSON.stringify({name: 'bench', nextId: 1, tasks: []}))
const pause = (ms) => new Promise((r) => setTimeout(r, ms))

async function connect(root, workers) {
  const bin = join(root, 'examples/taskbox/bin/run.js')
  const transport = new StdioClientTransport({args: [bin, 'mcp', 'stdio', '--workers', String(workers)], command: process.execPath, cwd: work, env, stderr: 'ignore'})
  const client = new Client({name: 'bench', version: '1'})
  await client.connect(transport)
  killAtExit(transport.pid)
  return client
}

async function timedCall(client) {
  const started = performance.now()
  const result = await client.callTool({arguments: {cwd: work}, name: 'status'})
  if (result.isError) throw new Error(result.content[0].text)
  return {ms: performance.now() - started, warm: Boolean(result._meta?.['oclif-plugin-mcp/run']?.warm)}
}

const servers = []
for (const root of roots) servers.push({cold: await connect(root, 0), root, rows: {cold: [], warm: []}, warm: await connect(root, 1), warmHits: 0})
await pause(1500)
for (let round = 0; round < ROUNDS; round++) {
  for (const server of servers) {
    server.rows.cold.push((await timedCall(server.cold)).ms)
    const warm = await timedCall(server.warm)
    server.rows.warm.push(warm.ms)
    if (warm.warm) server.warmHits++
  }

  // Let each warm pool refill before the next round (it refills only after a call, never during one).
  await pause(1500)
}

console.log(`machine: ${cpus().length} × ${cpus()[0].model.split(' ').slice(0, 2).join(' ')}, Node ${process.version}; ${ROUNDS} rounds, interleaved\n`)
console.log('| checkout | MCP, warm worker (median) | MCP, cold spawn (median) | warm calls |')
console.log('| --- | ---: | ---: | ---: |')
for (const server of servers) {
  console.log(`| \`${server.root}\` | ${Math.round(median(server.rows.warm))} ms | ${Math.round(median(server.rows.cold))} ms | ${server.warmHits}/${ROUNDS} |`)
  await server.warm.close()
  await server.cold.close()
}
