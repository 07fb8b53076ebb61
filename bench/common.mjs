// What the benchmarks share: an isolated HOME, the median, and children that never outlive the benchmark.
import {mkdirSync, mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
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
