import * as z from 'zod'

import {errorResult} from '../execution/tool-result.js'
import {type BuiltinScope, type BuiltinTool, builtinTool, jsonResult} from './builtin-tool.js'
import {readDocText, searchDocs} from './docs-index.js'

const DEFAULT_READ_CHARS = 20_000

/** search_docs, over the one index of the CLI's and its plugins' Markdown docs (read_doc and the docs resources share it). */
export function searchDocsTool({config, docs}: BuiltinScope): BuiltinTool {
  return builtinTool({
    description: `Search the docs of ${config.bin} and its plugins (READMEs, docs folders): ranked sections with snippets; read one with read_doc.`,
    async handler(input) {
      const all = await docs()
      const hits = searchDocs(all, String(input.query), Number(input.limit ?? 5))
      return jsonResult(`${hits.length} section(s) found in ${all.size} document(s)`, {hits})
    },
    name: 'search_docs',
    schema: z.strictObject({
      limit: z.number().int().min(1).max(20).describe('Default 5.').optional(),
      query: z.string().min(1).max(500).describe('Words to look for.'),
    }),
    title: 'Search the docs',
  })
}

/** read_doc: a page of a doc file search_docs found. */
export function readDocTool({config, docs}: BuiltinScope): BuiltinTool {
  return builtinTool({
    description: `Read a doc file search_docs found (path like "${config.name}/README.md"), a page at a time.`,
    async handler(input) {
      const all = await docs()
      const path = String(input.path)
      const doc = all.get(path)
      if (!doc) {
        const known = [...all.keys()].slice(0, 20)
        return errorResult(`No document "${path}". Known documents: ${known.join(', ')}${all.size > known.length ? ', …' : ''}`)
      }

      const text = await readDocText(doc)
      if (text === undefined) return errorResult(`Document "${path}" is no longer readable.`)
      const offset = Number(input.offset ?? 0)
      const page = text.slice(offset, offset + Number(input.maxChars ?? DEFAULT_READ_CHARS))
      const next = offset + page.length < text.length ? offset + page.length : null
      return {
        content: [{text: next === null ? page : `${page}\n\n[continues: read again with offset ${next}]`, type: 'text'}],
        structuredContent: {nextOffset: next, path, text: page, totalChars: text.length},
      }
    },
    name: 'read_doc',
    schema: z.strictObject({
      maxChars: z.number().int().min(100).max(200_000).describe(`Default ${DEFAULT_READ_CHARS}.`).optional(),
      offset: z.number().int().min(0).describe('Character to start at (next page).').optional(),
      path: z.string().min(1).describe('Path as search_docs gave it.'),
    }),
    title: 'Read a doc',
  })
}
