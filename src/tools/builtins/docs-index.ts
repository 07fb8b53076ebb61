import type {Config} from '@oclif/core'

import {readFile, realpath, stat} from 'node:fs/promises'
import {relative, sep} from 'node:path'

import {reaches, terms} from '../exposure/terms.js'

/** One Markdown file the docs tools may read; `path` is its public name, `file` stays on the server. */
export interface DocFile {
  file: string
  path: string
  root: string
  sections: DocSection[]
  title: string
  titleTerms: string[]
}

interface DocSection {
  heading: string
  /** The heading's and the text's terms (src/tools/exposure/terms.ts), for search. */
  headingTerms: string[]
  text: string
  textTerms: string[]
}

export interface DocHit {
  path: string
  score: number
  section: string
  snippet: string
  title: string
}

const MAX_DOC_BYTES = 1024 * 1024
const DEFAULT_GLOBS = ['README.md', 'readme.md', 'docs/**/*.md', 'doc/**/*.md']

function splitSections(markdown: string): DocSection[] {
  const sections: {heading: string; text: string}[] = [{heading: '', text: ''}]
  let fenced = false
  for (const line of markdown.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced
    const heading = fenced ? null : /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(line)
    if (heading) sections.push({heading: heading[1], text: ''})
    else sections.at(-1)!.text += `${line}\n`
  }

  return sections.filter((s) => s.heading || s.text.trim()).map((s) => ({...s, headingTerms: terms(s.heading), textTerms: terms(s.text)}))
}

/** True when `file`, with every link resolved, is a regular file inside `root`. */
export async function isDocFileOf(root: string, file: string): Promise<boolean> {
  try {
    const [realRoot, realFile] = await Promise.all([realpath(root), realpath(file)])
    return realFile.startsWith(realRoot + sep) && (await stat(realFile)).isFile()
  } catch {
    return false
  }
}

/**
 * A listed doc's text as it is now, or undefined when it is no longer a file inside its root: checked again at read
 * time, so that a link swapped in after indexing cannot lead outside the docs (read_doc and the docs resources).
 */
export async function readDocText(doc: DocFile): Promise<string | undefined> {
  return (await isDocFileOf(doc.root, doc.file)) ? readFile(doc.file, 'utf8') : undefined
}

async function loadDoc(root: string, prefix: string, file: string): Promise<{doc: DocFile; identity: string} | undefined> {
  if (!(await isDocFileOf(root, file))) return undefined
  const info = await stat(file)
  if (info.size > MAX_DOC_BYTES) return undefined
  const markdown = await readFile(file, 'utf8')
  const sections = splitSections(markdown)
  const path = `${prefix}/${relative(root, file).split(sep).join('/')}`
  const title = sections.find((s) => s.heading)?.heading ?? path
  return {doc: {file, path, root, sections, title, titleTerms: terms(title)}, identity: `${info.dev}:${info.ino}`}
}

/**
 * The Markdown docs of the CLI and of each of its plugins (README and docs/**), plus the author's `docs` globs.
 * Links are not followed, and a file whose real path leaves its package is dropped.
 */
export async function buildDocsIndex(config: Config, extraGlobs: readonly string[] = []): Promise<Map<string, DocFile>> {
  const roots = new Map<string, {globs: string[]; root: string}>()
  roots.set(config.name, {globs: [...DEFAULT_GLOBS, ...extraGlobs], root: config.root})
  for (const plugin of config.getPluginsList()) {
    if (!roots.has(plugin.name)) roots.set(plugin.name, {globs: DEFAULT_GLOBS, root: plugin.root})
  }

  const docs = new Map<string, DocFile>()
  // One file is one doc: on a case-insensitive file system (macOS, Windows) `README.md` and `readme.md` both match it.
  const seen = new Set<string>()
  const {default: fg} = await import('fast-glob')
  for (const [prefix, {globs, root}] of roots) {
    const files = await fg(globs, {absolute: true, cwd: root, followSymbolicLinks: false, ignore: ['**/node_modules/**'], onlyFiles: true})
    const loaded = await Promise.all(files.sort().map((file) => loadDoc(root, prefix, file).catch(() => undefined)))
    for (const found of loaded) {
      if (!found || docs.has(found.doc.path) || seen.has(found.identity)) continue
      seen.add(found.identity)
      docs.set(found.doc.path, found.doc)
    }
  }

  return docs
}

/** How many of `tokens` the term reaches. */
function count(tokens: readonly string[], term: string): number {
  let n = 0
  for (const token of tokens) if (reaches(term, token)) n++
  return n
}

function snippet(text: string, words: readonly string[]): string {
  const lines = text.split('\n').filter((l) => l.trim())
  let best = 0
  let bestScore = -1
  for (const [i, line] of lines.entries()) {
    const lineTerms = terms(line)
    const score = words.filter((w) => count(lineTerms, w) > 0).length
    if (score > bestScore) [best, bestScore] = [i, score]
  }

  const joined = lines.slice(best, best + 3).join(' ').replaceAll(/\s+/g, ' ').trim()
  return joined.length > 240 ? `${joined.slice(0, 239)}…` : joined
}

/**
 * Ranks sections by the query's terms (the tokeniser find_commands uses): a term in the heading counts 4, in the
 * document title 2, each occurrence in the text 1 (at most 5 per term); sections holding every term get a 50 % bonus.
 */
export function searchDocs(docs: ReadonlyMap<string, DocFile>, query: string, limit: number): DocHit[] {
  const words = [...new Set(terms(query))]
  if (words.length === 0) return []
  const hits: DocHit[] = []
  for (const doc of docs.values()) {
    for (const section of doc.sections) {
      let score = 0
      let matched = 0
      for (const word of words) {
        const inHeading = count(section.headingTerms, word) > 0
        const inText = Math.min(5, count(section.textTerms, word))
        score += (inHeading ? 4 : 0) + (count(doc.titleTerms, word) > 0 ? 2 : 0) + inText
        if (inHeading || inText > 0) matched++
      }

      if (matched === 0) continue
      if (matched === words.length) score *= 1.5
      hits.push({path: doc.path, score, section: section.heading, snippet: snippet(section.text || section.heading, words), title: doc.title})
    }
  }

  return hits.sort((a, b) => b.score - a.score || a.path.localeCompare(b.path)).slice(0, limit)
}

/** The CLI's and its plugins' Markdown docs, indexed on first use (search_docs, read_doc and the docs resources share it). */
export type DocsIndex = () => Promise<Map<string, DocFile>>

export function docsIndex(config: Config, extraGlobs: readonly string[]): DocsIndex {
  let index: Promise<Map<string, DocFile>> | undefined
  return () => (index ??= buildDocsIndex(config, extraGlobs))
}
