import {type ChildProcess, spawn} from 'node:child_process'

/** A JSON-RPC message as the server wrote it. */
export type Message = Record<string, unknown>

/**
 * Whether `value` is a well-formed JSON-RPC 2.0 message a server may send: a response with exactly one of `result`
 * (an object) and `error` ({code: integer, message: string}), or a request/notification (a string `method`).
 * Returns the problem, or undefined when it is well-formed.
 */
export function malformation(value: unknown): string | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return 'not an object'
  const message = value as Message
  if (message.jsonrpc !== '2.0') return 'jsonrpc is not "2.0"'
  if ('method' in message) return typeof message.method === 'string' ? undefined : 'method is not a string'
  if (!('id' in message)) return 'a response without an id'
  if (message.id !== null && typeof message.id !== 'string' && typeof message.id !== 'number') return 'bad id type'
  if (('result' in message) === ('error' in message)) return 'needs exactly one of result and error'
  if ('result' in message) return message.result !== null && typeof message.result === 'object' ? undefined : 'result is not an object'
  const error = message.error as {code?: unknown; message?: unknown} | null
  if (!error || typeof error !== 'object') return 'error is not an object'
  if (!Number.isInteger(error.code)) return 'error.code is not an integer'
  return typeof error.message === 'string' ? undefined : 'error.message is not a string'
}

/**
 * `mcp stdio` driven with raw lines, as a buggy or hostile client would: write anything, wait for the answer with a
 * given id. Every line the server writes is kept, so a test can check them all.
 */
export class RawStdio {
  readonly child: ChildProcess
  /** Every line written to stdout, parsed when it is JSON (else the raw string). */
  readonly lines: unknown[] = []
  private buffered = ''
  private stderrHead = ''
  private stderrText = ''
  private readonly waiters = new Map<string, (message: Message) => void>()
  private readonly exited: Promise<void>

  /** `command`: how the CLI spells `mcp stdio` (default `mcp stdio`); `node`: the Node to run it on (default this one). */
  constructor(bin: string, args: string[], options: {command?: string[]; cwd: string; env: Record<string, string>; node?: string; nodeArgs?: string[]}) {
    const {command = ['mcp', 'stdio'], node = process.execPath, nodeArgs = [], ...spawnOptions} = options
    this.child = spawn(node, [...nodeArgs, bin, ...command, ...args], {...spawnOptions, stdio: ['pipe', 'pipe', 'pipe']})
    this.exited = new Promise((resolve) => this.child.once('close', () => resolve()))
    this.child.stderr!.on('data', (chunk: Buffer) => {
      // Keep the start (banners) and the end: a fuzzer can make the server log a lot.
      if (this.stderrHead.length < 4000) this.stderrHead = (this.stderrHead + chunk).slice(0, 4000)
      this.stderrText = (this.stderrText + chunk).slice(-20_000)
    })
    this.child.stdout!.on('data', (chunk: Buffer) => this.read(chunk))
    // A write to a server that died must fail the test through `alive`, not crash the runner with EPIPE.
    this.child.stdin!.on('error', () => {})
  }

  get alive(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null
  }

  get pid(): number {
    return this.child.pid!
  }

  /** The first 4,000 and the last 20,000 characters written to stderr. */
  stderr(): {head: string; tail: string} {
    return {head: this.stderrHead, tail: this.stderrText}
  }

  /** Writes raw text (a line break is added when missing). */
  write(text: string): void {
    this.child.stdin!.write(text.endsWith('\n') ? text : `${text}\n`)
  }

  /** Resolves with the server's answer to the request with this id, or undefined after `timeoutMs`. */
  answer(id: number | string, timeoutMs: number): Promise<Message | undefined> {
    const key = JSON.stringify(id)
    const found = this.lines.find((line) => (line as Message)?.id === id && !('method' in (line as Message)))
    if (found) return Promise.resolve(found as Message)
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiters.delete(key)
        resolve(undefined)
      }, timeoutMs)
      this.waiters.set(key, (message) => {
        clearTimeout(timer)
        resolve(message)
      })
    })
  }

  /** Sends a request and waits for its answer. */
  async request(message: Message, timeoutMs = 30_000): Promise<Message | undefined> {
    const answered = this.answer(message.id as number | string, timeoutMs)
    this.write(JSON.stringify(message))
    return answered
  }

  /** SIGTERM, then SIGKILL after 10 s; resolves once the process has ended. */
  async stop(): Promise<void> {
    if (this.alive) {
      this.child.stdin!.end()
      this.child.kill('SIGTERM')
      const timer = setTimeout(() => this.child.kill('SIGKILL'), 10_000)
      await this.exited
      clearTimeout(timer)
    }
  }

  private read(chunk: Buffer): void {
    this.buffered += chunk.toString('utf8')
    let newline
    while ((newline = this.buffered.indexOf('\n')) >= 0) {
      const line = this.buffered.slice(0, newline)
      this.buffered = this.buffered.slice(newline + 1)
      let parsed: unknown
      try {
        parsed = JSON.parse(line)
      } catch {
        parsed = line
      }

      this.lines.push(parsed)
      const message = parsed as Message
      if (message && typeof message === 'object' && 'id' in message && !('method' in message)) {
        this.waiters.get(JSON.stringify(message.id))?.(message)
      }
    }
  }
}
