import type {AgentHost} from '../../settings/agent-hosts.js'
import type {ToolHints} from '../catalog/hints.js'
import type {CommandTool} from '../catalog/registry.js'
import type {BuiltinName} from '../catalog/tool-names.js'

import {resultMeta} from '../../settings/agent-hosts.js'
import {synonymsOf} from './command-search.js'
import {plainWords} from './terms.js'

// What a tools/list entry carries for the host that reads it, beyond the protocol's fields. Claude Code reads four
// `_meta` keys of a tool (measured on 2.1.332, settings/agent-hosts.ts): whether it loads up front instead of behind
// its ToolSearch, words its search scores (+4 each, against +2 for a description word), how long a result stays in the
// model's view, and whether the person must be asked before every call whatever their allow rules say.

/** The keys Claude Code reads. */
export const ALWAYS_LOAD = 'anthropic/alwaysLoad'
export const SEARCH_HINT = 'anthropic/searchHint'
export const REQUIRES_USER_INTERACTION = 'anthropic/requiresUserInteraction'

/**
 * The longest search hint. Claude Code reads up to 4,096 characters of one and scores each query word found in it
 * once, whatever its length (no length normalisation), so more of a command's own words only add ways to find it; the
 * bound keeps a large CLI's tools/list from growing by more than a few hundred bytes a command.
 */
const HINT_CHARS = 600

/**
 * The built-in tools in a host that defers tools: the ones every other answer names (find, describe and run a
 * command; follow, stop and read a job or a cut output) load up front, so the model can make the call a result tells
 * it to make without searching first; each with the words a person may search for it by.
 */
export const BUILTIN_LOADING: Record<BuiltinName, {loadFirst: boolean; searchHint: string}> = {
  cancel_job: {loadFirst: true, searchHint: 'cancel stop kill abort job running'},
  cli_info: {loadFirst: false, searchHint: 'version about cli info plugins'},
  describe_capabilities: {loadFirst: false, searchHint: 'capabilities server tools reachable limits why missing'},
  describe_command: {loadFirst: true, searchHint: 'describe command help usage flags arguments schema definition'},
  find_commands: {loadFirst: true, searchHint: 'find search command commands cli how which task'},
  job_status: {loadFirst: true, searchHint: 'job status progress wait follow running long'},
  list_commands: {loadFirst: false, searchHint: 'list all commands topics cli'},
  read_doc: {loadFirst: false, searchHint: 'read docs documentation readme guide manual page'},
  read_output: {loadFirst: true, searchHint: 'read output page rest more cut truncated stdout stderr'},
  run_command: {loadFirst: true, searchHint: 'run execute command cli unlisted'},
  search_docs: {loadFirst: false, searchHint: 'search docs documentation readme guide manual'},
}

/** What one tool is, for its `_meta`. */
export interface MetaFacts {
  hints: ToolHints
  /** It loads up front in a host that defers tools (the gateway, the job tools, a small band of commands). */
  loadFirst: boolean
  /** Words a person may use for what it does that its name and description may lack. */
  searchHint: string
}

/** A noun's other number, where a simple rule gives it: `tasks` ↔ `task`, `policies` ↔ `policy` (`status` has none). */
function otherNumber(word: string): string | undefined {
  if (/(?:ss|us|is|ics)$/.test(word) || word.length < 4) return undefined
  if (word.endsWith('ies')) return `${word.slice(0, -3)}y`
  if (word.endsWith('s')) return word.slice(0, -1)
  return word.endsWith('y') && !/[aeiou]y$/.test(word) ? `${word.slice(0, -1)}ies` : `${word}s`
}

/** A word with its other number and the synonyms of both, the way a person might write it instead. */
const formsOf = (word: string): string[] => {
  const other = otherNumber(word)
  return [word, ...(other ? [other] : []), ...synonymsOf(word), ...(other ? synonymsOf(other) : [])]
}

/** Flags every command shares that say nothing about what it does. */
const COMMON_FLAGS = new Set(['help', 'json'])

/**
 * Words a keyword search should find a command by, beyond its name. Claude Code's ToolSearch splits a query on
 * spaces and scores each word found in a tool's name parts (+12), its hint (+4) or its description (+2), whole words
 * as written (no stemming, no synonyms): `builds` in a summary does not answer `build`. So the hint gives, in this
 * order within HINT_CHARS: each word of the id with its other number and synonyms (`tasks:add` → tasks task todo add
 * create new make…), the aliases' words, the summary's words likewise, the words of its flags' and arguments' names
 * (what a person names when they say what to pass: `channel`, `sha`, `version`), then the rest of the description's
 * first paragraph.
 */
export function commandSearchHint(tool: Pick<CommandTool, 'command' | 'id' | 'summary'>): string {
  const split = (text: string) => text.toLowerCase().split(/[:\s_-]+/).filter(Boolean)
  const {command} = tool
  const named = [
    ...Object.entries(command.flags ?? {}).filter(([name, flag]) => !flag.hidden && !COMMON_FLAGS.has(name)).map(([name]) => name),
    ...Object.keys(command.args ?? {}),
  ]
  const paragraph = (command.description ?? '').split(/\n\s*\n/)[0]
  const words = [
    ...split(tool.id).flatMap((word) => formsOf(word)),
    ...(command.aliases ?? []).flatMap((alias) => split(alias)),
    ...plainWords(tool.summary).flatMap((word) => formsOf(word)),
    ...named.flatMap((name) => plainWords(name.replaceAll('-', ' '))).flatMap((word) => [word, ...(otherNumber(word) ? [otherNumber(word)!] : [])]),
    ...plainWords(paragraph),
  ]
  let hint = ''
  for (const word of new Set(words)) {
    if (hint.length + word.length + 1 > HINT_CHARS) continue
    hint = hint ? `${hint} ${word}` : word
  }

  return hint
}

/**
 * A tool's `_meta` for this host: for Claude Code, the result size its budget needs (`budget`), the ask before every
 * call of a destructive tool (also under an allow rule: the host is made to ask, so --trust-host-approval means
 * something there), up-front loading and search words. Nothing for a host that reads none of them.
 */
export function toolMeta(facts: MetaFacts, host: AgentHost, budget: number): Record<string, unknown> | undefined {
  if (host.id !== 'claude-code') return undefined
  return {
    ...resultMeta(budget, host),
    ...(facts.hints.destructiveHint ? {[REQUIRES_USER_INTERACTION]: true} : {}),
    ...(facts.loadFirst ? {[ALWAYS_LOAD]: true} : {}),
    ...(facts.searchHint ? {[SEARCH_HINT]: facts.searchHint} : {}),
  }
}
