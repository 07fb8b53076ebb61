// Memory of `mcp serve` holding finished jobs: JOBS calls of faulty-cli's `lines` that each write 4 MiB to stdout and
// 4 MiB to stderr after a 2 s pause, so each outlives its 1 s foreground budget and ends as a job; every job is
// followed to its end with job_status. RSS of the server (from /proc) idle and once every job has ended and the
// server has been idle for 3 s; JOBS callers alike, then the same as two people (OAuth is not needed for the bound
// in all, which is what RSS shows). Interleaved rounds, medians.
//   node bench/job-memory.mjs                 this checkout's dist/
//   node bench/job-memory.mjs OTHER_ROOT ...  also other checkouts (each built, their node_modules in place)
import {spawn} from 'node:child_process'
import {readFileSync} from 'node:fs'
import {cpus} from 'node:os'
import {dirname, join, resolve} from 'node:path'
import {setTimeout as sleep} from 'node:timers/promises'
import {fileURLToPath} from 'node:url'

import {isolatedHome, killAtExit, median} from './common.mjs'

const here = dirname(fileURLToPath(import.meta.url))
const ROUNDS = Number(process.env.ROUNDS ?? 3)
const JOBS = Number(process.env.JOBS ?? 40)
/** With HEAP=MB, the server's V8 heap is capped there (--max-old-space-size): a server past it dies of it. */
const HEAP = process.env.HEAP
const roots = [join(here, '..'), ...process.argv.slice(2).map((r) => resolve(r))]
function rssMiB(pid) {
  try {
    return Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024
  } catch {
    return 0 // gone
  }
}

async function serve(root) {
  const {env} = isolatedHome('bench-jobs-')
  const child = spawn(process.execPath, [...(HEAP ? [`--max-old-space-size=${HEAP}`] : []), join(root, 'test/fixtures/faulty-cli/bin/run.js'), 'mcp', 'serve', '--port', '0', '--workers', '0', '--foreground', '1', '--max-concurrency', '4', '--max-queue', String(JOBS)], {
    env: {...process.env, ...env},
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  killAtExit(child.pid)
  let stderr = ''
  const url = await new Promise((ok, fail) => {
    child.stderr.on('data', (chunk) => {
      stderr += chunk
      const found = /listening on (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(stderr)
      if (found) ok(found[1])
    })
    child.once('exit', () => fail(new Error(`server exited: ${stderr}`)))
  })
  return {child, url}
}

let ids = 0
async function call(url, name, args) {
  const response = await fetch(url, {
    body: JSON.stringify({id: ++ids, jsonrpc: '2.0', method: 'tools/call', params: {arguments: args, name}}),
    headers: {accept: 'application/json, text/event-stream', 'content-type': 'application/json', 'mcp-protocol-version': '2025-11-25'},
    method: 'POST',
  })
  const text = await response.text()
  const line = text.startsWith('{') ? text : text.split('\n').find((l) => l.startsWith('data: ')).slice(6)
  return JSON.parse(line).result
}

async function round(root) {
  const {child, url} = await serve(root)
  await sleep(1000)
  const idle = rssMiB(child.pid)
  let peak = idle
  const sampler = setInterval(() => (peak = Math.max(peak, rssMiB(child.pid))), 100)
  let ended = 0
  // A server that dies (its heap cap passed) fails the calls still open: they count as not ended.
  const died = new Promise((resolve) => child.once('exit', () => resolve('died')))
  await Promise.race([died, Promise.all(Array.from({length: JOBS}, async () => {
    const started = await call(url, 'lines', {kib: 4096, pause: 2, 'stderr-kib': 4096}).catch(() => undefined)
    const id = started?.structuredContent?.job?.id
    if (!id) return
    for (let status = 'working'; status === 'working';) status = (await call(url, 'job_status', {job: id, wait: 50}).catch(() => undefined))?.structuredContent?.job?.status
    ended++
  }))])
  clearInterval(sampler)
  await sleep(3000)
  // Judged after the quiet time: a server that ran out of heap may still be exiting when the last call failed.
  const alive = child.exitCode === null && child.signalCode === null && rssMiB(child.pid) > 0
  const after = alive ? rssMiB(child.pid) : Number.NaN
  child.kill('SIGTERM')
  return {after, alive: alive ? 1 : 0, ended, idle, peak}
}

console.log(`# ${JOBS} jobs of 4 MiB stdout + 4 MiB stderr each, followed to their end; ${cpus().length} × ${cpus()[0].model}, Node ${process.version}; ${ROUNDS} interleaved rounds, medians`)
const results = new Map(roots.map((root) => [root, []]))
for (let i = 0; i < ROUNDS; i++) for (const root of roots) results.get(root).push(await round(root))
console.log(`${HEAP ? `heap capped at ${HEAP} MB; ` : ''}server flags: --workers 0 --foreground 1 --max-concurrency 4 --max-queue ${JOBS}`)
console.log('| checkout | idle RSS | peak RSS | RSS after the jobs ended | jobs ended | server alive at the end |')
console.log('| --- | ---: | ---: | ---: | ---: | ---: |')
for (const [root, rows] of results) {
  const m = (key) => median(rows.map((r) => r[key]))
  console.log(`| ${root} | ${m('idle').toFixed(0)} MB | ${m('peak').toFixed(0)} MB | ${Number.isNaN(m('after')) ? '(died)' : `${m('after').toFixed(0)} MB`} | ${m('ended')} of ${JOBS} | ${rows.filter((r) => r.alive).length} of ${rows.length} rounds |`)
}
