/**
 * A one-shot worker: started ahead of need, it loads the host CLI's @oclif/core and Config (where the bin can
 * require them) and imports the modules the server names (warm-modules.ts): every plugin's hooks, then it says it
 * is ready, then, until its call comes, the modules of the commands likely to be called, without running them (a
 * command's module graph is most of what a run costs on CLIs such as @shopify/cli, whose one commands module holds
 * every command). For its one call it takes the call's cwd, environment and command line and runs the CLI's own bin
 * script, so the command goes through the CLI's normal path (its bin, hooks included) with the module cache already
 * warm; then the process ends like a cold run would.
 *
 * Run as: node worker-entry.js <cli root> <bin script>, with an IPC channel: the first message names the modules,
 * the next one is the call. Only Node built-ins here: everything else is the host's.
 */
import {existsSync, readFileSync} from 'node:fs'
import {createRequire, Module, runMain} from 'node:module'
import {dirname, join} from 'node:path'
import {pathToFileURL} from 'node:url'

// Ends this worker (and the command it runs) should the server die without stopping it.
import './orphan-guard.cjs'
// Catches the command's questions: in place before anything of the host loads, so every prompt library is wrapped.
import './prompt-bridge.cjs'
import {connectTo} from './prompt-ask.cjs'

interface Call {
  /** The command id and its arguments, secret values replaced by a placeholder (argv.ts concealedArgv). */
  argv: string[]
  cwd: string
  env: Record<string, string | undefined>
  /** Where the command's questions go (prompt-channel.ts), when the server takes them. */
  prompts?: string
  /** The entries of `process.argv` (by position) that hold a secret, whole. */
  secrets?: [position: number, entry: string][]
}

/** The modules to import ahead (warm-modules.ts). */
interface Warm {
  commands: string[]
  hooks: string[]
}

const [root, bin] = process.argv.slice(2)
let started = false

/** Whether Node runs `file` as CommonJS: `.cjs`, or not `.mjs` and its package's `type` is not "module". */
function loadsAsCommonJs(file: string): boolean {
  if (file.endsWith('.cjs')) return true
  if (file.endsWith('.mjs')) return false
  for (let dir = dirname(file); ; dir = dirname(dir)) {
    const pjson = join(dir, 'package.json')
    if (existsSync(pjson)) {
      try {
        return (JSON.parse(readFileSync(pjson, 'utf8')) as {type?: string}).type !== 'module'
      } catch {
        return true
      }
    }

    if (dirname(dir) === dir) return true
  }
}

// A CommonJS bin run from a shell is the process's main module, and @oclif/core's `run()` without arguments finds
// the CLI's root from `require.main.filename`. Each module's `require.main` is fixed when the module loads, and the
// host's @oclif/core loads while this worker warms, before the bin runs: so the bin is made the main module first.
if (loadsAsCommonJs(bin)) {
  const main = new Module(bin)
  main.filename = bin
  main.id = '.'
  ;(process as {mainModule?: Module}).mainModule = main
}

async function importQuietly(file: string): Promise<void> {
  try {
    await import(pathToFileURL(file).href)
  } catch {
    // The real run will meet (and report) the same problem; warming is best effort.
  }
}

/** The host's @oclif/core and its Config, loaded as the bin will load them; nothing when the bin cannot require it. */
async function loadConfig(): Promise<void> {
  const require = createRequire(bin)
  let core: string
  try {
    core = require.resolve('@oclif/core')
  } catch {
    return
  }

  // Required as the bin requires it, so @oclif/core 1 finds the CLI's root from its module.parent chain as in a cold
  // run (createRequire's module stands at the bin's path); imported where it cannot be required.
  type Core = {Config: {load(root: string): Promise<unknown>}}
  let loaded: Core
  try {
    loaded = require('@oclif/core') as Core
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ERR_REQUIRE_ESM') throw error
    loaded = (await import(pathToFileURL(core).href)) as Core
  }

  await loaded.Config.load(root)
}

async function run(call: Call): Promise<void> {
  started = true
  connectTo(call.prompts)
  process.disconnect?.()
  process.chdir(call.cwd)
  for (const key of Object.keys(process.env)) if (!(key in call.env)) delete process.env[key]
  Object.assign(process.env, call.env)
  // For the orphan guard only, which read it when this worker started (as it does in a cold command).
  delete process.env.OCLIF_MCP_SERVER_PID
  process.argv = [process.execPath, bin, ...call.argv]
  // What `ps` shows: the command this process now runs, as a cold run's command line would read (Linux truncates
  // it to the length of the worker's own command line), with its secrets' placeholders: every local user reads it.
  // Where the command line is what `ps` shows; on Windows the title is the console window's, not ours to change.
  if (process.platform !== 'win32') process.title = process.argv.join(' ')
  for (const [position, entry] of call.secrets ?? []) process.argv[position] = entry
  // A module warmed ahead may have required the bin itself (vtex's init hook does, for a value it exports): cached,
  // it would not run again as the main module, and the command would end at once, printing nothing.
  const required = createRequire(bin)
  delete required.cache[required.resolve(bin)]
  // As Node runs a script named on its command line: a CommonJS bin becomes `require.main` (bins that call `run()`
  // with no arguments find the CLI's root from it), an ES module one is loaded as the entry point.
  runMain(bin)
}

// A server that goes away while this worker is idle takes the worker with it.
process.on('disconnect', () => {
  if (!started) process.exit(0)
})
let named: (warm: Warm) => void = () => {}
const toWarm = new Promise<Warm>((resolve) => (named = resolve))
process.on('message', (message: Call | {warm: Warm}) => {
  if ('warm' in message) return named(message.warm)
  if (started) return
  run(message).catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`)
    process.exitCode = 1
  })
})
// A bin that loads v8-compile-cache first (oclif v1 CLIs such as vtex) compiles what it then requires its own way,
// and what loads (or fails to load) differs from what this worker's imports would load ahead: such a worker only
// starts Node ahead of need, so that its run is the cold run.
const compileCached = /require\(\s*['"]v8-compile-cache['"]\s*\)/.test(readFileSync(bin, 'utf8'))
if (!compileCached) await loadConfig().catch(() => {})
const {commands, hooks} = await toWarm
if (!compileCached) for (const file of hooks) await importQuietly(file)
process.send?.({ready: true})
for (const file of compileCached ? [] : commands) {
  if (started) break
  await importQuietly(file)
}
