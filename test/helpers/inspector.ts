import {spawn} from 'node:child_process'

/** What `process.memoryUsage()` said in the inspected process, in bytes. */
export interface MemoryUsage {
  arrayBuffers: number
  external: number
  heapTotal: number
  heapUsed: number
  rss: number
}

/** The inspector's WebSocket URL from the "Debugger listening on ws://…" line a node started with --inspect prints. */
export function inspectorUrl(stderr: string): string {
  const found = /Debugger listening on (ws:\/\/\S+)/.exec(stderr)
  if (!found) throw new Error(`no inspector URL in: ${stderr.slice(0, 500)}`)
  return found[1]
}

// Runs in a separate node (Node 20 has WebSocket only behind --experimental-websocket): a full, memory-reducing
// garbage collection (the same as DevTools' "collect garbage" button), then process.memoryUsage().
const CLIENT = `
const ws = new WebSocket(process.argv[1])
let last = 0
const send = (method, params) => new Promise((resolve, reject) => {
  const id = ++last
  ws.addEventListener('message', function answer(event) {
    const message = JSON.parse(event.data)
    if (message.id !== id) return
    ws.removeEventListener('message', answer)
    message.error ? reject(new Error(message.error.message)) : resolve(message.result)
  })
  ws.send(JSON.stringify({id, method, params}))
})
ws.addEventListener('error', () => process.exit(2))
ws.addEventListener('open', async () => {
  await send('HeapProfiler.collectGarbage')
  const usage = await send('Runtime.evaluate', {expression: 'JSON.stringify(process.memoryUsage())', returnByValue: true})
  process.stdout.write(usage.result.value)
  ws.close()
  process.exit(0)
})
`

/** Makes the inspected process collect all its garbage, then returns its memory usage. */
export function collectGarbage(url: string, timeoutMs = 30_000): Promise<MemoryUsage> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--experimental-websocket', '--no-warnings', '-e', CLIENT, url], {stdio: ['ignore', 'pipe', 'pipe']})
    let out = ''
    let err = ''
    child.stdout.on('data', (chunk: Buffer) => (out += chunk))
    child.stderr.on('data', (chunk: Buffer) => (err += chunk))
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs)
    child.on('close', (code) => {
      clearTimeout(timer)
      try {
        if (code !== 0) throw new Error(`inspector client exited with ${code}: ${err}`)
        resolve(JSON.parse(out) as MemoryUsage)
      } catch (error) {
        reject(error)
      }
    })
  })
}
