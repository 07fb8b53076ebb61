// search_docs and read_doc (src/tools/builtins/docs.ts), called directly over the docs index of the example CLI (its
// README and docs/tasks.md, next to this plugin's own docs): ranked sections, and a document read whole or page by
// page, with the same refusal for a path that is not in the index however it is spelled.
import type {Config} from '@oclif/core'

import {beforeAll, describe, expect, it} from '@jest/globals'
import {readFileSync} from 'node:fs'
import {join} from 'node:path'

import type {ServerPlan} from '../../../src/mcp/plan.js'

import {BUILTIN_HINTS} from '../../../src/tools/builtins/builtin-tool.js'
import {readDocTool, searchDocsTool} from '../../../src/tools/builtins/docs.js'
import {accepts, callBuiltin, dataOf, fencedOf, loadTaskbox, scopeOf, TASKBOX_ROOT, taskboxPlan, textsOf} from '../../helpers/builtins.js'

const TASKS_DOC = 'taskbox/docs/tasks.md'

interface DocHit {
  path: string
  score: number
  section: string
  snippet: string
  title: string
}

let config: Config
let plan: ServerPlan
let tasksText: string
let documents: number

beforeAll(async () => {
  config = await loadTaskbox()
  plan = taskboxPlan(config)
  tasksText = readFileSync(join(TASKBOX_ROOT, 'docs/tasks.md'), 'utf8')
  documents = (await plan.docs()).size
})

const hitsOf = (result: Awaited<ReturnType<typeof callBuiltin>>) => dataOf(result).hits as DocHit[]

describe('search_docs', () => {
  it('takes a query of 1 to 500 characters and a limit of 1 to 20, and only reads', () => {
    const tool = searchDocsTool(scopeOf(plan))
    for (const input of [{query: 'tags'}, {limit: 20, query: 'a'.repeat(500)}]) expect(accepts(tool, input)).toBe(true)
    for (const input of [{}, {query: ''}, {query: 'a'.repeat(501)}, {limit: 0, query: 'tags'}, {limit: 21, query: 'tags'}, {limit: 2.5, query: 'tags'}, {path: 'x', query: 'tags'}]) {
      expect(accepts(tool, input)).toBe(false)
    }

    expect(tool.annotations).toEqual({...BUILTIN_HINTS, title: 'Search the docs'})
  })

  it("ranks the section that is about the words first, with the document's path and title and a snippet", async () => {
    const result = await callBuiltin(searchDocsTool(scopeOf(plan)), {query: 'assignee notify'})
    expect(result.isError).toBeUndefined()
    const hits = hitsOf(result)
    expect(hits[0]).toEqual({
      path: TASKS_DOC,
      // assignee: in the heading (4) and three times in the text (3); notify: once in the text (1); half again for both.
      score: 12,
      section: 'Assignees',
      snippet: '`--assignee NAME` sets who does a task; `--notify` (which needs `--assignee`) tells them. `--unassigned` and `--assignee` cannot be combined.',
      title: 'Working with tasks',
    })
    for (const hit of hits.slice(1)) expect(hit.score).toBeLessThan(12)
    const {data, summary} = fencedOf(result)
    expect(summary).toBe(`${hits.length} section(s) found in ${documents} document(s)`)
    expect(data).toEqual({hits})
    expect(documents).toBeGreaterThanOrEqual(2)
  })

  it('gives at most limit hits (5 by default), and none for words no document has', async () => {
    const tool = searchDocsTool(scopeOf(plan))
    const many = hitsOf(await callBuiltin(tool, {limit: 20, query: 'tasks tags priority'}))
    expect(many.length).toBeGreaterThan(5)
    expect(hitsOf(await callBuiltin(tool, {query: 'tasks tags priority'}))).toEqual(many.slice(0, 5))
    expect(hitsOf(await callBuiltin(tool, {limit: 1, query: 'tasks tags priority'}))).toEqual(many.slice(0, 1))
    const none = await callBuiltin(tool, {query: 'zzyzx qqxq'})
    expect(dataOf(none)).toEqual({hits: []})
    expect(fencedOf(none).summary).toBe(`0 section(s) found in ${documents} document(s)`)
  })
})

describe('read_doc', () => {
  it('takes a path, an offset from 0 and a page of 100 to 200,000 characters, and only reads', () => {
    const tool = readDocTool(scopeOf(plan))
    for (const input of [{path: TASKS_DOC}, {maxChars: 100, offset: 0, path: TASKS_DOC}, {maxChars: 200_000, path: TASKS_DOC}]) expect(accepts(tool, input)).toBe(true)
    for (const input of [{}, {path: ''}, {offset: -1, path: TASKS_DOC}, {maxChars: 99, path: TASKS_DOC}, {maxChars: 200_001, path: TASKS_DOC}, {path: TASKS_DOC, query: 'x'}]) {
      expect(accepts(tool, input)).toBe(false)
    }

    expect(tool.annotations).toEqual({...BUILTIN_HINTS, title: 'Read a doc'})
    expect(tool.description).toContain('"taskbox/README.md"')
  })

  it('reads a short document whole: no next page', async () => {
    const result = await callBuiltin(readDocTool(scopeOf(plan)), {path: TASKS_DOC})
    expect(result).toEqual({
      content: [{text: tasksText, type: 'text'}],
      structuredContent: {nextOffset: null, path: TASKS_DOC, text: tasksText, totalChars: tasksText.length},
    })
  })

  it('reads it page by page with nextOffset, the pages joining to the whole', async () => {
    const tool = readDocTool(scopeOf(plan))
    expect(tasksText.length).toBeGreaterThan(400)
    const pages: string[] = []
    let offset: null | number = 0
    while (offset !== null) {
      const result = await callBuiltin(tool, {maxChars: 200, offset, path: TASKS_DOC})
      const data = dataOf(result) as {nextOffset: null | number; text: string; totalChars: number}
      expect(data.text).toBe(tasksText.slice(offset, offset + 200))
      expect(data.totalChars).toBe(tasksText.length)
      expect(data.nextOffset).toBe(offset + 200 < tasksText.length ? offset + 200 : null)
      expect(textsOf(result)).toBe(data.nextOffset === null ? data.text : `${data.text}\n\n[continues: read again with offset ${data.nextOffset}]`)
      pages.push(data.text)
      offset = data.nextOffset
    }

    expect(pages).toHaveLength(Math.ceil(tasksText.length / 200))
    expect(pages.join('')).toBe(tasksText)
    // Past the end: nothing more, and no next page.
    expect(dataOf(await callBuiltin(tool, {offset: tasksText.length + 10, path: TASKS_DOC}))).toEqual({nextOffset: null, path: TASKS_DOC, text: '', totalChars: tasksText.length})
  })

  it('refuses a path not in the index, however it points at a file, naming the documents it has', async () => {
    const tool = readDocTool(scopeOf(plan))
    const known = [...(await plan.docs()).keys()]
    expect(known.slice(0, 2)).toEqual(['taskbox/README.md', TASKS_DOC])
    const list = `${known.slice(0, 20).join(', ')}${known.length > 20 ? ', …' : ''}`
    for (const path of ['taskbox/docs/nope.md', 'docs/tasks.md', join(TASKBOX_ROOT, 'docs/tasks.md'), 'taskbox/docs/../package.json', 'taskbox/src/store.js']) {
      expect(await callBuiltin(tool, {path})).toEqual({content: [{text: `No document "${path}". Known documents: ${list}`, type: 'text'}], isError: true})
    }
  })

  it('refuses a listed document that is no longer a file inside its package', async () => {
    const docs = await plan.docs()
    const listed = docs.get(TASKS_DOC)!
    const gone = new Map([[TASKS_DOC, {...listed, file: join(TASKBOX_ROOT, 'docs/removed-since.md')}]])
    const tool = readDocTool({...scopeOf(plan), docs: async () => gone})
    expect(await callBuiltin(tool, {path: TASKS_DOC})).toEqual({content: [{text: `Document "${TASKS_DOC}" is no longer readable.`, type: 'text'}], isError: true})
  })
})
