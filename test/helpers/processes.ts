import {execFileSync} from 'node:child_process'
import {readdirSync, readFileSync, readlinkSync} from 'node:fs'

/** One row of `ps -eo pid,ppid,pgid,stat,args`. */
export interface ProcessRow {
  args: string
  pgid: number
  pid: number
  ppid: number
  stat: string
}

export function processTable(): ProcessRow[] {
  return execFileSync('ps', ['-eo', 'pid=,ppid=,pgid=,stat=,args='], {encoding: 'utf8'})
    .split('\n')
    .map((line) => /^\s*(\d+)\s+(\d+)\s+(\d+)\s+(\S+)\s+(.*)$/.exec(line))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({args: m[5], pgid: Number(m[3]), pid: Number(m[1]), ppid: Number(m[2]), stat: m[4]}))
}

/** Processes whose command line contains `marker` (the `ps` that lists them excluded). */
export function processesMatching(marker: string): ProcessRow[] {
  const self = process.pid
  return processTable().filter((row) => row.args.includes(marker) && !row.args.startsWith('ps -eo') && row.pid !== self)
}

/** Pids of the processes whose working directory is `dir` or below it (read from /proc/<pid>/cwd). */
export function processesIn(dir: string): number[] {
  const pids: number[] = []
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const cwd = readlinkSync(`/proc/${entry}/cwd`)
      if (cwd === dir || cwd.startsWith(`${dir}/`)) pids.push(Number(entry))
    } catch {
      // Gone, or not ours to read.
    }
  }

  return pids
}

/** Pids of the processes whose environment has `name=value` (children inherit it: a server's commands, workers, grandchildren). */
export function processesWithEnv(name: string, value: string): number[] {
  const wanted = `${name}=${value}`
  const pids: number[] = []
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

/** Every process below `pid` in the process tree. */
export function descendantsOf(pid: number, table = processTable()): ProcessRow[] {
  const found: ProcessRow[] = []
  let parents = new Set([pid])
  while (parents.size > 0) {
    const children = table.filter((row) => parents.has(row.ppid))
    found.push(...children)
    parents = new Set(children.map((row) => row.pid))
  }

  return found
}

/** Zombies (state Z): processes that ended but that no parent has reaped. */
export function zombies(table = processTable()): ProcessRow[] {
  return table.filter((row) => row.stat.startsWith('Z'))
}

/** Resident set size of a process in KiB (VmRSS from /proc/<pid>/status). */
export function rssKiB(pid: number): number {
  const found = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
  if (!found) throw new Error(`no VmRSS for ${pid}`)
  return Number(found[1])
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

/** True while the process exists and has not ended (a zombie, ended but not yet reaped, does not count). */
export function isRunning(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'))
  } catch {
    return false
  }
}

/**
 * Polls `check` until it holds; false when it still does not after `timeoutMs`. The deadline is only how long a test
 * waits for something that should happen before it says it did not: generous, so that a loaded machine, which only
 * makes things happen later, does not fail a test.
 */
export async function eventually(check: () => boolean | Promise<boolean>, timeoutMs = 30_000, intervalMs = 100): Promise<boolean> {
  const until = Date.now() + timeoutMs
  for (;;) {
    if (await check()) return true
    if (Date.now() > until) return false
    await new Promise((resolve) => setTimeout(resolve, intervalMs))
  }
}

/** CPU time a process has used so far, in clock ticks (utime + stime of /proc/<pid>/stat); undefined once it is gone. */
export function cpuTicks(pid: number): number | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')
    return Number(fields[11]) + Number(fields[12])
  } catch {
    return undefined
  }
}

/**
 * Waits until the server `pid` has a warmed worker waiting for a call, and returns that worker's pid (undefined when
 * none came within `timeoutMs`). A worker (a child running worker-entry) says it is ready, then imports the commands'
 * modules ahead and waits: one that has used no CPU for `quietMs` is past its ready, however long warming took.
 */
export async function idleWorker(pid: number, timeoutMs = 60_000, quietMs = 500): Promise<number | undefined> {
  const until = Date.now() + timeoutMs
  let seen: {pid: number; since: number; ticks: number} | undefined
  while (Date.now() < until) {
    const worker = descendantsOf(pid).find((row) => row.args.includes('worker-entry'))
    const ticks = worker && cpuTicks(worker.pid)
    if (!worker || ticks === undefined) seen = undefined
    else if (seen?.pid !== worker.pid || seen.ticks !== ticks) seen = {pid: worker.pid, since: Date.now(), ticks}
    else if (Date.now() - seen.since >= quietMs) return worker.pid
    await new Promise((resolve) => setTimeout(resolve, 50))
  }

  return undefined
}

/** SIGKILLs the given pids (leftovers a test found), ignoring those already gone. */
export function killPids(pids: readonly number[]): void {
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL')
    } catch {
      // Already gone.
    }
  }
}
