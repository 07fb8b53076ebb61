/**
 * The questions of `prompts`, `enquirer`, oclif's own `ux` prompts and a bare `readline` question, and the pages the
 * `open` package opens, as each puts them. Part of the prompt bridge (prompt-bridge.cts): only Node built-ins.
 */
import {EventEmitter} from 'node:events'

import {type Options, send, stopHere, text} from './prompt-ask.cjs'
import {askChoice, checked, choicesOf, withProblem} from './prompt-choices.cjs'

/** `prompts(questions)` (terkelg/prompts): `type` may be a function or falsy (skipped), `format` applied after. */
export async function promptsLibrary(questions: unknown, override: Options): Promise<Options> {
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
export async function enquirerLibrary(questions: unknown): Promise<Options> {
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
export function oclifUx(exports: Options, library: string): void {
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
export function readlineQuestions(): void {
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
export function openPage(original: (...args: unknown[]) => unknown): (target: unknown, options?: unknown) => unknown {
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
