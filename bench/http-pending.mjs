// Memory of `mcp serve` under clients that never finish their bodies: CONNECTIONS connections each send the head of
// a 4,000,001-byte request and 4,000,000 bytes of body, then wait. RSS of the server process (from /proc) idle,
// at its peak while they wait, and after they are gone; how many got an answer. Interleaved rounds, medians.
//   node bench/http-pending.mjs                 this checkout's dist/
//   node bench/http-pending.mjs OTHER_ROOT ...  also other checkouts (each built), side by side
import {spawn} from 'node:child_process'
import {readFileSync} from 'node:fs'
import {connect} from 'node:net'
import {cpus} from 'node:os'
import {dirname, join, resolve} from 'node:path'
import {setTimeout as sleep} from 'node:timers/promises'
import {fileURLToPath} from 'node:url'

import {isolatedHome, killAtExit, median} from './common.mjs'

const here = dirname(fileURLToPath(import.meta.url))
const ROUNDS = Number(process.env.ROUNDS ?? 3)
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 150)
const roots = [join(here, '..'), ...process.argv.slice(2).map((r) => resolve(r))]

const rssMiB = (pid) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024

async function serve(root) {
  const {env} = isolatedHome('bench-pending-')
  const child = spawn(process.execPath, [join(root, 'examples/taskbox/bin/run.js'), 'mcp', 'serve', '--port', '0', '--workers', '0'], {
    env: {...process.env, ...env},
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  killAtExit(child.pid)
  let stderr = ''
  const port = await new Promise((ok, fail) => {
    child.stderr.on('data', (chunk) => {
      stderr += chunk
      const found = /listening on http:\/\/127\.0\.0\.1:(\d+)\/mcp/.exec(stderr)
      if (found) ok(Number(found[1]))
    })
    child.once('exit', () => fail(new Error(`server exited: ${stderr}`)))
  })
  return {child, port}
}

async function round(root) {
  const {child, port} = await serve(root)
  await sleep(500)
  const idle = rssMiB(child.pid)
  const head = `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nAccept: application/json\r\nContent-Length: 4000001\r\n\r\n`
  const body = Buffer.alloc(4_000_000, 0x20)
  let answered = 0
  const sockets = await Promise.all(
    Array.from({length: CONNECTIONS}, () => new Promise((ok) => {
      const socket = connect(port, '127.0.0.1', () => ok(socket))
      socket.on('error', () => {})
      socket.once('data', () => answered++)
    })),
  )
  const started = performance.now()
  for (const socket of sockets) socket.write(head) && socket.write(body)
  let peak = idle
  while (performance.now() - started < 4000) {
    peak = Math.max(peak, rssMiB(child.pid))
    await sleep(100)
  }

  for (const socket of sockets) socket.destroy()
  await sleep(2000)
  const after = rssMiB(child.pid)
  child.kill('SIGKILL')
  return {after, answered, idle, peak}
}

console.log(`# ${CONNECTIONS} unfinished 4 MB bodies; ${cpus().length} × ${cpus()[0].model}, Node ${process.version}; ${ROUNDS} interleaved rounds, medians`)
const results = new Map(roots.map((root) => [root, []]))
for (let i = 0; i < ROUNDS; i++) for (const root of roots) results.get(root).push(await round(root))
console.log('| checkout | idle RSS | peak RSS | RSS after | connections answered |')
console.log('| --- | ---: | ---: | ---: | ---: |')
for (const [root, rows] of results) {
  const m = (key) => median(rows.map((r) => r[key]))
  console.log(`| ${root} | ${m('idle').toFixed(0)} MB | ${m('peak').toFixed(0)} MB | ${m('after').toFixed(0)} MB | ${m('answered')} of ${CONNECTIONS} |`)
}
