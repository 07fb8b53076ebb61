// What the benchmarks share: an isolated HOME, the median, and children that never outlive the benchmark.
import {spawn} from 'node:child_process'
import {createHash} from 'node:crypto'
import {existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync} from 'node:fs'
import {homedir, tmpdir} from 'node:os'
import {join} from 'node:path'

export const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]

/**
 * A scratch HOME with empty XDG config, data and cache dirs, so no user config or user-installed plugin leaks into
 * the CLIs measured; removed when the benchmark exits. `env` is the variables to give a CLI (or to set in-process).
 */
export function isolatedHome(prefix) {
  const home = mkdtempSync(join(tmpdir(), prefix))
  const env = {HOME: home, XDG_CACHE_HOME: join(home, 'cache'), XDG_CONFIG_HOME: join(home, 'config'), XDG_DATA_HOME: join(home, 'data')}
  for (const dir of Object.values(env)) mkdirSync(dir, {recursive: true})
  process.once('exit', () => rmSync(home, {force: true, recursive: true}))
  return {env, home}
}

const children = new Set()
process.once('exit', () => {
  for (const pid of children) {
    try {
      process.kill(pid, 'SIGKILL')
    } catch {
      // Already gone.
    }
  }
})

/** Kills the process by pid when the benchmark exits, however it ends (a failed run included). */
export function killAtExit(pid) {
  if (pid !== undefined) children.add(pid)
  return pid
}

/**
 * Where test/corpus/install.sh put the corpus CLI `name` (test/corpus/<name>): the cache prefix named by a hash of
 * its package.json and lockfile, as test/corpus/clis.ts finds it. Undefined when it is not installed.
 */
export function corpusInstall(name) {
  const here = join(import.meta.dirname, '../test/corpus', name)
  const hash = createHash('sha256')
  for (const file of ['package.json', 'package-lock.json']) hash.update(readFileSync(join(here, file)))
  const cache = join(process.env.OCLIF_PLUGIN_MCP_CACHE ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'oclif-plugin-mcp'), 'corpus')
  const dir = join(cache, `${name}-${hash.digest('hex').slice(0, 16)}`)
  return existsSync(join(dir, '.installed')) ? dir : undefined
}

const INITIALIZE = JSON.stringify({id: 1, jsonrpc: '2.0', method: 'initialize', params: {capabilities: {}, clientInfo: {name: 'bench', version: '1'}, protocolVersion: '2025-11-25'}})

/**
 * Spawns a stdio server and resolves when it first writes to stdout (its answer to the initialize request sent at
 * once); the child is killed by pid whatever happens, and given up on after 60 s.
 */
export function untilInitialized(node, args, {cwd, env}) {
  return new Promise((resolve, reject) => {
    const child = spawn(node, args, {cwd, env, stdio: ['pipe', 'pipe', 'ignore']})
    killAtExit(child.pid)
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000)
    child.stdout.once('data', () => {
      clearTimeout(timer)
      child.kill('SIGKILL')
      resolve()
    })
    child.once('exit', () => reject(new Error(`${args.join(' ')} ended without answering initialize`)))
    child.on('error', reject)
    child.stdin.write(`${INITIALIZE}\n`)
  })
}

/**
 * Every process a run starts carries one variable (`variable`=a value unique to this run), and so does whatever those
 * start (workers, hosts, the servers they launch, a CLI's own background processes): that is how they are all found
 * and stopped, however they were detached or reparented (killAtExit's pids would not do for a run that starts
 * hundreds: a pid kept until exit may by then be another's). However the run ends (a failure, Ctrl-C), nothing it
 * started outlives it. Call it before making a scratch HOME, so processes go before their files do.
 */
export function markedRun(variable, name, {graceMs = 5000, pollMs = 50} = {}) {
  const mark = `${name}-${process.pid}-${Date.now()}`
  const wanted = `${variable}=${mark}`
  /** Pids of the processes that carry this run's mark (read from /proc; ones gone or not ours to read are skipped). */
  const ours = () => {
    const pids = []
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue
      try {
        if (readFileSync(`/proc/${entry}/environ`, 'utf8').split('\0').includes(wanted)) pids.push(Number(entry))
      } catch {
        // Gone, or not ours to read.
      }
    }

    return pids
  }

  const killAll = (pids) => {
    for (const pid of pids) {
      try {
        process.kill(pid, 'SIGKILL')
      } catch {
        // Already gone.
      }
    }
  }

  process.once('exit', () => killAll(ours()))
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.once(signal, () => process.exit(130))
  /** Waits until no process of this run is left (SIGKILL for what is still there after the grace). */
  const settle = async () => {
    const killAt = performance.now() + graceMs
    let killed = false
    for (;;) {
      const left = ours()
      if (left.length === 0) return
      if (!killed && performance.now() > killAt) {
        killAll(left)
        killed = true
      } else if (killed && performance.now() > killAt + graceMs) {
        throw new Error(`processes of this run would not end: ${left.join(', ')}`)
      }

      await new Promise((resolve) => setTimeout(resolve, pollMs))
    }
  }

  return {env: {[variable]: mark}, killAll, ours, settle}
}
