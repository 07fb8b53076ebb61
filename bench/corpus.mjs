// Speed and listing size on the corpus of published oclif CLIs (test/corpus: heroku, @salesforce/cli, @shopify/cli,
// @asyncapi/cli, twilio-cli, oclif) and on taskbox, each measured side by side in one run, rounds interleaved:
// - listing: tools/list at the default profile, whole (built-in tools included), bytes and tool counts;
// - start-up: spawn until the initialize answer of `mcp stdio` vs the CLI's own cold `--version`, with the floor
//   under both (`node -e 0` and a bare SDK server, on the same Node as the CLI);
// - call: an offline command of the CLI run directly from a shell vs through the server, warm worker and cold.
// Run: npm run bench:corpus [-- --smoke] [-- NAME ...], or bash bench/node22.sh bench/corpus.mjs [--smoke] [NAME ...]
// It runs on the corpus's Node 22, which reads test/corpus/clis.ts as it is (type stripping), so the corpus is
// described once for its tests and for this benchmark.
import {Client} from '@modelcontextprotocol/client'
import {StdioClientTransport} from '@modelcontextprotocol/client/stdio'
import {execFile} from 'node:child_process'
import {mkdirSync, writeFileSync} from 'node:fs'
import {cpus, loadavg} from 'node:os'
import {dirname, join} from 'node:path'
import {fileURLToPath} from 'node:url'
import {promisify} from 'node:util'

import {CORPUS, mcpArgv, nodeOf, prepare, ROOT, scriptOf, versionOf} from '../test/corpus/clis.ts'
import {BUILTIN_TOOL_NAMES} from '../dist/tools/catalog/tool-names.js'
import {isolatedHome, killAtExit, median, untilInitialized} from './common.mjs'

const here = dirname(fileURLToPath(import.meta.url))
const smoke = process.argv.includes('--smoke')
const only = process.argv.slice(2).filter((arg) => !arg.startsWith('--'))
const ROUNDS = smoke ? 3 : 11
const run = promisify(execFile)
const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms))
const ms = (x) => `${Math.round(x)} ms`

const {home} = isolatedHome('bench-corpus-')
const work = join(home, 'work')
mkdirSync(work, {recursive: true})
writeFileSync(join(work, '.taskbox.json'), JSON.stringify({name: 'bench', nextId: 1, tasks: []}))

// The bench itself runs on Node 22; taskbox runs on the project's Node (the first `node` on PATH).
const taskbox = {
  node: (await run('bash', ['-c', 'command -v node'])).stdout.trim(),
  argv: (command, args = []) => [join(ROOT, 'examples/taskbox/bin/run.js'), 'mcp', command, ...args],
  env: {...isolatedHome('bench-corpus-taskbox-').env, PATH: process.env.PATH},
  label: 'taskbox (example)',
  offline: {tool: 'status'},
  script: join(ROOT, 'examples/taskbox/bin/run.js'),
}

const clis = [
  taskbox,
  ...CORPUS.map((cli) => ({
    argv: (command, args = []) => mcpArgv(cli, command, args),
    env: prepare(cli, join(home, cli.name)),
    label: `${cli.package}@${versionOf(cli)}`,
    name: cli.name,
    node: nodeOf(cli),
    offline: cli.offline[0],
    script: scriptOf(cli),
  })),
].filter((cli) => only.length === 0 || only.includes(cli.name ?? 'taskbox'))

async function timed(fn) {
  const started = performance.now()
  await fn()
  return performance.now() - started
}

async function connect(cli, args) {
  const transport = new StdioClientTransport({args: cli.argv('stdio', args), command: cli.node, cwd: work, env: cli.env, stderr: 'ignore'})
  const client = new Client({name: 'bench', version: '1'})
  await client.connect(transport)
  return {client, pid: killAtExit(transport.pid)}
}

async function listing(cli) {
  const {client} = await connect(cli, ['--workers', '0'])
  try {
    const {tools} = await client.listTools()
    const builtins = tools.filter((tool) => BUILTIN_TOOL_NAMES.includes(tool.name))
    const bytes = (list) => Buffer.byteLength(JSON.stringify({tools: list}))
    return {builtinBytes: bytes(builtins) - bytes([]), builtins: builtins.length, bytes: bytes(tools), commandTools: tools.length - builtins.length}
  } finally {
    await client.close()
  }
}

async function startup(cli) {
  const times = {bare: [], node: [], stdio: [], version: []}
  for (let i = 0; i < ROUNDS; i++) {
    times.version.push(await timed(() => run(cli.node, [cli.script, '--version'], {cwd: work, env: cli.env})))
    times.stdio.push(await timed(() => untilInitialized(cli.node, cli.argv('stdio', ['--workers', '0']), {cwd: work, env: cli.env})))
    times.bare.push(await timed(() => untilInitialized(cli.node, [join(here, 'bare-stdio.mjs')], {cwd: work, env: cli.env})))
    times.node.push(await timed(() => run(cli.node, ['-e', '0'])))
  }

  return Object.fromEntries(Object.entries(times).map(([key, values]) => [key, median(values)]))
}

// The offline command may be outside the default band: these servers list every command.
const EVERY = ['--max-tools', '100000', '--max-bytes', '1000000000']

async function calls(cli) {
  const warm = await connect(cli, ['--workers', '1', ...EVERY])
  const cold = await connect(cli, ['--workers', '0', ...EVERY])
  const commands = await cold.client.callTool({arguments: {}, name: 'list_commands'})
  const id = commands.structuredContent.commands.find((c) => c.tool === cli.offline.tool)?.id
  if (!id) throw new Error(`${cli.label}: no command has the tool name ${cli.offline.tool}`)
  const direct = [cli.script, ...id.split(/[: ]/)]
  const refill = async () => {
    // A worker is refilled after each call: wait until the next one is ready (the answer says whether it was warm).
    await pause(smoke ? 2500 : 3500)
  }

  try {
    await refill()
    const rows = {cold: [], direct: [], warm: []}
    let warmHits = 0
    const call = (c) => c.client.callTool({arguments: {...cli.offline.arguments, cwd: work}, name: cli.offline.tool})
    for (let i = 0; i < ROUNDS; i++) {
      rows.direct.push(await timed(() => run(cli.node, direct, {cwd: work, env: cli.env})))
      rows.cold.push(await timed(() => call(cold)))
      let result
      rows.warm.push(await timed(async () => (result = await call(warm))))
      if (result.isError) throw new Error(`${cli.label}: ${cli.offline.tool} failed: ${result.content[0]?.text}`)
      if (result._meta?.['oclif-plugin-mcp/run']?.warm) warmHits++
      await refill()
    }

    return {cold: median(rows.cold), direct: median(rows.direct), id, warm: median(rows.warm), warmHits}
  } finally {
    await warm.client.close()
    await cold.client.close()
  }
}

console.log(`# oclif-plugin-mcp on published CLIs (${smoke ? 'smoke' : 'full'} run)\n`)
console.log(`machine: ${cpus().length} × ${cpus()[0]?.model}, bench on Node ${process.version}, ${new Date().toISOString()}, load ${loadavg()[0].toFixed(1)}\n`)
const results = []
for (const cli of clis) {
  results.push({call: await calls(cli), cli, list: await listing(cli), start: await startup(cli)})
  console.error(`bench corpus: ${cli.label} measured`)
}

console.log('## tools/list at the default profile, whole\n')
console.log('| CLI | bytes | tools | command tools | built-in tools | built-in bytes |')
console.log('| --- | ---: | ---: | ---: | ---: | ---: |')
for (const {cli, list} of results) {
  console.log(`| ${cli.label} | ${list.bytes.toLocaleString('en')} | ${list.commandTools + list.builtins} | ${list.commandTools} | ${list.builtins} | ${list.builtinBytes.toLocaleString('en')} |`)
}

console.log(`\n## stdio start-up: spawn until the initialize answer vs the CLI's own cold --version (median of ${ROUNDS})\n`)
console.log('| CLI | --version | mcp stdio → initialize | over --version | node -e 0 | bare SDK server | SDK over node |')
console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: |')
for (const {cli, start} of results) {
  console.log(`| ${cli.label} | ${ms(start.version)} | ${ms(start.stdio)} | +${ms(start.stdio - start.version)} | ${ms(start.node)} | ${ms(start.bare)} | +${ms(start.bare - start.node)} |`)
}

console.log(`\n## A command run directly vs through the server (median of ${ROUNDS})\n`)
console.log('| CLI | command | run directly | warm worker | cold spawn | warm / direct | cold / direct | warm calls |')
console.log('| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |')
for (const {call, cli} of results) {
  console.log(`| ${cli.label} | \`${call.id}\` | ${ms(call.direct)} | ${ms(call.warm)} | ${ms(call.cold)} | ${(call.warm / call.direct).toFixed(2)}× | ${(call.cold / call.direct).toFixed(2)}× | ${call.warmHits}/${ROUNDS} |`)
}
