import {type ChildProcess, execFileSync, spawn} from 'node:child_process'
import {existsSync, readdirSync} from 'node:fs'
import {createServer} from 'node:net'
import {homedir} from 'node:os'
import {dirname, join} from 'node:path'

import {isAlive, killPids} from './processes.js'

/** A redis-server (the Debian package) of a test's own, on a free loopback port, with nothing saved to disk. */
export interface RedisServer {
  pid: number
  port: number
  /** Stops it (SIGTERM, then SIGKILL) and waits until it is gone. */
  stop(): Promise<void>
  url: string
}

/**
 * The redis-server to run and its environment: the one on PATH, else the one test/helpers/ensure-redis.sh unpacked
 * into the cache (with its libraries).
 */
function redisBinary(): {env: NodeJS.ProcessEnv; file: string} {
  try {
    execFileSync('redis-server', ['--version'], {stdio: 'ignore'})
    return {env: process.env, file: 'redis-server'}
  } catch {
    const cache = join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'oclif-plugin-mcp/redis')
    const file = join(cache, 'usr/bin/redis-server')
    if (!existsSync(file)) throw new Error('No redis-server: run bash test/helpers/ensure-redis.sh (npm test does), or install it (apt-get install redis-server).')
    const libs = join(cache, 'usr/lib')
    const arch = existsSync(libs) ? readdirSync(libs).map((d) => join(libs, d)) : []
    return {env: {...process.env, LD_LIBRARY_PATH: [...arch, dirname(file)].join(':')}, file}
  }
}

/** A port nobody listens on now (the kernel's choice); a race with another process is retried by the caller. */
async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const {port} = server.address() as {port: number}
  await new Promise((resolve) => server.close(resolve))
  return port
}

function started(child: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    let output = ''
    const timer = setTimeout(() => reject(new Error(`redis-server did not start: ${output}`)), 20_000)
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk
      if (output.includes('Ready to accept connections')) {
        clearTimeout(timer)
        resolve()
      }
    })
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`redis-server exited with ${code}: ${output}`))
    })
  })
}

/** Starts redis-server on `port` (a free one when not given). */
export async function startRedis(port?: number): Promise<RedisServer> {
  for (let attempt = 0; ; attempt++) {
    const chosen = port ?? (await freePort())
    const {env, file} = redisBinary()
    const child = spawn(file, ['--port', String(chosen), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {env, stdio: ['ignore', 'pipe', 'pipe']})
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
    try {
      await started(child)
    } catch (error) {
      killPids(child.pid ? [child.pid] : [])
      if (port !== undefined || attempt >= 3) throw error
      continue
    }

    const pid = child.pid!
    return {
      pid,
      port: chosen,
      async stop() {
        if (!isAlive(pid)) return
        child.kill('SIGTERM')
        const timer = setTimeout(() => child.kill('SIGKILL'), 5000)
        await exited
        clearTimeout(timer)
      },
      url: `redis://127.0.0.1:${chosen}`,
    }
  }
}
