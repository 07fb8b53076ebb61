// How soon `mcp stdio` answers its first request when a host starts several servers at once. Claude Code starts
// every configured stdio server together, probes each with a 2026-07-28 `server/discover` and waits 3,000 ms for the
// answer; a server that has not answered by then is spoken to in 2025-11-25 for the rest of that connection. For
// taskbox and each corpus CLI (test/corpus), side by side in one run:
// - five servers of the CLI spawned at the same moment, each sent `server/discover` at once (and, in a separate
//   batch, five sent a 2025-11-25 `initialize`): per server, the time from its spawn to its answer line on stdout;
//   per round the median and the slowest of the five, and how many answered after 3,000 ms;
// - beside them, on the same Node as the CLI: one server alone; the CLI's own `--version` (spawn to exit), alone and
//   five at once; a bare SDK server (bench/bare-stdio.mjs) alone and five at once, the floor no server on this SDK can
//   go under.
// The servers are launched with the line `mcp config --client claude-code` writes (`mcp stdio --client claude-code`,
// default flags, so one worker each is warmed once it has answered), and every server of a batch runs until all of
// them have answered, as a host keeps them: a server that answered early, and started warming its worker, still
// competes for the cores with those that have not.
// Run: npm run bench:first-answer [-- --smoke] [-- --rounds N] [-- --servers N] [-- NAME ...], or
//      bash bench/node22.sh bench/first-answer.mjs [--smoke] [--rounds N] [--servers N] [NAME ...]
// (NAME: taskbox or a corpus CLI's name; --smoke is one round on taskbox and heroku unless names are given.)
// Linux only: what the run started is found afterwards by a variable in each process's /proc/<pid>/environ.
import {execFile, spawn} from 'node:child_process'
import {mkdirSync, writeFileSync} from 'node:fs'
import {cpus, loadavg} from 'node:os'
import {dirname, join} from 'node:path'
import {fileURLToPath} from 'node:url'
import {parseArgs, promisify} from 'node:util'

import {CORPUS, mcpArgv, nodeOf, prepare, ROOT, scriptOf, versionOf} from '../test/corpus/clis.ts'
import {isolatedHome, markedRun, median} from './common.mjs'

const here = dirname(fileURLToPath(import.meta.url))
const {positionals: only, values: options} = parseArgs({
  allowPositionals: true,
  options: {flags: {type: 'string'}, rounds: {type: 'string'}, servers: {type: 'string'}, smoke: {type: 'boolean'}},
})
const smoke = options.smoke ?? false
const ROUNDS = Number(options.rounds ?? (smoke ? 1 : 5))
const SERVERS = Number(options.servers ?? 5)
if (![ROUNDS, SERVERS].every((n) => Number.isInteger(n) && n >= 1)) throw new Error('--rounds and --servers take a whole number of at least 1')
const names = only.length > 0 ? only : smoke ? ['taskbox', 'heroku'] : []
/** More server flags, to compare set-ups (`--flags="--workers 0"`). */
const EXTRA = (options.flags ?? '').split(/\s+/).filter(Boolean)
/** How long Claude Code waits for the server/discover answer before it falls back to 2025-11-25. */
const HOST_WAIT_MS = 3000
/** A server with no answer by then is counted as never answering (and stopped). */
const GIVE_UP_MS = 30_000
/** How long a server (or anything it started) is given to end after its input is closed, before SIGKILL. */
const STOP_GRACE_MS = 5000
const STDERR_TAIL = 2000
const run = promisify(execFile)
const ms = (x) => (Number.isFinite(x) ? `${Math.round(x)} ms` : `none in ${GIVE_UP_MS / 1000} s`)

// Every process this run starts carries this run's mark (common.mjs markedRun): how they are all found and stopped.
const {env: marked, ours, settle} = markedRun('BENCH_FIRST_ANSWER_RUN', 'first-answer', {graceMs: STOP_GRACE_MS, pollMs: 50})

const {home} = isolatedHome('bench-first-answer-')
const work = join(home, 'work')
mkdirSync(work, {recursive: true})
writeFileSync(join(work, '.taskbox.json'), JSON.stringify({name: 'bench', nextId: 1, tasks: []}))

// The bench itself runs on Node 22; taskbox and the corpus's Node 20 CLIs run on the project's Node (the first `node`
// on PATH): nodeOf() gives the Node running this file for those, which here is 22.
const projectNode = (await run('bash', ['-c', 'command -v node'])).stdout.trim()
const taskbox = {
  env: {...isolatedHome('bench-first-answer-taskbox-').env, PATH: process.env.PATH},
  label: 'taskbox (example)',
  name: 'taskbox',
  node: projectNode,
  script: join(ROOT, 'examples/taskbox/bin/run.js'),
  stdio: [join(ROOT, 'examples/taskbox/bin/run.js'), 'mcp', 'stdio', '--client', 'claude-code', ...EXTRA],
}
const unknown = names.filter((name) => name !== 'taskbox' && !CORPUS.some((cli) => cli.name === name))
if (unknown.length > 0) throw new Error(`no CLI named ${unknown.join(', ')} (taskbox or one of ${CORPUS.map((cli) => cli.name).join(', ')})`)
const clis = [
  taskbox,
  ...CORPUS.filter((cli) => names.length === 0 || names.includes(cli.name)).map((cli) => ({
    env: prepare(cli, join(home, cli.name)),
    label: `${cli.package}@${versionOf(cli)}`,
    name: cli.name,
    node: cli.node === 20 ? projectNode : nodeOf(cli),
    script: scriptOf(cli),
    stdio: mcpArgv(cli, 'stdio', ['--client', 'claude-code', ...EXTRA]),
  })),
].filter((cli) => names.length === 0 || names.includes(cli.name))

const meta = {
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': {name: 'bench', version: '1'},
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
}
// One line each, as a host writes it on the server's stdin right after the spawn.
const REQUESTS = {
  discover: `${JSON.stringify({id: 1, jsonrpc: '2.0', method: 'server/discover', params: {_meta: meta}})}\n`,
  initialize: `${JSON.stringify({id: 1, jsonrpc: '2.0', method: 'initialize', params: {capabilities: {}, clientInfo: {name: 'bench', version: '1'}, protocolVersion: '2025-11-25'}})}\n`,
}

/**
 * Resolves with the time from `started` to the moment the child's answer to request 1 is whole on stdout (Infinity
 * when none came within GIVE_UP_MS). An error answer, or stdout that is not JSON lines, rejects: a figure for that
 * would time something other than an answer.
 */
function untilAnswer(child, started) {
  return new Promise((resolve, reject) => {
    let buffered = ''
    const done = () => {
      clearTimeout(timer)
      child.stdout.off('data', onData)
      // Whatever else it writes is read and dropped, so a full pipe never stalls it.
      child.stdout.resume()
    }

    const timer = setTimeout(() => {
      done()
      resolve(Infinity)
    }, GIVE_UP_MS)
    const onData = (chunk) => {
      const at = performance.now()
      buffered += chunk
      let newline
      while ((newline = buffered.indexOf('\n')) !== -1) {
        const line = buffered.slice(0, newline)
        buffered = buffered.slice(newline + 1)
        let message
        try {
          message = JSON.parse(line)
        } catch {
          done()
          return reject(new Error(`wrote a line on stdout that is not JSON: ${line.slice(0, 200)}`))
        }

        // A notification or a request of the server's own is not the answer.
        if (message.id !== 1) continue
        done()
        if (message.error) return reject(new Error(`answered with an error: ${JSON.stringify(message.error)}`))
        return resolve(at - started)
      }
    }

    child.stdout.on('data', onData)
    child.once('exit', (code, signal) => {
      done()
      reject(new Error(`ended (${signal ?? `exit code ${code}`}) without answering`))
    })
    child.once('error', (error) => {
      done()
      reject(error)
    })
  })
}

/** Ends a server as a host does, by closing its input; SIGKILL if it is still there after the grace. */
function stop(child) {
  return new Promise((resolve) => {
    // Never started (its spawn failed), or already gone.
    if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return resolve()
    const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS)
    child.once('exit', () => {
      clearTimeout(timer)
      resolve()
    })
    child.stdin.end()
  })
}

/**
 * Spawns `count` servers at the same moment, each sent `request` at once, and returns each one's time from its own
 * spawn to its answer. Every server runs until all have answered (or been given up on); then all are stopped, and
 * whatever they started with them, before this returns, so nothing of one measurement runs into the next.
 */
async function firstAnswers(node, args, env, request, count) {
  const servers = []
  for (let i = 0; i < count; i++) {
    const started = performance.now()
    const child = spawn(node, args, {cwd: work, env: {...env, ...marked}, stdio: ['pipe', 'pipe', 'pipe']})
    // The end of its stderr, to say why should it fail.
    let stderr = ''
    child.stderr.on('data', (chunk) => (stderr = (stderr + chunk).slice(-STDERR_TAIL)))
    // A server that ended early fails its answer with the reason; the write to its closed pipe says nothing more.
    child.stdin.on('error', () => {})
    child.stdin.write(request)
    servers.push({answer: untilAnswer(child, started), child, stderr: () => stderr})
  }

  const answers = await Promise.allSettled(servers.map((server) => server.answer))
  await Promise.all(servers.map((server) => stop(server.child)))
  await settle()
  const failed = answers.findIndex((answer) => answer.status === 'rejected')
  if (failed !== -1) {
    throw new Error(`${args.join(' ')}: ${answers[failed].reason.message}\n${servers[failed].stderr().trim()}`)
  }

  return answers.map((answer) => answer.value)
}

/** The CLI's own start: `--version` run `count` times at the same moment, each from its spawn to its exit. */
async function version(cli, count) {
  const took = await Promise.all(
    Array.from({length: count}, async () => {
      const started = performance.now()
      await run(cli.node, [cli.script, '--version'], {cwd: work, env: {...cli.env, ...marked}, killSignal: 'SIGKILL', timeout: GIVE_UP_MS})
      return performance.now() - started
    }),
  )
  await settle()
  return took
}

const bare = [join(here, 'bare-stdio.mjs')]
const nodeVersions = new Map()
for (const node of new Set(clis.map((cli) => cli.node))) nodeVersions.set(node, (await run(node, ['--version'])).stdout.trim())

async function measure(cli) {
  // One untimed start first, so the first round does not also time reading the CLI's files from disk.
  await version(cli, 1)
  await firstAnswers(cli.node, cli.stdio, cli.env, REQUESTS.discover, 1)
  const times = {version: [], versionFive: []}
  for (const request of Object.keys(REQUESTS)) times[request] = {alone: [], bare: [], bareFive: [], five: []}
  for (let round = 0; round < ROUNDS; round++) {
    times.version.push(...(await version(cli, 1)))
    // The CLI's own start five times at once: how much of the servers' slowdown the CLI would have without the plugin.
    times.versionFive.push(await version(cli, SERVERS))
    for (const [request, line] of Object.entries(REQUESTS)) {
      const row = times[request]
      row.alone.push(...(await firstAnswers(cli.node, cli.stdio, cli.env, line, 1)))
      row.five.push(await firstAnswers(cli.node, cli.stdio, cli.env, line, SERVERS))
      row.bare.push(...(await firstAnswers(cli.node, bare, cli.env, line, 1)))
      row.bareFive.push(await firstAnswers(cli.node, bare, cli.env, line, SERVERS))
    }
  }

  return times
}

const loadAtStart = loadavg()[0]
const results = []
for (const cli of clis) {
  results.push({cli, times: await measure(cli)})
  console.error(`bench first-answer: ${cli.label} measured`)
}

const left = ours()
if (left.length > 0) throw new Error(`processes of this run still there at the end: ${left.join(', ')}`)
console.error('bench first-answer: no process of this run is left (checked /proc)')

const argv = process.argv.slice(2).join(' ')
console.log(`# First answer of \`mcp stdio\` with ${SERVERS} servers started at once (${smoke ? 'smoke run: timing not judged' : 'full run'})\n`)
console.log(`command: \`bash bench/node22.sh bench/first-answer.mjs${argv ? ` ${argv}` : ''}\`\n`)
console.log(`machine: ${cpus().length} × ${cpus()[0]?.model}, bench on Node ${process.version}, ${new Date().toISOString()}, load ${loadAtStart.toFixed(1)} at start, ${loadavg()[0].toFixed(1)} at end\n`)
console.log(`servers: \`<cli> mcp stdio --client claude-code${EXTRA.length > 0 ? ` ${EXTRA.join(' ')}` : ''}\` (the line \`mcp config --client claude-code\` writes${EXTRA.length > 0 ? ', with those flags' : ', default flags'}); each CLI on its own Node, the bare SDK server (bench/bare-stdio.mjs) on the same Node as the CLI beside it\n`)
console.log(`Times are from a server's spawn to its answer line on stdout (--version: spawn to exit). "${SERVERS} at once": per round the median and the slowest of the ${SERVERS}, then the median of those over ${ROUNDS} round${ROUNDS === 1 ? '' : 's'}; "worst" is the slowest answer of all rounds; "after 3 s" counts answers later than ${HOST_WAIT_MS.toLocaleString('en')} ms, when Claude Code stops waiting for server/discover. The other columns are medians over the rounds.\n`)
const TITLES = {
  discover: 'server/discover (2026-07-28): what Claude Code sends first, and waits 3,000 ms for',
  initialize: 'initialize (2025-11-25)',
}
for (const request of Object.keys(REQUESTS)) {
  console.log(`## ${TITLES[request]}\n`)
  console.log(`| CLI | Node | --version | --version, ${SERVERS} at once: slowest | one alone | ${SERVERS} at once: median | ${SERVERS} at once: slowest | worst | after 3 s | bare SDK alone | bare SDK, ${SERVERS} at once: slowest |`)
  console.log('| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |')
  for (const {cli, times} of results) {
    const row = times[request]
    const late = row.five.flat().filter((x) => x > HOST_WAIT_MS).length
    const cells = [
      cli.label,
      nodeVersions.get(cli.node),
      ms(median(times.version)),
      ms(median(times.versionFive.map((five) => Math.max(...five)))),
      ms(median(row.alone)),
      ms(median(row.five.map((five) => median(five)))),
      ms(median(row.five.map((five) => Math.max(...five)))),
      ms(Math.max(...row.five.flat())),
      `${late}/${row.five.flat().length}`,
      ms(median(row.bare)),
      ms(median(row.bareFive.map((five) => Math.max(...five)))),
    ]
    console.log(`| ${cells.join(' | ')} |`)
  }

  console.log('')
}
