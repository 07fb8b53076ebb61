import {type ChildProcess, spawn} from 'node:child_process'

import {TASKBOX_BIN} from './taskbox.js'

export interface Ran {
  code: null | number
  stderr: string
  stdout: string
}

const running = new Set<ChildProcess>()

export interface RunOptions {
  cwd: string
  /** In a session of its own, so it has no controlling terminal even when the tests run at one. */
  detached?: boolean
  env: Record<string, string>
  /** Written to stdin, which is then closed; without it stdin is /dev/null. */
  input?: string
  /** A run still going after this is killed (default 60 s). */
  timeoutMs?: number
}

/** Runs a CLI's bin script to completion with this Node and returns what it printed. */
export function runCli(bin: string, args: string[], options: RunOptions): Promise<Ran> {
  const child = spawn(process.execPath, [bin, ...args], {
    cwd: options.cwd,
    detached: options.detached,
    env: options.env,
    stdio: [options.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
  })
  running.add(child)
  let stdout = ''
  let stderr = ''
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk))
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk))
  if (options.input !== undefined) child.stdin!.end(options.input)
  const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 60_000)
  return new Promise((resolve, reject) => {
    child.on('error', reject)
    child.on('close', (code) => {
      clearTimeout(timer)
      running.delete(child)
      resolve({code, stderr, stdout})
    })
  })
}

/** `taskbox ARGS`, run to completion. */
export function runTaskbox(args: string[], options: RunOptions): Promise<Ran> {
  return runCli(TASKBOX_BIN, args, options)
}

/** Kills whatever a failed test left running (call from afterEach). */
export function stopAll(): void {
  for (const child of running) child.kill('SIGKILL')
  running.clear()
}

/** oclif wraps error text and prefixes its lines with "›": joined back into plain sentences. */
export function plain(text: string): string {
  return text.replaceAll(/\s*›\s*/g, ' ').replaceAll(/\s+/g, ' ').trim()
}
