/**
 * Loaded into every command the server starts (preloaded into a cold one, imported by every worker before it warms):
 * it catches a command's questions where they are asked. The prompt libraries oclif CLIs use — `@inquirer/*` (and
 * `@inquirer/prompts`, built on them), `inquirer`, `prompts`, `enquirer`, the `ux` prompts of @oclif/core 1–3 and
 * cli-ux, a bare `readline` question — and the `open` package are wrapped as they load: under `require` as each
 * library's entry file compiles, under `import` by module hooks (prompt-hooks.mts) that put a wrapper module in front
 * of the library. A wrapped prompt (prompt-inquirer.cts, prompt-libraries.cts) sends the question — its kind, message,
 * default and choices — to the server (prompt-ask.cts) and returns the answer as the library would have; the server
 * asks the person, or ends the command (declined, a secret, nobody to ask), and this process is then stopped. No
 * terminal is read and no screen is scraped: the command's stdin stays closed. Only Node built-ins here and in the
 * files it loads: this runs inside the host CLI's process. */
import Module from 'node:module'
import {pathToFileURL} from 'node:url'
import {isMainThread} from 'node:worker_threads'

import {type Options} from './prompt-ask.cjs'
import {inquirerCore, inquirerLegacy} from './prompt-inquirer.cjs'
import {enquirerLibrary, oclifUx, openPage, promptsLibrary, readlineQuestions} from './prompt-libraries.cjs'

const BRIDGE = Symbol.for('oclif-plugin-mcp/prompt-bridge')

const INQUIRER_KINDS = new Set(['checkbox', 'confirm', 'editor', 'expand', 'input', 'number', 'password', 'rawlist', 'search', 'select'])
const wrappedOf = new WeakMap<object, unknown>()
/** What this bridge made or changed already (kept here, not on the exports: those may be frozen). */
const wrappedSet = new WeakSet<object>()

/** A prompt function's stand-in: what `@inquirer/*` return is a promise with `cancel()`. */
function promiseLike(promise: Promise<unknown>): Promise<unknown> {
  return Object.assign(promise, {cancel() {}})
}

/**
 * The library's exports with its prompts wrapped. `name` is the specifier it was loaded by (`@inquirer/select`,
 * `inquirer`, `prompts`, `enquirer`) or `oclif-ux` for the ux prompt module. Objects are changed in place; a
 * function export is given a stand-in, the same one each time.
 */
function wrap(name: string, given: unknown): unknown {
  if (!given || (typeof given !== 'object' && typeof given !== 'function')) return given
  if (wrappedSet.has(given as object)) return given
  const known = wrappedOf.get(given as object)
  if (known) return known
  // An ES module's namespace (what `require` of an ES-module-only package gives on Node 20.19 and later) cannot be
  // changed: its stand-in is a plain copy.
  const exports = Object.prototype.toString.call(given) === '[object Module]' ? {...(given as Options)} : given
  const target = exports as Options
  let result: unknown = exports
  if (name.startsWith('@inquirer/')) {
    const kind = name.slice('@inquirer/'.length)
    const original = (typeof exports === 'function' ? exports : target.default) as ((...args: unknown[]) => unknown) | undefined
    if (typeof original === 'function') {
      const stand = Object.assign((config: Options) => promiseLike(inquirerCore(kind, config ?? {})), original)
      wrappedSet.add(stand)
      if (typeof exports === 'function') result = stand
      else target.default = stand
    }
  } else if (name === 'inquirer') {
    const holder = (typeof target.prompt === 'function' ? target : target.default) as Options | undefined
    if (holder && typeof holder.prompt === 'function') {
      const prompt = Object.assign((questions: unknown, answers?: unknown) => promiseLike(inquirerLegacy(questions, answers)), holder.prompt as object)
      holder.prompt = prompt
      if (typeof holder.createPromptModule === 'function') holder.createPromptModule = () => Object.assign((q: unknown, a?: unknown) => promiseLike(inquirerLegacy(q, a)), {registerPrompt() {}, restoreDefaultPrompts() {}, prompts: {}})
    }
  } else if (name === 'prompts' && typeof exports === 'function') {
    const original = exports as ((...args: unknown[]) => unknown) & Options
    const stand = Object.assign(function (this: unknown, questions: unknown, options?: unknown) {
      // What the command injected itself (its tests' way to answer) is the library's to use.
      if ((original._injected as unknown[] | undefined)?.length) return original.call(this, questions, options)
      return promptsLibrary(questions, (original._override as Options | undefined) ?? {})
    }, original)
    stand.prompt = stand
    result = stand
  } else if (name === 'enquirer') {
    const klass = (typeof exports === 'function' ? exports : target.default) as (Options & {prototype: Options}) | undefined
    if (klass?.prototype && typeof klass.prototype.prompt === 'function') {
      klass.prototype.prompt = function (questions: unknown) {
        return enquirerLibrary(questions)
      }
    }
  } else if (name === 'open') {
    const original = (typeof exports === 'function' ? exports : target.default) as ((...args: unknown[]) => unknown) | undefined
    if (typeof original === 'function') {
      const stand = Object.assign(openPage(original), original)
      wrappedSet.add(stand)
      if (typeof exports === 'function') result = stand
      else target.default = stand
    }
  } else if (name === 'oclif-ux') {
    oclifUx(target, 'oclif ux')
  }

  wrappedSet.add(result as object)
  wrappedOf.set(given as object, result)
  return result
}

/** The specifiers whose exports are wrapped when required (ES module imports: prompt-hooks.mts). */
export function wrappedName(request: string): string | undefined {
  if (request === 'inquirer' || request === 'prompts' || request === 'enquirer' || request === 'open') return request
  if (request.startsWith('@inquirer/') && INQUIRER_KINDS.has(request.slice('@inquirer/'.length))) return request
  return undefined
}

/** The ux prompt module of @oclif/core 1–3 (`lib/cli-ux/prompt.js`) and of cli-ux (`lib/prompt.js`). */
const UX_PROMPT = /[/\\]node_modules[/\\](?:@oclif[/\\]core[/\\]lib[/\\]cli-ux|cli-ux[/\\]lib)[/\\]prompt\.js$/

type Compile = (this: unknown, module: {exports: unknown}, filename: string) => void
const loader = Module as unknown as {_extensions: Record<string, Compile>; _resolveFilename: (request: string, parent: unknown, isMain: boolean) => string}

/** A prompt library's package and the directory it sits in, from a file's path. */
const LIBRARY_FILE = /^(.*[/\\]node_modules)[/\\]((?:@inquirer[/\\][^/\\]+)|inquirer|prompts|enquirer|open)[/\\]/

const entries = new Map<string, string | undefined>()
/** The file `require(name)` loads for the copy of the package under `modules` (each copy found once). */
function entryOf(name: string, modules: string): string | undefined {
  const key = `${modules}\0${name}`
  if (!entries.has(key)) {
    let file: string | undefined
    try {
      const from = new Module(`${modules}/x.js`)
      from.paths = [modules]
      file = loader._resolveFilename(name, from, false)
    } catch {
      file = undefined
    }

    entries.set(key, file)
  }

  return entries.get(key)
}

/** What a file that was just loaded under `require` holds: a prompt library's entry or the ux prompt module, wrapped. */
function afterCompile(module: {exports: unknown}, filename: string): void {
  if (UX_PROMPT.test(filename)) {
    wrap('oclif-ux', module.exports)
    return
  }

  const found = LIBRARY_FILE.exec(filename)
  if (!found) return
  const name = found[2].replaceAll('\\', '/')
  if (!wrappedName(name) || entryOf(name, found[1]) !== filename) return
  // A library the bridge cannot wrap loads as it is: its question then meets the closed stdin, as before.
  try {
    module.exports = wrap(name, module.exports)
  } catch {
    // Left as it was.
  }
}

// Wrapped as each file is compiled, not as it is required: a frame of ours between a dependency and a module it
// requires would push the dependency's own frame past the ten Node looks at to decide whether a deprecated built-in
// (`punycode`, DEP0040) is required by a package or by the author's code, and the command would print a warning.
// (Node 20 compiles `.cjs` files with the `.js` handler; later versions have one of their own.)
for (const extension of ['.js', '.cjs']) {
  const compile = loader._extensions[extension]
  if (typeof compile !== 'function') continue
  loader._extensions[extension] = function (module, filename) {
    compile.call(this, module, filename)
    afterCompile(module, filename)
  }
}

;(globalThis as Record<symbol, unknown>)[BRIDGE] = {wrap}
readlineQuestions()

// ES modules: a hook thread that puts a wrapper in front of each library's module (Node 20.6 and later). Registered by
// the main thread only: this file is preloaded (`--require`), and Node runs preloads again in the hooks thread itself.
const register = (Module as unknown as {register?: (specifier: string, parent: string) => void}).register
if (typeof register === 'function' && isMainThread) {
  try {
    register('./prompt-hooks.mjs', pathToFileURL(__filename).href)
  } catch {
    // A Node without the hooks: only what is required is caught.
  }
}
