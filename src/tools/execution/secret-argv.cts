/**
 * Preloaded into a cold command that has secret arguments (`node --require secret-argv.cjs <bin> …`): its command
 * line, which every local user can read for as long as it runs, holds a placeholder where each secret value goes
 * (argv.ts concealedArgv). The real entries come on file descriptor 3, a pipe only this process was given: JSON
 * `[[position in process.argv, entry], …]`. They are put into `process.argv` before the CLI's bin parses it, and
 * the pipe is closed, so nothing the command starts inherits it. Without them the command does not run: it would
 * otherwise get the placeholder as its value.
 */
import {closeSync, readSync} from 'node:fs'
import {isMainThread} from 'node:worker_threads'

const SECRETS_FD = 3
/** argv.ts SECRET_PLACEHOLDER (this file is CommonJS and loads before anything else: it imports nothing of ours). */
const PLACEHOLDER = '[secret]'

function fail(reason: string): never {
  process.stderr.write(`oclif-plugin-mcp: the secret arguments of this command could not be read (${reason}); nothing was run.\n`)
  process.exit(70)
}

/** Everything the server wrote to the pipe, up to its end (the server writes it whole and closes it). */
function readAll(): Buffer {
  const chunks: Buffer[] = []
  const buffer = Buffer.alloc(64 * 1024)
  const pause = new Int32Array(new SharedArrayBuffer(4))
  for (;;) {
    let read: number
    try {
      read = readSync(SECRETS_FD, buffer, 0, buffer.length, null)
    } catch (error) {
      // A pipe handed over non-blocking answers EAGAIN until the server's write arrives: wait a moment and read on.
      if ((error as NodeJS.ErrnoException).code === 'EAGAIN') {
        Atomics.wait(pause, 0, 0, 5)
        continue
      }

      fail((error as Error).message)
    }

    if (read === 0) return Buffer.concat(chunks)
    chunks.push(Buffer.from(buffer.subarray(0, read)))
  }
}

/** Reads the entries from the pipe, closes it, and puts them into process.argv. */
function putSecretsInPlace(): void {
  let entries: unknown
  try {
    entries = JSON.parse(readAll().toString('utf8'))
  } catch (error) {
    fail((error as Error).message)
  } finally {
    try {
      closeSync(SECRETS_FD)
    } catch {
      // Already closed, or never open (then reading failed and said so).
    }
  }

  if (!Array.isArray(entries)) fail('not a list')
  for (const item of entries as unknown[]) {
    const [position, entry] = Array.isArray(item) ? (item as unknown[]) : []
    if (typeof position !== 'number' || typeof entry !== 'string' || !process.argv[position]?.endsWith(PLACEHOLDER)) fail('no placeholder where one was named')
    process.argv[position] = entry
  }
}

// `--require` preloads run again in every worker thread of this process, Node's module-hooks thread (module.register)
// among them. Descriptor 3 and process.argv are the main thread's: a worker that read the pipe would take the secrets
// (the main thread then reads EBADF), and after the main thread closed it, fd 3 is some other descriptor of this
// process (libuv's /dev/null reserve, an epoll fd): reading it fails, fail() ends that worker, and a hooks thread that
// ends while it starts leaves module.register() waiting for it forever.
if (isMainThread) putSecretsInPlace()
