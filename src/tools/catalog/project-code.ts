// Commands that read, but run code of the directory they run in first: zapier `validate` runs the project's build
// script (its own `--skip-build` says so) before it reads anything. Such a command is not read-only whatever its verb:
// what it runs is whatever the project says. What the metadata cannot show (a CLI that evaluates a JavaScript config
// file on every command) is left to the person: `--allow-cwd` says where calls may run (SECURITY.md).

const set = (words: string) => new Set(words.split(/\s+/).filter(Boolean))

/** Flag-name words that turn something off: `--skip-build`, `--no-install`, `--ignore-scripts`, `--without-hooks`. */
const TURNS_OFF = set('bypass disable ignore no omit skip without')
/** What a project runs or installs: a flag turning one off says the command does it unless told not to. */
const RUNS_CODE = set(`build builds bundle compile deps dependencies exec execute hook hooks install installs migrate
  migrations npm pnpm postinstall prebuild preinstall prepare prepublish run script scripts test tests transpile yarn`)

// Third person, a gerund or "will": the command's own doing ("Runs the build script"), not an instruction to the
// reader ("build the project first"). A word may stand between the verb and what it runs ("the _zapier-build
// script", "the app config code"), but not a word that starts a clause of its own ("run to test").
const FILLER = String.raw`(?:(?!(?:to|a|an|on|in|at|for|with|when|if|and|or|as)\b)[\w.-]+\s+)?`
const OWNER = String.raw`(?:the\s+|your\s+|its\s+|any\s+|all\s+)?(?:(?:project|package|app)(?:'s)?\s+)?`
/** Sentences of a command's text that say it runs or installs the project's code. */
const SAYS_IT_RUNS = [
  new RegExp(String.raw`\b(?:runs|running|executes|executing|invokes|invoking|evaluates|evaluating|will\s+(?:run|execute|invoke|evaluate))\s+${OWNER}${FILLER}(?:scripts?|hooks?|tests|test\s+suites?|build|code|npm|yarn)\b`, 'i'),
  new RegExp(String.raw`\b(?:builds|building|compiles|compiling|bundles|bundling|will\s+(?:build|compile|bundle))\s+${OWNER}(?:project|app|application|source|code|package|integration)\b`, 'i'),
  new RegExp(String.raw`\b(?:installs|installing|will\s+install)\s+${OWNER}(?:dependencies|packages|modules|node_modules)\b`, 'i'),
]

export interface CodeFacts {
  /** The command's summary and description, rendered. */
  text: string
  flags: readonly {allowNo?: boolean; name: string; type: string}[]
}

/**
 * Why a command runs the project's own code (a build, an install, its scripts or tests) on a plain call, or undefined:
 * a boolean flag that turns such a step off (`--skip-build`, `--no-install`, `--[no-]install`), or text that says the
 * command does it. Conflicting evidence against a reading verb, so the command is not read-only.
 */
export function projectCodeReason({flags, text}: CodeFacts): string | undefined {
  for (const flag of flags) {
    if (flag.type !== 'boolean') continue
    const words = flag.name.toLowerCase().split(/[-_]+/).filter(Boolean)
    const [first = '', ...rest] = words
    const off = TURNS_OFF.has(first) && rest.find((w) => RUNS_CODE.has(w))
    if (off) return `flag --${flag.name} turns off a step it takes by default ("${off}")`
    if (flag.allowNo && RUNS_CODE.has(first)) return `flag --[no-]${flag.name} turns off a step it takes by default ("${first}")`
  }

  // What is quoted is another command line ("use 'sf logic run test' first"), not what this command does.
  const prose = text.replaceAll(/`[^`]*`|"[^"]*"|(?<=^|\s)'[^']*'/g, ' ').replaceAll(/\s+/g, ' ')
  for (const pattern of SAYS_IT_RUNS) {
    const said = pattern.exec(prose)
    if (said) return `its text says it runs the project's code ("${said[0]}")`
  }

  return undefined
}

// Commands that run what they are given: an arbitrary query in a language that can write (GraphQL, SQL), a script or
// expression, a shell command, or an API request whose method or body is an argument (prism `graphql:query`:
// "Execute an arbitrary GraphQL query" ran a deleteIntegration mutation). What runs is the caller's, not the command's:
// such a command is not read-only, whatever its verb. A query in a language that only reads (SOQL) is not this.

/** Text that says the command runs whatever it is handed. */
const RUNS_WHAT_IT_IS_GIVEN = [
  /\b(?:arbitrary|any|raw|custom)\s+(?:(?:graphql|sql|http|https|rest|api|shell|javascript|js|typescript|python|bash|cypher|gremlin)\s+)?(?:query|queries|mutations?|requests?|commands?|code|scripts?|statements?|expressions?|api\s+calls?|calls?\s+to\s+the\s+api)\b/i,
  /\bgraphql\s+(?:query|queries|mutations?|requests?|operations?)\b/i,
  /\b(?:(?:make|send|perform|issue)s?|making|sending|performing|issuing)\s+(?:an?\s+)?(?:authenticated\s+|raw\s+)?(?:http|https|api|rest)\s+requests?\b/i,
  /\b(?:evaluates?|evaluating|eval)\s+(?:an?\s+|the\s+given\s+)?(?:javascript|js|code|expressions?|scripts?)\b/i,
]
/** A flag that chooses the HTTP method of a request the command sends. */
const METHOD_FLAG = /^(?:x-)?(?:http-?|request-?)?method$|^(?:x|verb)$/i
const WRITING_METHODS = /^(?:post|put|patch|delete)$/i

export interface InputFacts {
  flags: readonly {description?: string; name: string; options?: readonly string[]; summary?: string; type: string}[]
  /** The command's summary and description, rendered. */
  text: string
}

/** Why a command runs what it is given (so it is not read-only), or undefined. */
export function runsGivenInputReason({flags, text}: InputFacts): string | undefined {
  const prose = text.replaceAll(/\s+/g, ' ')
  for (const pattern of RUNS_WHAT_IT_IS_GIVEN) {
    const said = pattern.exec(prose)
    if (said) return `its text says it runs what it is given ("${said[0]}")`
  }

  for (const flag of flags) {
    if (flag.type !== 'option' || !METHOD_FLAG.test(flag.name)) continue
    const choices = flag.options ?? []
    const about = `${flag.summary ?? ''} ${flag.description ?? ''}`
    if (choices.some((choice) => WRITING_METHODS.test(choice)) || /\b(?:http|request)\b/i.test(about)) return `flag --${flag.name} chooses the HTTP method of the request it sends`
  }

  return undefined
}
