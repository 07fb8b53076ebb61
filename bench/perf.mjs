// Speed and memory, measured side by side in one run (this machine is shared and noisy: compare within a run).
//   node bench/perf.mjs           full run (taskbox, and heroku@11.10.0 when bench/setup-heroku.sh installed it)
//   node bench/perf.mjs --smoke   a few rounds of each, for CI: it must run and print figures; timing is not judged
//   node bench/perf.mjs --http    the HTTP figures only
// Needs the built dist/ (npm run build). Figures: per-call latency (MCP with a warm worker, MCP cold, the CLI run
// directly), stdio start-up (until the initialize answer) vs the CLI's own --version, HTTP throughput and latency at
// 32 connections vs a bare createMcpHandler server, and resident memory.
import {Client} from '@modelcontextprotocol/client'
import {StdioClientTransport} from '@modelcontextprotocol/client/stdio'
import autocannon from 'autocannon'
import {execFile, spawn} from 'node:child_process'
import {existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync} from 'node:fs'
import {cpus} from 'node:os'
import {dirname, join} from 'node:path'
import {fileURLToPath} from 'node:url'
import {promisify} from 'node:util'

import {isolatedHome, killAtExit, median, untilInitialized} from './common.mjs'

const here = dirname(fileURLToPath(import.meta.url))
const root = join(here, '..')
const smoke = process.argv.includes('--smoke')
const ROUNDS = smoke ? 3 : 15
const LOAD_SECONDS = smoke ? 2 : 10
const run = promisify(execFile)
const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms))
const ms = (x) => `${Math.round(x)} ms`
const mb = (bytes) => `${(bytes / 1024 / 1024).toFixed(0)} MB`

// A home of our own: no user config or plugins leak in; the plugin is linked where a CLI needs it.
const {env: homeEnv, home} = isolatedHome('bench-perf-')
const env = {...process.env, ...homeEnv}
const work = join(home, 'work')
mkdirSync(work, {recursive: true})
writeFileSync(join(work, '.taskbox.json'), JSON.stringify({name: 'bench', nextId: 1, tasks: []}))

const clis = [{bin: join(root, 'examples/taskbox/bin/run.js'), command: ['status', '--json'], mcp: ['mcp', 'stdio'], name: 'taskbox (example)', refillMs: 1500, tool: 'status'}]
const heroku = join(here, '.cache/heroku/node_modules/heroku')
if (existsSync(heroku)) {
  mkdirSync(join(home, 'data/heroku'), {recursive: true})
  const plugins = [{name: 'oclif-plugin-mcp', root, type: 'link'}]
  writeFileSync(join(home, 'data/heroku/package.json'), JSON.stringify({oclif: {plugins, schema: 1}, private: true}))
  clis.push({bin: join(heroku, 'bin/run.js'), command: ['version'], mcp: ['mcp:stdio', '--tools', 'version'], name: 'heroku@11.10.0 (347 commands)', refillMs: 4000, tool: 'version'})
}

function rss(pid) {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) * 1024
  } catch {
    return 0
  }
}

function childrenOf(pid) {
  return readdirSync('/proc')
    .filter((p) => /^\d+$/.test(p))
    .filter((p) => {
      try {
        return readFileSync(`/proc/${p}/stat`, 'utf8').split(') ')[1].split(' ')[1] === String(pid)
      } catch {
        return false
      }
    })
    .map(Number)
}

async function connect(cli, workers) {
  const transport = new StdioClientTransport({args: [cli.bin, ...cli.mcp, '--workers', String(workers)], command: process.execPath, cwd: work, env, stderr: 'ignore'})
  const client = new Client({name: 'bench', version: '1'})
  await client.connect(transport)
  return {client, pid: killAtExit(transport.pid)}
}

async function timed(fn) {
  const started = performance.now()
  await fn()
  return performance.now() - started
}

async function callLatency(cli) {
  const warm = await connect(cli, 1)
  const cold = await connect(cli, 0)
  await pause(cli.refillMs)
  const rows = {cold: [], direct: [], warm: []}
  let warmHits = 0
  const call = (c) => c.client.callTool({arguments: {cwd: work}, name: cli.tool})
  for (let i = 0; i < ROUNDS; i++) {
    rows.direct.push(await timed(() => run(cli.bin, cli.command, {cwd: work, env})))
    rows.cold.push(await timed(() => call(cold)))
    let result
    rows.warm.push(await timed(async () => (result = await call(warm))))
    if (result._meta?.['oclif-plugin-mcp/run']?.warm) warmHits++
    if (result.isError) throw new Error(`${cli.tool} failed: ${result.content[0].text}`)
    await pause(cli.refillMs)
  }

  const workerRss = childrenOf(warm.pid).map(rss).reduce((a, b) => a + b, 0)
  await warm.client.close()
  await cold.client.close()
  const [d, w, c] = [median(rows.direct), median(rows.warm), median(rows.cold)]
  return {c, d, w, warmHits, workerRss}
}

/**
 * Start-up of `mcp stdio` next to the CLI's own --version, and, in the same rounds, the two floors under it: Node
 * itself (`node -e 0`) and a bare SDK server with no CLI (bench/bare-stdio.mjs). No `mcp stdio` can start faster
 * than the CLI's own start plus what the SDK costs on top of Node.
 */
async function startup(cli) {
  const times = {bare: [], node: [], stdio: [], version: []}
  for (let i = 0; i < ROUNDS; i++) {
    times.version.push(await timed(() => run(cli.bin, ['--version'], {cwd: work, env})))
    times.stdio.push(await timed(() => untilInitialized(process.execPath, [cli.bin, ...cli.mcp, '--workers', '0'], {cwd: work, env})))
    times.bare.push(await timed(() => untilInitialized(process.execPath, [join(here, 'bare-stdio.mjs')], {cwd: work, env})))
    times.node.push(await timed(() => run(process.execPath, ['-e', '0'])))
  }

  return Object.fromEntries(Object.entries(times).map(([key, values]) => [key, median(values)]))
}

/** Starts an HTTP server and resolves with its URL; rejects if it exits or prints none within 60 s. */
function startServer(args) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, {cwd: work, env, stdio: ['ignore', 'pipe', 'pipe']})
    killAtExit(child.pid)
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000)
    const seen = (chunk) => {
      const url = /(http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(String(chunk))?.[1]
      if (!url) return
      clearTimeout(timer)
      resolve({child, url})
    }

    child.stdout.on('data', seen)
    child.stderr.on('data', seen)
    child.once('exit', () => reject(new Error(`${args.join(' ')} exited before listening`)))
  })
}

const META = {'io.modelcontextprotocol/clientCapabilities': {}, 'io.modelcontextprotocol/clientInfo': {name: 'bench', version: '1'}, 'io.modelcontextprotocol/protocolVersion': '2026-07-28'}
function modernRequest(method, params = {}) {
  const headers = {Accept: 'application/json, text/event-stream', 'Content-Type': 'application/json', 'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': method}
  if (params.name) headers['Mcp-Name'] = params.name
  return {body: JSON.stringify({id: 1, jsonrpc: '2.0', method, params: {...params, _meta: META}}), headers, method: 'POST'}
}

async function load(url, request, pid) {
  let peak = 0
  const sampler = setInterval(() => (peak = Math.max(peak, rss(pid))), 200)
  const result = await autocannon({connections: 32, duration: LOAD_SECONDS, url, ...request})
  clearInterval(sampler)
  return {errors: result.errors + result.non2xx, p50: result.latency.p50, p99: result.latency.p99, peak, rps: result.requests.average}
}

async function http() {
  const ours = await startServer([join(root, 'examples/taskbox/bin/run.js'), 'mcp', 'serve', '--port', '0', '--workers', '0'])
  const bare = await startServer([join(here, 'bare-server.mjs')])
  try {
    await pause(1000)
    const idle = rss(ours.child.pid)
    const rows = []
    for (const [label, oursRequest, bareRequest] of [
      ['tools/list', modernRequest('tools/list'), modernRequest('tools/list')],
      ['tools/call (cli_info vs echo)', modernRequest('tools/call', {arguments: {}, name: 'cli_info'}), modernRequest('tools/call', {arguments: {text: 'x'}, name: 'echo'})],
    ]) {
      const a = await load(ours.url, oursRequest, ours.child.pid)
      const b = await load(bare.url, bareRequest, bare.child.pid)
      rows.push({a, b, label})
    }

    return {idle, rows}
  } finally {
    ours.child.kill('SIGTERM')
    bare.child.kill('SIGTERM')
  }
}

console.log(`# oclif-plugin-mcp performance (${smoke ? 'smoke' : 'full'} run)\n`)
console.log(`machine: ${cpus().length} × ${cpus()[0]?.model}, Node ${process.version}, ${new Date().toISOString()}\n`)
// --http: the HTTP figures only.
const httpOnly = process.argv.includes('--http')
if (!httpOnly) {
console.log('## Command call latency (median of', ROUNDS, 'rounds, interleaved)\n')
console.log('| CLI | run directly | MCP, warm worker | MCP, cold spawn | warm / direct | cold / direct | warm calls | worker RSS |')
console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |')
for (const cli of clis) {
  const r = await callLatency(cli)
  console.log(`| ${cli.name} \`${cli.command.join(' ')}\` | ${ms(r.d)} | ${ms(r.w)} | ${ms(r.c)} | ${(r.w / r.d).toFixed(2)}× | ${(r.c / r.d).toFixed(2)}× | ${r.warmHits}/${ROUNDS} | ${mb(r.workerRss)} |`)
}

console.log('\n## stdio start-up: spawn until the initialize answer vs the CLI\'s own cold --version (median)\n')
console.log('| CLI | --version | mcp stdio → initialize | ratio | node -e 0 | bare SDK server → initialize | floor: --version + SDK | floor ratio |')
console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |')
for (const cli of clis) {
  const r = await startup(cli)
  const floor = r.version + r.bare - r.node
  console.log(`| ${cli.name} | ${ms(r.version)} | ${ms(r.stdio)} | ${(r.stdio / r.version).toFixed(2)}× | ${ms(r.node)} | ${ms(r.bare)} | ${ms(floor)} | ${(floor / r.version).toFixed(2)}× |`)
}
}

console.log(`\n## HTTP at 32 connections, ${LOAD_SECONDS} s each, 2026-07-28 requests (autocannon)\n`)
const h = await http()
console.log('| request | mcp serve req/s | p50 / p99 | bare handler req/s | p50 / p99 | ratio | errors | mcp serve peak RSS |')
console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |')
for (const {a, b, label} of h.rows) {
  console.log(`| ${label} | ${Math.round(a.rps)} | ${a.p50} / ${a.p99} ms | ${Math.round(b.rps)} | ${b.p50} / ${b.p99} ms | ${(a.rps / b.rps).toFixed(2)}× | ${a.errors + b.errors} | ${mb(a.peak)} |`)
}

console.log(`\nmcp serve (taskbox) idle RSS: ${mb(h.idle)}`)
