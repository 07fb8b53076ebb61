import type {ToolAnnotationSettings} from '../../settings/author-config.js'

export interface Hints {
  destructiveHint: boolean
  idempotentHint: boolean
  openWorldHint: boolean
  readOnlyHint: boolean
  title?: string
}

/** The hints alone, without the title: what list_commands, find_commands and `mcp tools` show. */
export type ToolHints = Omit<Hints, 'title'>

/** A tool's annotations as tools/list carries them: its hints and its title, for commands and built-ins alike. */
export type ToolAnnotations = ToolHints & {title: string}

export function toolAnnotations(hints: ToolHints, title: string): ToolAnnotations {
  return {...hints, title}
}

/** Which evidence decided a command's hints (describe_command reports it as `annotationSource`). */
export type HintSource = 'author' | 'default' | 'summary' | 'topic' | 'verb'

/** What the MCP specification tells clients to assume when a tool says nothing: the conservative reading. */
export const SPEC_DEFAULTS: Hints = {destructiveHint: true, idempotentHint: false, openWorldHint: true, readOnlyHint: false}
const READ_ONLY: Hints = {destructiveHint: false, idempotentHint: true, openWorldHint: true, readOnlyHint: true}

type Kind = 'destructive' | 'read' | 'write'

const set = (words: string) => new Set(words.split(/\s+/).filter(Boolean))

/** Verbs that only read, wherever they stand in an id (`org:list:users`, `org:display:user`). */
export const READ_VERBS = set(`
  browse cat check count describe diff display explain fetch find get inspect list lookup ls print query read search
  show tail validate verify view which whoami`)
/** Nouns that name a read (`version`, `apps:info`): evidence only as the id's last word (`package:version:create` is not). */
const READ_NOUNS = set('help history info logs report stat stats status summary usage version')
/** Verbs that destroy, wherever they stand in an id; find_commands also reads them as a query's wish to destroy. */
export const DESTRUCTIVE_VERBS = set(`
  abort cancel clean clear decommission delete deprovision destroy discard drop erase evict flush kill killall nuke
  overwrite prune purge remove replace reset restore revert revoke rm rollback rotate terminate truncate uninstall
  unpublish unschedule unset wipe`)
export const WRITE_VERBS = set(`
  activate add apply approve assign attach authorize build bump checkout clone commit configure connect convert
  copy create deactivate deploy dev disable disconnect done edit enable end exec execute export fix format generate
  grant import init install invoke join launch leave link load lock login logout mark merge migrate move new open
  patch pause preview promote provision publish push register reject release reload rename request restart resume
  retrieve retry rerun run save scale schedule seed send serve set setup simulate start stop submit
  switch sync tag toggle transfer trigger unlink unlock unregister update upgrade upload upsert use write`)
/** Verbs whose second run with the same arguments changes nothing more. */
const IDEMPOTENT_VERBS = set('disable done enable mark set unset')

/** How a summary may begin ("Lists the apps."): words that read, write or destroy; anything else says nothing. */
const SUMMARY_READ = set(`${[...READ_VERBS].join(' ')} analyze calculate compare determine diagnose estimate lint monitor
  output return stream surface summarize watch`)
const SUMMARY_DESTRUCTIVE = DESTRUCTIVE_VERBS
// `execute` and `retrieve` say too little in a summary: "Execute a SOQL query.", "Retrieve the status of…".
const SUMMARY_WRITE = set(`${[...WRITE_VERBS].filter((v) => !['exec', 'execute', 'retrieve'].includes(v)).join(' ')} authenticate
  change compile download edit initialize interact manage modify perform prepare pull record refresh renew
  scaffold share`)
/**
 * Summary verbs that say plainly the command shows something ("Show…", "List…", "Display…"): with no flag that
 * writes, such a summary is evidence enough on its own, even when the id has no verb (`balance`, `os versions`) or its
 * topic is a noun that could be a verb (`release list`, `load-balancer list`).
 */
const PLAIN_READ_SUMMARY = set('describe display get inspect list print show view')
/** Words a summary may put before its verb ("Automatically fix…", "EXPERIMENTAL: Upgrades…"). */
const LEADING_FILLER = set('also automatically beta directly experimental forcibly immediately interactively locally manually optionally permanently quickly remotely safely then')

/** `lists` → `list`, `applies` → `apply`, `pushes` → `push`: a third-person verb back to the form the lists hold. */
function baseForm(word: string, known: (w: string) => boolean): string {
  if (known(word)) return word
  for (const [suffix, replacement] of [['ies', 'y'], ['es', ''], ['s', ''], ['ed', ''], ['ed', 'e'], ['ing', ''], ['ing', 'e']] as const) {
    if (word.endsWith(suffix) && known(word.slice(0, -suffix.length) + replacement)) return word.slice(0, -suffix.length) + replacement
  }

  return word
}

const knownVerb = (w: string) => SUMMARY_READ.has(w) || SUMMARY_WRITE.has(w) || SUMMARY_DESTRUCTIVE.has(w) || READ_NOUNS.has(w)

/** The verb a summary starts with, and what it says: `Lists your apps.` → list, read. */
export function summaryVerb(summary: string): {kind: Kind | undefined; word: string} | undefined {
  const words = summary
    .toLowerCase()
    .replaceAll(/\[[^\]]*\]|\([^)]*\)/g, ' ')
    .split(/[^a-z-]+/)
    .filter(Boolean)
  const first = words.find((w) => !LEADING_FILLER.has(w))
  if (!first) return undefined
  const word = baseForm(first, knownVerb)
  const kind = SUMMARY_DESTRUCTIVE.has(word) ? 'destructive' : SUMMARY_WRITE.has(word) ? 'write' : SUMMARY_READ.has(word) ? 'read' : undefined
  return {kind, word}
}

/**
 * What one word of an id says. A hyphenated word reads by its first part (`show-access-token` reads, `set-default`
 * writes); a destructive part anywhere destroys (`env:remove-var`); a writing part further on (`log-lock-waits`)
 * only casts doubt: the word is likely a noun, so it decides nothing, but it keeps the command from being read-only.
 * Words that name a read (`version`) count only as the id's last word.
 */
function wordKind(word: string, last: boolean): 'doubt' | Kind | undefined {
  const parts = word.split(/[-_]/).filter(Boolean)
  const [first = ''] = parts
  if (parts.some((p) => DESTRUCTIVE_VERBS.has(p))) return 'destructive'
  if (WRITE_VERBS.has(first)) return 'write'
  if (READ_VERBS.has(first)) return parts.some((p) => WRITE_VERBS.has(p)) ? 'doubt' : 'read'
  if (parts.some((p) => WRITE_VERBS.has(p))) return 'doubt'
  if (last && parts.length === 1 && READ_NOUNS.has(word)) return 'read'
  return undefined
}

interface Said {
  kind: Kind
  word: string
}

/**
 * The id's evidence: the decisive verb (the last word that says something), the strongest other word that writes
 * (a conflict), and a word that only casts doubt.
 */
export function idVerbs(id: string): {conflict?: Said; decisive?: Said; doubt?: string} {
  const words = id.toLowerCase().split(/[:\s]+/).filter(Boolean)
  let decisive: Said | undefined
  let conflict: Said | undefined
  let doubt: string | undefined
  for (let i = words.length - 1; i >= 0; i--) {
    const kind = wordKind(words[i], i === words.length - 1)
    if (kind === 'doubt') doubt ??= words[i]
    else if (!kind) continue
    else if (!decisive) decisive = {kind, word: words[i]}
    else if (kind !== 'read' && (!conflict || kind === 'destructive')) conflict = {kind, word: words[i]}
  }

  return {conflict, decisive, doubt}
}

function hintsOf(kind: Kind, verb: string): Hints {
  if (kind === 'read') return {...READ_ONLY}
  const idempotentHint = IDEMPOTENT_VERBS.has(verb)
  return kind === 'destructive' ? {...SPEC_DEFAULTS, idempotentHint} : {...SPEC_DEFAULTS, destructiveHint: false, idempotentHint}
}

export interface CommandFacts {
  /** The names of its positional arguments (`value` in `pg:settings:log-statement <value>` sets what it shows). */
  argumentNames?: string[]
  /** The description past the summary (help-text's renderedDetails). */
  details?: string
  id: string
  /** The command names a topic of other commands (`apps` above `apps:create`). */
  isTopicIndex?: boolean
  /** The rendered summary (or the description's first paragraph). */
  summary: string
  /** Some flag of the command would write (writingFlagReason): a plain reading summary alone is then not enough. */
  writingFlags?: boolean
}

export interface Classification {
  /** In words, what decided: describe_command and the reviewed read-only lists of the corpus show it. */
  evidence: string[]
  hints: Hints
  source: HintSource
}

function defaultReason(isTopicIndex: boolean, summarySaid: boolean): string {
  if (isTopicIndex) return 'a topic index whose summary begins with no verb that reads'
  return summarySaid ? 'no word of the id says what it does, and a summary alone is not enough' : 'no verb in the id or the summary says what it does'
}

/**
 * Hints from what the command says of itself, before any author setting. Read-only needs agreeing evidence, and
 * any doubt gives the safe answer:
 * - the id's decisive verb (its last word that says something) reads, no other word of the id writes
 *   (`project:deploy:report`, `delete:version` are not read-only), and the summary does not begin with a verb that
 *   writes (`apex tail log`: "Activate debug logging…");
 * - or the command is a topic index (`apps` above `apps:create`) whose summary begins with a verb that reads
 *   ("list your apps"): a topic index alone often does something (`local`, `app dev`, `hydrogen setup`).
 * Otherwise the strongest writing evidence decides (a destructive word anywhere wins), else the spec's defaults.
 */
export function classifyCommand(facts: CommandFacts): Classification {
  const classified = classifyByWords(facts)
  // Writing that its own text calls destroying ("overwrites the remote theme", "cannot be undone") destroys.
  const destroying = !classified.hints.readOnlyHint && !classified.hints.destructiveHint && DESTROYING_TEXT.exec(`${facts.summary}\n${facts.details ?? ''}`)
  if (!destroying) return classified
  return {...classified, evidence: [...classified.evidence, `its text says "${destroying[0].toLowerCase()}"`], hints: {...classified.hints, destructiveHint: true}}
}

/** Text that says a command loses something: what it overwrites, wipes, resets, flashes over or cannot take back. */
const DESTROYING_TEXT = /\b(?:overwrit(?:e|es|ing|ten)|irreversibl[ey]|cannot be (?:undone|reversed)|can't be (?:undone|reversed)|permanently|wipes?|erases?|flash(?:es|ing)?|resets?)\b/i
/** Bare verbs in a reading summary's text that say it can also change things ("Get or manage…", "Also used to change…"). */
const OFFERS_TO_WRITE = set('apply change configure copy create delete disable edit enable execute manage modify overwrite remove replace reset run save set switch toggle update write')
/** Positional arguments that give the value a command sets (`pg:settings:log-min-duration-statement <value>`). */
const SETTING_ARGUMENT = /^(?:value|values|state|enabled?|setting|mode|on|off)$/i

/** The words of the summary and the description's first paragraph say only that the command shows something. */
function offersToWrite(summary: string, details: string): string | undefined {
  const text = `${summary}\n${details.split(/\n\s*\n/)[0] ?? ''}`.toLowerCase()
  // The bare verb or its third person ("…and copies it to the clipboard"); not a participle ("the apps created").
  const offered = (word: string) => OFFERS_TO_WRITE.has(word) || OFFERS_TO_WRITE.has(word.replace(/ies$/, 'y')) || OFFERS_TO_WRITE.has(word.replace(/e?s$/, ''))
  return text.split(/[^a-z]+/).find((word) => offered(word))
}

function classifyByWords({argumentNames = [], details = '', id, isTopicIndex = false, summary, writingFlags = false}: CommandFacts): Classification {
  const {conflict, decisive, doubt} = idVerbs(id)
  const lead = summaryVerb(summary)
  const said = lead?.kind ? `summary begins with "${lead.word}" (${lead.kind})` : undefined
  const writing = [conflict, decisive, lead?.kind ? {kind: lead.kind, word: lead.word} : undefined].filter((e): e is Said => Boolean(e) && e!.kind !== 'read')
  const doubted = doubt ? [`id word "${doubt}" has a part that writes`] : []
  const plainRead = lead?.kind === 'read' && PLAIN_READ_SUMMARY.has(lead.word) && !writingFlags && !offersToWrite(summary, details) && !argumentNames.some((name) => SETTING_ARGUMENT.test(name))

  if (decisive?.kind === 'read' && writing.length === 0 && !doubt) {
    return {evidence: [`id word "${decisive.word}" reads`, said ?? 'summary begins with no known verb'], hints: {...READ_ONLY}, source: 'verb'}
  }

  if (!decisive && writing.length === 0 && !doubt && isTopicIndex && lead?.kind === 'read') {
    return {evidence: ['a topic index (other commands are under it)', said!], hints: {...READ_ONLY}, source: 'topic'}
  }

  // No word of the id says what it does (`balance`, `os versions`), but the summary plainly shows and no flag writes.
  if (!decisive && writing.length === 0 && !doubt && plainRead) {
    return {evidence: ['no word of the id says what it does', said!, 'no flag writes'], hints: {...READ_ONLY}, source: 'summary'}
  }

  // The id's last word reads and only a topic before it could be a verb (`release list`, `tag list`,
  // `load-balancer list`): the topic is a noun when the summary plainly shows and no flag writes. A destroying word
  // anywhere, or a summary that does not plainly read, keeps the safe answer.
  const lastWord = id.toLowerCase().split(/[:\s]+/).filter(Boolean).at(-1)
  if (decisive?.kind === 'read' && decisive.word === lastWord && conflict?.kind === 'write' && writing.length === 1 && !doubt && plainRead) {
    return {evidence: [`id word "${decisive.word}" reads`, `"${conflict.word}" before it names the topic`, said!, 'no flag writes'], hints: {...READ_ONLY}, source: 'summary'}
  }

  if (writing.length > 0) {
    const strongest = writing.find((e) => e.kind === 'destructive') ?? writing[0]
    const fromId = strongest === conflict || strongest === decisive
    const evidence = [
      ...(decisive ? [`id word "${decisive.word}" ${decisive.kind === 'read' ? 'reads' : decisive.kind === 'write' ? 'writes' : 'destroys'}`] : []),
      ...(conflict ? [`id word "${conflict.word}" ${conflict.kind === 'write' ? 'writes' : 'destroys'}`] : []),
      ...doubted,
      ...(said ? [said] : []),
    ]
    // The id's own verb names idempotency (`config:set`); a stronger word elsewhere keeps the conservative reading.
    const verb = strongest === decisive ? decisive.word : ''
    return {evidence, hints: hintsOf(strongest.kind, verb), source: fromId ? 'verb' : 'summary'}
  }

  const evidence = [
    ...(decisive ? [`id word "${decisive.word}" reads`] : []),
    ...doubted,
    ...(said ? [said] : []),
    ...(decisive || doubt ? [] : [defaultReason(isTopicIndex, Boolean(said))]),
  ]
  return {evidence, hints: {...SPEC_DEFAULTS}, source: 'default'}
}

/**
 * Annotations for one command: what it says of itself (classifyCommand), then the author's settings (package.json
 * patterns, then the command's static `mcp` property, each overriding the one before).
 */
export function resolveHints(facts: CommandFacts, authorLayers: readonly (ToolAnnotationSettings | undefined)[]): Classification {
  let {evidence, hints, source} = classifyCommand(facts)
  for (const given of authorLayers) {
    // A key set to undefined (`readOnlyHint: cond ? true : undefined`) says nothing; it must not blank the hint below.
    const layer = Object.fromEntries(Object.entries(given ?? {}).filter(([, value]) => value !== undefined)) as ToolAnnotationSettings
    if (Object.keys(layer).length === 0) continue
    source = 'author'
    // An author who marks a command read-only means it destroys nothing, even if its verb says otherwise.
    if (layer.readOnlyHint === true) hints = {...hints, destructiveHint: false, idempotentHint: true}
    hints = {...hints, ...layer}
  }

  if (source === 'author') evidence = [...evidence, 'the CLI author set annotations']
  if (hints.readOnlyHint) hints.destructiveHint = false
  return {evidence, hints, source}
}

/** Boolean flags that turn something off or only pretend: never a write (`--no-update`, `--skip-build`, `--dry-run`). */
const NEGATING = /^(?:no|skip|without|ignore|dry|dryrun|suppress|hide|exclude)$/
/** Flag-name words that say the flag writes or runs something. */
const FLAG_WRITE_WORDS = set(`${[...DESTRUCTIVE_VERBS].join(' ')} apply autocorrect autofix cmd command commit correct
  create deploy exec execute fix force generate init install overwrite publish push save set sync update upgrade upload
  write`)
/** A flag that is only a switch of state (`--enable`, `--disable`): it turns on or off what the command shows. */
const SWITCH_FLAGS = set('activate deactivate disable enable off on toggle')
/** An option naming where output goes: a file or directory the command writes (`--output-file`, `--results-dir`). */
const DESTINATION = /(?:^|-)(?:out|output|outfile|outdir|results?|save|dest|destination|export|report|log)(?:-|$).*(?:file|dir|directory|folder|path)s?$|^(?:outfile|outdir|save-output)$/
/** Verbs a flag's description may begin with that say it changes something ("Remove all local org authorizations…"). */
const FLAG_TEXT_WRITE = set(`${[...DESTRUCTIVE_VERBS].join(' ')} apply correct create deploy fix generate install overwrite
  publish push run save update upgrade upload write`)
/** Words in a flag's text that say it writes ("File where records are written", "Directory for saving the logs"). */
const WRITES_IN_TEXT = /\b(?:written|writes?\s+(?:to|the|a|an|into)|saved?\b|saving|overwrit\w*|output\s+(?:file|dir(?:ectory)?|folder)|to set on)\b/i

/**
 * Why a flag would make a read-only command change something, or undefined. Such flags are left out of a read-only
 * command's input schema (src/tools/catalog/registry.ts), so its readOnlyHint holds whatever the model passes.
 */
export function writingFlagReason(flag: {description?: string; name: string; summary?: string; type: string}): string | undefined {
  const words = flag.name
    .replaceAll(/([a-z0-9])([A-Z])/g, '$1-$2')
    .toLowerCase()
    .split(/[-_]+/)
    .filter(Boolean)
  if (NEGATING.test(words[0] ?? '') || flag.name === 'dry-run') return undefined
  if (words.length === 1 && SWITCH_FLAGS.has(words[0])) return `it switches what the command shows ("${words[0]}")`
  const writes = words.find((w) => FLAG_WRITE_WORDS.has(w))
  if (writes) return `its name says it writes or runs something ("${writes}")`
  if (flag.type === 'option' && DESTINATION.test(words.join('-'))) return 'it names a file or directory the command writes'
  const text = (flag.summary ?? flag.description ?? '').replaceAll(/\s+/g, ' ').trim()
  const lead = summaryVerb(text)
  if (lead && FLAG_TEXT_WRITE.has(lead.word)) return `its description begins with "${lead.word}"`
  if (WRITES_IN_TEXT.test(text)) return `its description says it writes ("${text.length > 80 ? `${text.slice(0, 79)}…` : text}")`
  return undefined
}
