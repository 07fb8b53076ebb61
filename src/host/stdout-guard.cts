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

/** The stdout claimed by claimStdout, if it has been. */
export function claimedStdout(): undefined | Writable {
  return (globalThis as Claimed)[CLAIM]
}

/**
 * Whether an oclif `init` hook is looking at a command of ours whose stdout must carry one thing only: `mcp stdio`
 * (the protocol), or any `mcp` command given `--json` (its JSON). Topic separator ":" or " ".
 */
export function claimsStdout(id: string | undefined, argv: readonly string[]): boolean {
  const [command, rest] = id === 'mcp' ? [argv[0], argv.slice(1)] : [id?.replace(/^mcp[: ]/, ''), argv]
  if (!id?.startsWith('mcp') || command === undefined) return false
  // Help is for the person, on stdout as everywhere else.
  if (rest.some((arg) => arg === '--help' || arg === '-h')) return false
  if (command === 'stdio') return true
  return ['call', 'config', 'skill', 'tools'].includes(command) && rest.includes('--json')
}

/**
 * Why this plugin's commands cannot run in this host, in one line, or undefined when they can. A CLI of the oclif v1
 * era (@oclif/config 1, with @oclif/command) loads commands with require(), and this plugin is ES modules: that
 * works only on a Node that can require() them (20.19 and 22.12 on); elsewhere the host would fail with a stack
 * trace about ERR_REQUIRE_ESM. Said from this CommonJS hook, which every host can load, before the command is.
 */
export function hostRefusal(id: string | undefined, hostBase: string | undefined, features: {require_module?: boolean} = process.features as never): string | undefined {
  if (!id?.startsWith('mcp') || !hostBase?.startsWith('@oclif/config@1') || features.require_module) return undefined
  return `oclif-plugin-mcp cannot run in this CLI on Node ${process.version}: the CLI is built on ${hostBase} (oclif v1), which loads plugins with require(), and this Node cannot require() ES modules. Run the CLI on Node 20.19, 22.12 or later, or move the CLI to @oclif/core.`
}
