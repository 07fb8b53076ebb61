import {Writable} from 'node:stream'

const CLAIM = Symbol.for('oclif-plugin-mcp.protocol-stdout')

type Claimed = typeof globalThis & {[CLAIM]?: Writable}

/**
 * Gives stdout to the protocol alone. From the first call on, everything else that writes to `process.stdout`
 * (another plugin's hook, a warning, a stray console.log) lands on stderr; the returned stream is the only way left
 * to write to the real stdout. Idempotent: the init hook claims it early, the command again.
 */
export function claimStdout(): Writable {
  const global = globalThis as Claimed
  if (global[CLAIM]) return global[CLAIM]

  const stdout = process.stdout
  const realWrite = stdout.write.bind(stdout) as (chunk: Uint8Array | string, callback: (error?: Error | null) => void) => boolean
  stdout.write = ((chunk: Uint8Array | string, encoding?: BufferEncoding | ((error?: Error | null) => void), callback?: (error?: Error | null) => void) =>
    process.stderr.write(chunk, encoding as BufferEncoding, callback)) as typeof stdout.write

  const protocol = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      realWrite(chunk, callback)
    },
  })
  // A client that goes away closes the pipe; the stdio server notices through its own input ending.
  stdout.on('error', (error) => protocol.destroy(error))
  global[CLAIM] = protocol
  return protocol
}

/** Whether an oclif `init` hook is looking at `mcp stdio` (topic separator ":" or " "). */
export function isStdioInvocation(id: string | undefined, argv: readonly string[]): boolean {
  if (id === 'mcp:stdio' || id === 'mcp stdio') return true
  return id === 'mcp' && argv[0] === 'stdio'
}
