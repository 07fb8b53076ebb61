import {spawn} from 'node:child_process'
import {win32} from 'node:path'

// Ending a command and everything it started, on every platform. POSIX: the command leads its own process group
// (it is started detached), and a signal to the group reaches every process in it. Windows has no process groups
// and no signals to send: the tree is ended with taskkill /T /F, which finds the children through the parent, so
// it is run while the command's own process is still there. CommonJS: the orphan guard (a CommonJS preload) uses it.

/** taskkill by absolute path: a bare name would be looked up in the current directory first, which a call chooses. */
export function taskkillPath(env: NodeJS.ProcessEnv = process.env): string {
  return win32.join(env.SystemRoot || env.SYSTEMROOT || 'C:\\Windows', 'System32', 'taskkill.exe')
}

export interface TreeKillSeams {
  /** process.kill */
  kill?: (pid: number, signal: NodeJS.Signals | number) => void
  platform?: NodeJS.Platform
  /** Starts taskkill (child_process.spawn, detached from our console and ignored). */
  run?: (file: string, args: string[]) => void
}

function runQuietly(file: string, args: string[]): void {
  const child = spawn(file, args, {stdio: 'ignore', windowsHide: true})
  child.on('error', () => {})
  child.unref()
}

/**
 * Ends the tree of processes that `pid` leads: by `signal` to its process group on POSIX; on Windows at once and
 * whatever the signal (taskkill /T /F: Windows has no gentler way to end a console program from outside).
 */
export function killTree(pid: number, signal: NodeJS.Signals, seams: TreeKillSeams = {}): void {
  const {kill = process.kill.bind(process), platform = process.platform, run = runQuietly} = seams
  if (platform === 'win32') {
    run(taskkillPath(), ['/T', '/F', '/PID', String(pid)])
    return
  }

  try {
    kill(-pid, signal)
  } catch {
    // The group is already gone.
  }
}

/**
 * Whether the server process `parent` is gone. POSIX: this process has a new parent (it was re-parented when the
 * server died). Windows re-parents nothing, so there the server itself is looked for (signal 0: ESRCH, not there).
 */
export function parentGone(parent: number, seams: {kill?: (pid: number, signal: number) => void; platform?: NodeJS.Platform; ppid?: number} = {}): boolean {
  const {kill = process.kill.bind(process), platform = process.platform, ppid = process.ppid} = seams
  if (platform !== 'win32') return ppid !== parent
  try {
    kill(parent, 0)
    return false
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH'
  }
}
