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
const roots = [join(here, '..'), ...process.argv.slice(2).map((r) => resolve(r))]
const rssMiB = (pid) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024

async function serve(root) {
  const {env} = isolatedHome('bench-jobs-')
  const child = spawn(process.execPath, [join(root, 'test/fixtures/faulty-cli/bin/run.js'), 'mcp', 'serve', '--port', '0', '--workers', '0', '--foreground', '1', '--max-concurrency', '4'], {
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
  const jobs = await Promise.all(Array.from({length: JOBS}, () => call(url, 'lines', {kib: 4096, pause: 2, 'stderr-kib': 4096})))
  let ended = 0
  await Promise.all(jobs.map(async (started) => {
    const id = started.structuredContent?.job?.id
    if (!id) return
    for (let status = 'working'; status === 'working';) status = (await call(url, 'job_status', {job: id, wait: 50})).structuredContent?.job?.status
    ended++
  }))
  await sleep(3000)
  clearInterval(sampler)
  const after = rssMiB(child.pid)
  child.kill('SIGTERM')
  return {after, ended, idle, peak: Math.max(peak, after)}
}

console.log(`# ${JOBS} jobs of 4 MiB stdout + 4 MiB stderr each, followed to their end; ${cpus().length} × ${cpus()[0].model}, Node ${process.version}; ${ROUNDS} interleaved rounds, medians`)
const results = new Map(roots.map((root) => [root, []]))
for (let i = 0; i < ROUNDS; i++) for (const root of roots) results.get(root).push(await round(root))
console.log('| checkout | idle RSS | peak RSS | RSS after the jobs ended | jobs ended |')
console.log('| --- | ---: | ---: | ---: | ---: |')
for (const [root, rows] of results) {
  const m = (key) => median(rows.map((r) => r[key]))
  console.log(`| ${root} | ${m('idle').toFixed(0)} MB | ${m('peak').toFixed(0)} MB | ${m('after').toFixed(0)} MB | ${m('ended')} of ${JOBS} |`)
}
