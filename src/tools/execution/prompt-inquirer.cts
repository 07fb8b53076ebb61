/**
 * The questions of `@inquirer/*` prompts and of the legacy `inquirer.prompt`, as those libraries put them. Part of
 * the prompt bridge (prompt-bridge.cts): only Node built-ins.
 */
import {type Options, send, text} from './prompt-ask.cjs'
import {askChoice, checked, choicesOf, withProblem} from './prompt-choices.cjs'

/** One `@inquirer/<kind>` prompt: `prompt(config)` → the answer. */
export function inquirerCore(kind: string, config: Options): Promise<unknown> {
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
export async function inquirerLegacy(questions: unknown, given: unknown): Promise<Options> {
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
