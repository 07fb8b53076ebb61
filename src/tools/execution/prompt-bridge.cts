/**
 * Loaded into every command the server starts (preloaded into a cold one, imported by every worker before it warms):
 * it catches a command's questions where they are asked. The prompt libraries oclif CLIs use — `@inquirer/*` (and
 * `@inquirer/prompts`, built on them), `inquirer`, `prompts`, `enquirer`, the `ux` prompts of @oclif/core 1–3 and
 * cli-ux, and a bare `readline` question — are wrapped as they load: under `require` by Module._load, under `import`
 * by module hooks (prompt-hooks.mts) that put a wrapper module in front of the library. A wrapped prompt sends the
 * question (what kind, its message, its default and choices) to the server over a local socket and returns the
 * answer as the library would have; the server asks the person, or ends the command (declined, a secret, nobody to
 * ask), and this process is then stopped. No terminal is read and no screen is scraped: the command's stdin stays
 * closed.
 *
 * The server's address comes in OCLIF_MCP_PROMPTS (`<socket>#<token>`), removed before the command runs; a worker
 * hands it over with its call (`connectTo`). Only Node built-ins here: this runs inside the host CLI's process.
 */
import {EventEmitter} from 'node:events'
import {createConnection, type Socket} from 'node:net'
import Module from 'node:module'
import {pathToFileURL} from 'node:url'
import {isMainThread} from 'node:worker_threads'

/** What a question is: its kind decides the form field the person gets. */
type Kind = 'checkbox' | 'confirm' | 'number' | 'secret' | 'select' | 'text' | 'url'

/** A question as it goes to the server; choices are the labels the person sees, answered by their positions. */
interface Question {
  choices?: string[]
  default?: unknown
  kind: Kind
  library: string
  message: string
  /** The answer's name in the command's code (inquirer's and prompts' `name`), when it has one. */
  name?: string
  /** Why the same question is asked again: the command's own check refused the last answer. */
  problem?: string
  /** A page the command opens for the person (a browser login): the person is asked to open it. */
  url?: string
}

interface Choice {
  label: string
  value: unknown
}

const VARIABLE = 'OCLIF_MCP_PROMPTS'
const BRIDGE = Symbol.for('oclif-plugin-mcp/prompt-bridge')
/** How many times a question whose answer the command's own check refused is asked again. */
const MAX_RETRIES = 3

let address: string | undefined = process.env[VARIABLE]
delete process.env[VARIABLE]

let socket: Socket | undefined
let nextId = 0
let buffered = ''
const waiting = new Map<number, (reply: {answer?: unknown; stop?: boolean}) => void>()

/** The server's answer to a question; when the server ends the command instead, this process stops here. */
function send(question: Question): Promise<unknown> {
  if (!address) {
    // Not started by a server that can ask (a worker not yet given its call cannot prompt): the library's own failure.
    return Promise.reject(new Error(`this command asked "${question.message}", and nobody can answer it here`))
  }

  if (!socket) {
    const [path, token] = splitAddress(address)
    socket = createConnection(path)
    socket.setEncoding('utf8')
    socket.write(`${JSON.stringify({hello: token})}\n`)
    socket.on('data', (chunk: string) => {
      buffered += chunk
      for (let end = buffered.indexOf('\n'); end >= 0; end = buffered.indexOf('\n')) {
        const line = buffered.slice(0, end)
        buffered = buffered.slice(end + 1)
        let reply: {answer?: unknown; id?: number; stop?: boolean}
        try {
          reply = JSON.parse(line) as typeof reply
        } catch {
          continue
        }

        const resolve = typeof reply.id === 'number' ? waiting.get(reply.id) : undefined
        if (!resolve) continue
        waiting.delete(reply.id!)
        resolve(reply)
      }
    })
    // The server went away, or ended the call: nothing will answer.
    const lost = () => stopHere()
    socket.on('error', lost)
    socket.on('close', lost)
  }

  const id = nextId++
  socket.ref()
  return new Promise((resolve) => {
    waiting.set(id, (reply) => {
      if (waiting.size === 0) socket?.unref()
      if (reply.stop) stopHere()
      else resolve(reply.answer)
    })
    socket!.write(`${JSON.stringify({id, question})}\n`)
  })
}

/** The server ended the command (it says why in the call's result): end this process, and nothing runs on. */
function stopHere(): never {
  process.exit(75)
}

function splitAddress(value: string): [string, string] {
  const at = value.lastIndexOf('#')
  return [value.slice(0, at), value.slice(at + 1)]
}

// ---- what each library's questions look like -------------------------------------------------------------------

type Options = Record<string, unknown>

const text = (value: unknown): string => (typeof value === 'string' ? value : value === undefined || value === null ? '' : String(value))

/** A question's choices: the ones a person can pick (separators, disabled entries and headings left out). */
function choicesOf(list: unknown, labelKeys: string[], valueOf?: (entry: unknown, position: number) => unknown): Choice[] {
  if (!Array.isArray(list)) return []
  const seen = new Map<string, number>()
  const out: Choice[] = []
  for (const [position, entry] of list.entries()) {
    if (entry === null || entry === undefined) continue
    const choice = (typeof entry === 'object' ? entry : {}) as Options
    if (choice.type === 'separator' || choice.disabled || choice.role === 'separator' || choice.role === 'heading') continue
    const raw = typeof entry === 'object' ? (labelKeys.map((key) => choice[key]).find((v) => typeof v === 'string' && v !== '') ?? String(choice.value)) : String(entry)
    // Two choices that read the same would be one field value: the later ones get their position.
    const count = seen.get(raw as string) ?? 0
    seen.set(raw as string, count + 1)
    // The value the library itself would answer with, from the choice as given (its position in the whole list).
    const value = valueOf ? valueOf(entry, position) : typeof entry !== 'object' ? entry : 'value' in choice ? choice.value : raw
    out.push({label: count === 0 ? (raw as string) : `${raw as string} (${count + 1})`, value})
  }

  return out
}

async function askChoice(base: Omit<Question, 'choices' | 'kind'>, choices: Choice[], many: boolean, defaults: unknown): Promise<unknown> {
  const index = (value: unknown) => choices.findIndex((c) => c.value === value || c.label === value)
  const preset = many ? [defaults].flat().map(index).filter((i) => i >= 0) : typeof defaults === 'number' && !choices.some((c) => c.value === defaults) ? defaults : index(defaults)
  const answer = await send({...base, choices: choices.map((c) => c.label), default: many ? preset : preset === -1 ? undefined : preset, kind: many ? 'checkbox' : 'select'})
  if (many) return (Array.isArray(answer) ? answer : []).map((i) => choices[Number(i)]?.value)
  return choices[Number(answer)]?.value
}

/** Asks until the command's own check accepts the answer (or MAX_RETRIES refusals), as the library would re-prompt. */
async function checked(ask: (problem?: string) => Promise<unknown>, validate: ((value: unknown) => unknown) | undefined): Promise<unknown> {
  let problem: string | undefined
  for (let attempt = 0; ; attempt++) {
    const value = await ask(problem)
    if (typeof validate !== 'function') return value
    const verdict = await validate(value)
    if (verdict === true || verdict === undefined) return value
    // An answer the command refuses is never given to it: after the last refusal the command ends.
    if (attempt === MAX_RETRIES) {
      process.stderr.write(`oclif-plugin-mcp: the command refused ${MAX_RETRIES + 1} answers in a row; it was ended.\n`)
      stopHere()
    }

    problem = typeof verdict === 'string' ? verdict : 'That answer was not accepted.'
  }
}

/** What the command's own check said of the last answer, asked again with the question (never part of its message). */
const withProblem = (message: string, problem?: string): {message: string; problem?: string} => (problem ? {message, problem} : {message})

/** One `@inquirer/<kind>` prompt: `prompt(config)` → the answer. */
function inquirerCore(kind: string, config: Options): Promise<unknown> {
  const message = text(config.message)
  const library = `@inquirer/${kind}`
  const validate = config.validate as ((value: unknown) => unknown) | undefined
  return checked(async (problem) => {
    const base = {library, ...withProblem(message, problem)}
    switch (kind) {
      case 'confirm': {
        return send({...base, default: config.default ?? true, kind: 'confirm'})
      }

      case 'number': {
        return send({...base, default: config.default, kind: 'number'})
      }

      case 'password': {
        return send({...base, kind: 'secret'})
      }

      case 'select':
      case 'rawlist':
      case 'expand': {
        return askChoice(base, choicesOf(config.choices, ['name', 'short']), false, config.default)
      }

      case 'checkbox': {
        const list = config.choices as Options[] | undefined
        const checkedValues = Array.isArray(list) ? list.filter((c) => c && typeof c === 'object' && c.checked).map((c) => c.value) : []
        return askChoice(base, choicesOf(list, ['name']), true, checkedValues)
      }

      case 'search': {
        // What the search lists with nothing typed; a search that lists nothing until a term is typed gets one first.
        const source = config.source as ((term: string | undefined, options: {signal: AbortSignal}) => unknown) | undefined
        const search = async (term: string | undefined) => (source ? choicesOf(await source(term, {signal: new AbortController().signal}), ['name']) : [])
        let choices = await search(undefined)
        if (choices.length === 0) choices = await search(text(await send({...base, kind: 'text', message: `${base.message} (type what to search for)`})))
        return askChoice(base, choices, false, config.default)
      }

      default: {
        return send({...base, default: config.default, kind: 'text'})
      }
    }
  }, validate)
}

/** The legacy `inquirer.prompt(questions, answers)`: each question in turn, `when`, `filter` and `validate` honoured. */
async function inquirerLegacy(questions: unknown, given: unknown): Promise<Options> {
  const answers: Options = {...(given as Options | undefined)}
  const list = Array.isArray(questions) ? questions : questions && typeof questions === 'object' && 'name' in questions ? [questions] : Object.entries((questions ?? {}) as Options).map(([name, q]) => ({name, ...(q as Options)}))
  for (const raw of list as Options[]) {
    const q = raw ?? {}
    const name = text(q.name)
    if (getPath(answers, name) !== undefined) continue
    const value = (key: string) => (typeof q[key] === 'function' ? (q[key] as (a: Options) => unknown)(answers) : q[key])
    // As inquirer: a `when` function that answers falsy skips the question, a `when` value only when it is `false`.
    if (typeof q.when === 'function' ? !(await value('when')) : q.when === false) continue
    const message = text(await value('message')) || `${name}:`
    const defaults = await value('default')
    const type = text(q.type) || 'input'
    const base = {library: 'inquirer', message, name}
    const validate = typeof q.validate === 'function' ? (v: unknown) => (q.validate as (v: unknown, a: Options) => unknown)(v, answers) : undefined
    // As inquirer: the answer is filtered first, then checked, and the filtered value is the one kept.
    const filter = async (raw: unknown) => (typeof q.filter === 'function' ? (q.filter as (v: unknown, a: Options) => unknown)(raw, answers) : raw)
    const answer = await checked(async (problem) => filter(await asked(problem)), validate)
    setPath(answers, name, answer)

    async function asked(problem?: string): Promise<unknown> {
      const asked = {...base, ...withProblem(message, problem)}
      if (type === 'confirm') return send({...asked, default: defaults ?? true, kind: 'confirm'})
      if (type === 'number') return send({...asked, default: defaults, kind: 'number'})
      if (type === 'password') return send({...asked, kind: 'secret'})
      if (['list', 'rawlist', 'expand', 'autocomplete', 'search-list'].includes(type) || (type !== 'checkbox' && 'choices' in q)) {
        const choices = type === 'autocomplete' && typeof q.source === 'function' ? await (q.source as (a: Options, t: string) => unknown)(answers, '') : await value('choices')
        return askChoice(asked, choicesOf(choices, ['name', 'short']), false, defaults)
      }

      if (type === 'checkbox') {
        const choices = (await value('choices')) as Options[] | undefined
        const checkedValues = Array.isArray(choices) ? choices.filter((c) => c && typeof c === 'object' && c.checked).map((c) => c.value) : []
        return askChoice(asked, choicesOf(choices, ['name']), true, defaults ?? checkedValues)
      }

      return send({...asked, default: defaults, kind: 'text'})
    }
  }

  return answers
}

function getPath(source: Options, path: string): unknown {
  let at: unknown = source
  for (const part of path.split('.')) at = at && typeof at === 'object' ? (at as Options)[part] : undefined
  return at
}

function setPath(target: Options, path: string, value: unknown): void {
  const parts = path.split('.')
  let at = target
  for (const part of parts.slice(0, -1)) at = (at[part] ??= {}) as Options
  at[parts.at(-1)!] = value
}

/** `prompts(questions)` (terkelg/prompts): `type` may be a function or falsy (skipped), `format` applied after. */
async function promptsLibrary(questions: unknown, override: Options): Promise<Options> {
  const answers: Options = {}
  let previous: unknown
  for (const q of [questions].flat() as Options[]) {
    const value = (key: string) => (typeof q[key] === 'function' ? (q[key] as (p: unknown, a: Options, q: Options) => unknown)(previous, answers, q) : q[key])
    const type = text(await value('type'))
    if (!type) continue
    const name = text(q.name)
    // What the command set with prompts.override() answers its question, as prompts does.
    if (override[name] !== undefined) {
      answers[name] = override[name]
      previous = override[name]
      continue
    }

    // A masked text is a password (prompts' `style`).
    const masked = q.style === 'password' || q.style === 'invisible'
    const message = text(await value('message'))
    const initial = await value('initial')
    const base = {library: 'prompts', message, name}
    const validate = typeof q.validate === 'function' ? (v: unknown) => (q.validate as (v: unknown, a: Options) => unknown)(v, answers) : undefined
    let answer = await checked(async (problem) => {
      const asked = {...base, ...withProblem(message, problem)}
      switch (type) {
        case 'confirm':
        case 'toggle': {
          return send({...asked, default: initial ?? false, kind: 'confirm'})
        }

        case 'number': {
          return send({...asked, default: initial, kind: 'number'})
        }

        case 'password':
        case 'invisible': {
          return send({...asked, kind: 'secret'})
        }

        case 'select':
        case 'multiselect':
        case 'autocompleteMultiselect': {
          // As prompts: a choice answers with its value, or its position when it has none (a string choice too).
          const list = await value('choices')
          const valueOf = (entry: unknown, position: number) => (entry && typeof entry === 'object' && (entry as Options).value !== undefined ? (entry as Options).value : position)
          const many = type !== 'select'
          const selected = Array.isArray(list) ? list.flatMap((c, i) => (c && typeof c === 'object' && (c as Options).selected ? [valueOf(c, i)] : [])) : []
          return askChoice(asked, choicesOf(list, ['title'], valueOf), many, many ? selected : typeof initial === 'number' ? valueOf((list as unknown[])?.[initial], initial) : initial)
        }

        case 'autocomplete': {
          // As prompts: a choice answers with its value, or its title.
          const list = await value('choices')
          const valueOf = (entry: unknown) => (entry && typeof entry === 'object' ? ((entry as Options).value ?? (entry as Options).title) : entry)
          return askChoice(asked, choicesOf(list, ['title'], valueOf), false, typeof initial === 'number' && Array.isArray(list) ? valueOf(list[initial]) : initial)
        }

        case 'list': {
          const line = text(await send({...asked, default: initial, kind: 'text'}))
          return line.split(text(q.separator) || ',').map((s) => s.trim())
        }

        default: {
          return send({...asked, default: initial, kind: masked ? 'secret' : 'text'})
        }
      }
    }, validate)
    if (typeof q.format === 'function') answer = await (q.format as (v: unknown, a: Options) => unknown)(answer, answers)
    answers[name] = answer
    previous = answer
  }

  return answers
}

/** enquirer's `prompt(questions)`: a select answers with the choice's name, as enquirer does. */
async function enquirerLibrary(questions: unknown): Promise<Options> {
  const answers: Options = {}
  for (const q of [questions].flat() as Options[]) {
    const value = async (key: string) => (typeof q[key] === 'function' && key !== 'validate' ? (q[key] as (a: Options) => unknown)(answers) : q[key])
    if (await value('skip')) continue
    const type = text(q.type) || 'input'
    const name = text(await value('name'))
    const message = text(await value('message')) || name
    const initial = await value('initial')
    const base = {library: 'enquirer', message, name}
    const validate = typeof q.validate === 'function' ? (v: unknown) => (q.validate as (v: unknown) => unknown)(v) : undefined
    let answer = await checked(async (problem) => {
      const asked = {...base, ...withProblem(message, problem)}
      if (type === 'confirm' || type === 'toggle') return send({...asked, default: initial ?? false, kind: 'confirm'})
      if (type === 'number' || type === 'numeral') return send({...asked, default: initial, kind: 'number'})
      if (type === 'password' || type === 'invisible') return send({...asked, kind: 'secret'})
      const many = type === 'multiselect' || (type === 'autocomplete' && q.multiple === true)
      if (['select', 'autocomplete', 'multiselect'].includes(type)) {
        // As enquirer: a choice answers with its name.
        const valueOf = (entry: unknown) => (entry && typeof entry === 'object' ? ((entry as Options).name ?? (entry as Options).message ?? (entry as Options).value) : entry)
        return askChoice(asked, choicesOf(await value('choices'), ['message', 'name'], valueOf), many, initial)
      }

      return send({...asked, default: initial, kind: 'text'})
    }, validate)
    if (typeof q.result === 'function') answer = await (q.result as (this: Options, v: unknown) => unknown).call(q, answer)
    answers[name] = answer
  }

  return answers
}

/** oclif's own `ux.prompt(name, {type, default})`, `ux.confirm(message)` and `ux.anykey(message)` (@oclif/core 1–3, cli-ux). */
function oclifUx(exports: Options, library: string): void {
  const prompt = exports.prompt
  if (typeof prompt === 'function') {
    exports.prompt = async (name: string, options: Options = {}) => {
      if (options.type === 'mask' || options.type === 'hide') return text(await send({kind: 'secret', library, message: text(name)}))
      const answer = await lineQuestion(name, library, options.default)
      return answer === '' && options.default !== undefined ? options.default : answer
    }
  }

  if (typeof exports.confirm === 'function') exports.confirm = async (message: string) => Boolean(await send({default: false, kind: 'confirm', library, message: text(message)}))
  if (typeof exports.anykey === 'function') {
    exports.anykey = async (message?: string) => {
      const go = await send({default: true, kind: 'confirm', library, message: text(message) || 'Press any key to continue'})
      if (!go) stopHere()
    }
  }
}

/** A yes/no question as a line prompt shows it: `[y/N]`, `(Y/n)`, `(yes/no)`; the capital letter is the default. */
const YES_NO = /[[(]\s*(y(?:es)?)\s*\/\s*(n(?:o)?)\s*[)\]]\s*[:?]?\s*$/i

/** A question asked as a line of text: a yes/no one goes as yes/no, and its answer comes back as the line `y` or `n`. */
function lineQuestion(query: unknown, library: string, defaults?: unknown): Promise<string> {
  const message = text(query).trim()
  const yesNo = YES_NO.exec(message)
  if (!yesNo) return send({default: defaults, kind: 'text', library, message}).then(text)
  const [, yes, no] = yesNo
  const fallback = no !== no.toLowerCase() ? false : yes !== yes.toLowerCase() ? true : false
  return send({default: fallback, kind: 'confirm', library, message}).then((answer) => (answer ? 'y' : 'n'))
}

/**
 * A bare `readline` question (`rl.question(query, cb)`, `readline/promises`), when it reads this process's stdin. That
 * stdin is closed: its end would close the interface (and the command would take that as no answer) while the person
 * is being asked, so the interface's close waits for the answer.
 */
function readlineQuestions(): void {
  /* eslint-disable @typescript-eslint/no-require-imports */
  const callbacks = require('node:readline') as {Interface: {prototype: Options}}
  const promises = require('node:readline/promises') as {Interface: {prototype: Options}}
  /* eslint-enable @typescript-eslint/no-require-imports */
  type Line = {close: () => void; input?: unknown}
  const ask = (rl: Line, query: unknown): Promise<string> => {
    const close = rl.close
    let closeAfter = false
    rl.close = () => {
      closeAfter = true
    }

    return lineQuestion(query, 'readline').finally(() => {
      rl.close = close
      if (closeAfter) queueMicrotask(() => rl.close())
    })
  }

  const callbackQuestion = callbacks.Interface.prototype.question as (this: Line, ...args: unknown[]) => unknown
  callbacks.Interface.prototype.question = function (this: Line, query: unknown, ...rest: unknown[]) {
    if (this.input !== process.stdin) return callbackQuestion.call(this, query, ...rest)
    const done = rest.find((r) => typeof r === 'function') as ((answer: string) => void) | undefined
    void ask(this, query).then((answer) => done?.(answer))
  }

  const promiseQuestion = promises.Interface.prototype.question as (this: Line, ...args: unknown[]) => unknown
  if (promiseQuestion === callbacks.Interface.prototype.question) return
  promises.Interface.prototype.question = function (this: Line, query: unknown, ...rest: unknown[]) {
    if (this.input !== process.stdin) return promiseQuestion.call(this, query, ...rest)
    return ask(this, query)
  }
}

/**
 * The `open` package (a browser login, a dashboard): a web page goes to the person as a page to open (URL-mode
 * elicitation) and the command goes on once they agreed; anything else (a file, an app) opens as the library would.
 * What `open` resolves to is the browser's process; the stand-in is one that has already gone its way.
 */
function openPage(original: (...args: unknown[]) => unknown): (target: unknown, options?: unknown) => unknown {
  return async (target, options) => {
    const url = text(target)
    if (!/^https?:\/\//i.test(url)) return original(target, options)
    await send({kind: 'url', library: 'open', message: 'Open this page in a browser to continue', url})
    return Object.assign(new EventEmitter(), {
      kill: () => false,
      pid: undefined,
      ref() {
        return this
      },
      unref() {
        return this
      },
    })
  }
}

// ---- putting the wrappers in place --------------------------------------------------------------------------------

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

/** Where a worker's questions go: the address its call brings (a cold command has it from its environment). */
export function connectTo(value: string | undefined): void {
  address = value
}

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
