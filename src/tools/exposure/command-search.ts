import type {CommandTool} from '../catalog/registry.js'

import {commandDetails, commandExamples, topicIds} from '../catalog/help-text.js'
import {DESTRUCTIVE_VERBS, READ_VERBS, WRITE_VERBS} from '../catalog/hints.js'
import {MIN_PREFIX_LENGTH, stem, terms} from './terms.js'

/**
 * Ranked keyword search over the command tools: the engine behind `find_commands`.
 *
 * At build time every command becomes a map of normalised terms (lower case, stop words out, stemmed) to a weight
 * that says where the term appears (FIELD_WEIGHTS). A query is normalised the same way and its words are grouped by
 * idea (synonyms are one idea). Each idea scores, per command, its best-reached term (the word itself, a synonym, or
 * for longer words a term it is a prefix of) times the idea's rarity (IDF over every command it reaches). A command's
 * score is the sum over ideas, times the share of ideas it matched well, times a bonus for naming its id's words.
 * A query that spells a command's id, alias or tool name (`apps:create`, `apps create`, `apps_create`) puts it first.
 * A query that asks for nothing destructive (no word that destroys, like `delete` or `wipe`) finds every command
 * whose name says it destroys after the others: "deploy source" must not offer project:delete:source before
 * project:deploy:start.
 */

export interface CommandMatch {
  score: number
  tool: CommandTool
}

export interface CommandIndex {
  /** Every command that matches the query, best first, ties in id order. A query of only stop words matches nothing. */
  search(query: string): CommandMatch[]
}

/**
 * Where a term appears, and what that is worth. The id's words say what a command does (its own name above all);
 * the summary is the author's one-line answer to "what is this for"; descriptions, flags and examples are long and
 * wordy, so they mostly break ties. A term counts once per field, not once per occurrence.
 */
const FIELD_WEIGHTS = {
  name: 10, // words of the id's last part: `create` in apps:create
  topic: 6, // words of the id's earlier parts: `apps` in apps:create
  alias: 6, // words of the command's aliases: `login` for auth:login
  summary: 5,
  role: 5, // `list` for a command named after a topic of other commands (oclif's convention: `apps` lists apps)
  description: 1.5,
  flagName: 1.5, // flag and arg names
  example: 1,
  flagText: 0.5, // flag and arg descriptions
} as const
type Field = keyof typeof FIELD_WEIGHTS

/** How far a field longer than usual for its kind is scaled down (BM25's b): a paragraph-long summary matches a lot. */
const LENGTH_NORM = 0.5
/** A term found in several fields: its best field counts in full, each other one at this share. */
const OTHER_FIELDS = 0.25
/** The weight at which an idea counts as fully matched; a description-only match counts as partly matched. */
const FULL_MATCH = 2
/** What a synonym or a prefix match is worth next to the query's own word. */
const SYNONYM_WEIGHT = 0.8
const PREFIX_WEIGHT = 0.5
/** A query that asks to read (its first verb reads: `show the logs`) scores a read-only command this share higher. */
const READ_INTENT_BONUS = 0.5
/** Up to this share is added when the query names every word of the id: `reset the database` means pg:reset. */
const ID_COVERAGE_BONUS = 0.5
/** The command whose id, alias or tool name the query spells out scores this much above the best other match. */
const EXACT_BONUS = 100

/** Words that mean the same in a CLI's vocabulary: generic verbs and nouns many CLIs share, not one CLI's jargon. */
const SYNONYMS = [
  'delete remove rm destroy erase drop uninstall unset', 'show info display get view describe detail inspect see',
  'list ls enumerate', 'create add new make provision generate', 'update edit modify change',
  'clear cleanup clean purge prune wipe flush', 'done complete finish', 'stop halt kill terminate shutdown',
  'restart reboot reload bounce', 'run execute exec launch', 'init initialize setup bootstrap',
  'enable activate', 'disable deactivate off', 'upload push publish sync', 'download pull fetch retrieve',
  'login authenticate signin auth', 'user collaborator member teammate', 'app application',
  'database db postgres postgresql pg', 'config configuration configure', 'var variable env environment',
  'certificate cert ssl tls', 'directory dir folder', 'repository repo', 'task todo', 'process ps',
  'size resize', 'report summary', 'dev development', 'use switch', 'link attach connect', 'unlink detach disconnect',
  'copy clone duplicate fork', 'buy purchase', 'revoke invalidate', 'invite add',
].map((line) => line.split(' '))

/** The words of a CLI's vocabulary that mean what `word` means (as written, not stemmed), itself excluded. */
export function synonymsOf(word: string): string[] {
  const lower = word.toLowerCase()
  return SYNONYMS.find((group) => group.includes(lower))?.filter((other) => other !== lower) ?? []
}

/** Stem → the stems of its synonyms. */
const SYNONYMS_OF = new Map<string, string[]>()
for (const group of SYNONYMS) {
  const stems = [...new Set(group.map((w) => stem(w)))]
  for (const s of stems) SYNONYMS_OF.set(s, [...(SYNONYMS_OF.get(s) ?? []), ...stems.filter((other) => other !== s)])
}

/** The stems of a set of verbs of the classifier's, with their synonyms. */
const stemsOf = (verbs: ReadonlySet<string>) => new Set([...verbs].flatMap((verb) => [stem(verb), ...(SYNONYMS_OF.get(stem(verb)) ?? [])]))
/** Words that ask to destroy something. */
const DESTROYING = stemsOf(DESTRUCTIVE_VERBS)
const READING = stemsOf(READ_VERBS)
const WRITING = new Set([...stemsOf(WRITE_VERBS), ...DESTROYING])

/** What the query's first verb asks for: to read (`show`, `see`, `list`), to change something, or nothing said. */
function intent(queryTerms: readonly string[]): 'read' | 'write' | undefined {
  for (const term of queryTerms) {
    // A word of both kinds (a synonym of a reading verb that also writes) says nothing; the next verb may.
    if (READING.has(term) && !WRITING.has(term)) return 'read'
    if (WRITING.has(term) && !READING.has(term)) return 'write'
  }

  return undefined
}

/**
 * A command whose name says it destroys (`project:delete:source`, `drains:remove`): what a query that asks for
 * nothing destructive must not find first. One destructive only by its summary ("Clears the login credentials" of
 * auth:logout) or by default is ranked as it matches: the query may well name it (`log out`).
 */
const destroys = (tool: CommandTool) => tool.hints.destructiveHint && (tool.hintSource === 'verb' || tool.hintSource === 'author')

/** The spelling every word of one synonym group shares, so that `show app info` asks for two ideas, not three. */
function ideaKey(word: string): string {
  return [word, ...(SYNONYMS_OF.get(word) ?? [])].sort()[0]
}

function fieldTexts(tool: CommandTool, isTopic: boolean): [Field, string][] {
  const {command} = tool
  const parts = tool.id.split(':')
  // Without a summary, the description's first paragraph stands in for it: don't count it twice.
  const details = commandDetails(command)
  const params = [...Object.values(command.flags ?? {}).filter((f) => !f.hidden), ...Object.values(command.args ?? {})]
  return [
    ['name', parts.at(-1)!],
    ['topic', parts.slice(0, -1).join(' ')],
    ['alias', (command.aliases ?? []).join(' ')],
    ['summary', tool.summary],
    ['role', isTopic ? 'list' : ''],
    ['description', details],
    ['flagName', params.map((p) => p.name).join(' ')],
    ['flagText', params.map((p) => ('summary' in p && p.summary) || p.description || '').join(' ')],
    ['example', commandExamples(command).join(' ')],
  ]
}

/** Per command: stem → weight, from the fields it appears in, each scaled by its length against the average. */
function termWeights(tools: readonly CommandTool[]): Map<string, number>[] {
  const topics = topicIds(tools.map((t) => t.id))
  const tokenised = tools.map((tool) => fieldTexts(tool, topics.has(tool.id)).map(([field, text]) => ({field, words: terms(text)})))
  const average = new Map<Field, number>()
  for (const field of Object.keys(FIELD_WEIGHTS) as Field[]) {
    const lengths = tokenised.flatMap((fields) => fields.filter((f) => f.field === field && f.words.length > 0).map((f) => f.words.length))
    average.set(field, lengths.reduce((a, b) => a + b, 0) / Math.max(lengths.length, 1))
  }

  return tokenised.map((fields) => {
    const found = new Map<string, number[]>()
    for (const {field, words} of fields) {
      const weight = FIELD_WEIGHTS[field] / (1 - LENGTH_NORM + (LENGTH_NORM * words.length) / average.get(field)!)
      for (const term of new Set(words)) found.set(term, [...(found.get(term) ?? []), weight])
    }

    const combine = (ws: number[]) => Math.max(...ws) + OTHER_FIELDS * (ws.reduce((a, b) => a + b, 0) - Math.max(...ws))
    return new Map([...found].map(([term, ws]) => [term, combine(ws)]))
  })
}

export function buildCommandIndex(tools: readonly CommandTool[]): CommandIndex {
  const ordered = [...tools].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
  /** Stem → [command position, weight] for each command it appears in. */
  const postings = new Map<string, [number, number][]>()
  for (const [i, weights] of termWeights(ordered).entries()) {
    for (const [term, weight] of weights) {
      if (!postings.has(term)) postings.set(term, [])
      postings.get(term)!.push([i, weight])
    }
  }

  const vocabulary = [...postings.keys()]
  const idTerms = ordered.map((tool) => [...new Set(terms(tool.id.replaceAll(':', ' ')))])
  // Ids first, then aliases, then tool names: one command's alias or name never hides another command's id.
  const exact = new Map<string, number>()
  const spellings = [(t: CommandTool) => [t.id], (t: CommandTool) => t.command.aliases ?? [], (t: CommandTool) => [t.name]]
  for (const spellingsOf of spellings) {
    for (const [i, tool] of ordered.entries()) {
      for (const key of spellingsOf(tool).map((k) => k.toLowerCase().replaceAll(' ', ':'))) if (!exact.has(key)) exact.set(key, i)
    }
  }

  /** Query words grouped by idea; each idea maps the index terms it reaches to what reaching them is worth. */
  function ideas(query: string): Map<string, number>[] {
    const byKey = new Map<string, Map<string, number>>()
    for (const word of terms(query)) {
      const reached = byKey.get(ideaKey(word)) ?? new Map<string, number>()
      byKey.set(ideaKey(word), reached)
      const add = (t: string, w: number) => postings.has(t) && (reached.get(t) ?? 0) < w && reached.set(t, w)
      add(word, 1)
      for (const synonym of SYNONYMS_OF.get(word) ?? []) add(synonym, SYNONYM_WEIGHT)
      if (word.length >= MIN_PREFIX_LENGTH) for (const t of vocabulary) if (t.startsWith(word)) add(t, PREFIX_WEIGHT)
    }

    return [...byKey.values()]
  }

  return {
    search(query: string): CommandMatch[] {
      const wanted = ideas(query)
      const scores = new Float64Array(ordered.length)
      const matched = new Float64Array(ordered.length)
      const best = new Float64Array(ordered.length)
      for (const reached of wanted) {
        best.fill(0)
        for (const [term, worth] of reached) for (const [i, weight] of postings.get(term)!) best[i] = Math.max(best[i], worth * weight)
        // The idea's rarity is that of all the terms it reaches together, so that a rare synonym (`generate` for
        // `add`) cannot outweigh the word the user typed.
        const df = best.reduce((n, value) => (value > 0 ? n + 1 : n), 0)
        const idf = Math.log(1 + ordered.length / Math.max(df, 1))
        for (const [i, value] of best.entries()) {
          if (value === 0) continue
          scores[i] += idf * value
          matched[i] += Math.min(1, value / FULL_MATCH)
        }
      }

      const reachedAll = new Set(wanted.flatMap((reached) => [...reached.keys()]))
      const queryTerms = terms(query)
      const reads = intent(queryTerms) === 'read'
      const results: CommandMatch[] = []
      for (const [i, score] of scores.entries()) {
        if (score === 0) continue
        const named = idTerms[i].filter((t) => reachedAll.has(t)).length / Math.max(idTerms[i].length, 1)
        const value = score * (matched[i] / wanted.length) * (1 + ID_COVERAGE_BONUS * named) * (reads && ordered[i].hints.readOnlyHint ? 1 + READ_INTENT_BONUS : 1)
        results.push({score: Math.round(value * 1000) / 1000, tool: ordered[i]})
      }

      // `ordered` is in id order and the sort is stable, so equal scores stay in id order.
      results.sort((a, b) => b.score - a.score)
      if (!queryTerms.some((term) => DESTROYING.has(term))) {
        const kept = results.filter((r) => !destroys(r.tool))
        if (kept.length < results.length) results.splice(0, results.length, ...kept, ...results.filter((r) => destroys(r.tool)))
      }

      const spelled = exact.get(query.trim().toLowerCase().replaceAll(/\s+/g, ':'))
      if (spelled === undefined) return results
      const others = results.filter((r) => r.tool !== ordered[spelled])
      return [{score: (others[0]?.score ?? 0) + EXACT_BONUS, tool: ordered[spelled]}, ...others]
    },
  }
}
