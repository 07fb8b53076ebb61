import type {Config} from '@oclif/core'

import {readFile, realpath, stat} from 'node:fs/promises'
import {relative, sep} from 'node:path'

/** One Markdown file the docs tools may read; `path` is its public name, `file` stays on the server. */
export interface DocFile {
  file: string
  path: string
  root: string
  sections: DocSection[]
  title: string
}

interface DocSection {
  heading: string
  text: string
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
  const sections: DocSection[] = [{heading: '', text: ''}]
  let fenced = false
  for (const line of markdown.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced
    const heading = fenced ? null : /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(line)
    if (heading) sections.push({heading: heading[1], text: ''})
    else sections.at(-1)!.text += `${line}\n`
  }

  return sections.filter((s) => s.heading || s.text.trim())
}

/** True when `file`, with every link resolved, lies inside `root`. */
export async function isInside(root: string, file: string): Promise<boolean> {
  try {
    const [realRoot, realFile] = await Promise.all([realpath(root), realpath(file)])
    return realFile.startsWith(realRoot + sep) && (await stat(realFile)).isFile()
  } catch {
    return false
  }
}

async function loadDoc(root: string, prefix: string, file: string): Promise<DocFile | undefined> {
  if (!(await isInside(root, file)) || (await stat(file)).size > MAX_DOC_BYTES) return undefined
  const markdown = await readFile(file, 'utf8')
  const sections = splitSections(markdown)
  const path = `${prefix}/${relative(root, file).split(sep).join('/')}`
  return {file, path, root, sections, title: sections.find((s) => s.heading)?.heading ?? path}
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
  const {default: fg} = await import('fast-glob')
  for (const [prefix, {globs, root}] of roots) {
    const files = await fg(globs, {absolute: true, cwd: root, followSymbolicLinks: false, ignore: ['**/node_modules/**'], onlyFiles: true})
    const loaded = await Promise.all(files.sort().map((file) => loadDoc(root, prefix, file).catch(() => undefined)))
    for (const doc of loaded) if (doc && !docs.has(doc.path)) docs.set(doc.path, doc)
  }

  return docs
}

function terms(query: string): string[] {
  return [...new Set(query.toLowerCase().match(/[\p{L}\p{N}_-]{2,}/gu) ?? [])]
}

function count(haystack: string, needle: string): number {
  let n = 0
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + needle.length)) n++
  return n
}

function snippet(text: string, words: readonly string[]): string {
  const lines = text.split('\n').filter((l) => l.trim())
  let best = 0
  let bestScore = -1
  for (const [i, line] of lines.entries()) {
    const lower = line.toLowerCase()
    const score = words.filter((w) => lower.includes(w)).length
    if (score > bestScore) [best, bestScore] = [i, score]
  }

  const joined = lines.slice(best, best + 3).join(' ').replaceAll(/\s+/g, ' ').trim()
  return joined.length > 240 ? `${joined.slice(0, 239)}…` : joined
}

/**
 * Ranks sections by the query's words: a word in the heading counts 4, in the document title 2, each occurrence in
 * the text 1 (at most 5 per word); sections holding every word get a 50 % bonus.
 */
export function searchDocs(docs: ReadonlyMap<string, DocFile>, query: string, limit: number): DocHit[] {
  const words = terms(query)
  if (words.length === 0) return []
  const hits: DocHit[] = []
  for (const doc of docs.values()) {
    const title = doc.title.toLowerCase()
    for (const section of doc.sections) {
      const heading = section.heading.toLowerCase()
      const body = section.text.toLowerCase()
      let score = 0
      let matched = 0
      for (const word of words) {
        const inText = Math.min(5, count(body, word))
        const s = (heading.includes(word) ? 4 : 0) + (title.includes(word) ? 2 : 0) + inText
        if (heading.includes(word) || inText > 0) matched++
        score += s
      }

      if (matched === 0) continue
      if (matched === words.length) score *= 1.5
      hits.push({path: doc.path, score, section: section.heading, snippet: snippet(section.text || section.heading, words), title: doc.title})
    }
  }

  return hits.sort((a, b) => b.score - a.score || a.path.localeCompare(b.path)).slice(0, limit)
}
