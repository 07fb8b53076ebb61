import type {Config} from '@oclif/core'

import {afterAll, beforeAll, describe, expect, it} from '@jest/globals'
import {linkSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {dirname, join} from 'node:path'

import {buildDocsIndex, type DocFile, isDocFileOf, searchDocs} from '../../../src/tools/builtins/docs-index.js'

const CLI_FILES: Record<string, string> = {
  'README.md': '# Acme CLI\n\nAcme manages widgets.\n\n## Install\n\nRun npm install acme.\n',
  'docs/deploying.md': '# Deploying widgets\n\nShip widgets to production.\n\n## Rollback\n\nUndo a widget release.\n',
  'docs/guides/auth/login.md': '# Logging in\n\nUse acme login with a token.\n',
  'docs/fenced.md': [
    '# Shell recipes',
    '',
    'Before the fence.',
    '```bash',
    '# not a heading, a shell comment',
    'acme widgets list',
    '```',
    '~~~',
    '## also not a heading',
    '~~~',
    '## After the fence',
    '',
    'Back to prose.',
  ].join('\n'),
  'node_modules/dep/README.md': '# A dependency\n',
  'docs/node_modules/x.md': '# Vendored\n',
  'src/ignored.md': '# Not under docs\n',
}
const PLUGIN_FILES: Record<string, string> = {
  'README.md': '# Acme widgets plugin\n\nAdds the widgets topic.\n',
  'docs/usage.md': '# Plugin usage\n\nwidgets create makes a widget.\n',
}

let base: string
let cliRoot: string
let pluginRoot: string
let outside: string
let docs: Map<string, DocFile>

function writeTree(root: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), {recursive: true})
    writeFileSync(join(root, path), text)
  }
}

function fakeConfig(): Config {
  const plugins = [
    {name: 'acme', root: cliRoot},
    {name: '@acme/plugin-widgets', root: pluginRoot},
  ]
  return {getPluginsList: () => plugins, name: 'acme', root: cliRoot} as unknown as Config
}

beforeAll(async () => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'docs-index-test-')))
  cliRoot = join(base, 'acme')
  pluginRoot = join(base, 'plugin-widgets')
  outside = join(base, 'outside')
  writeTree(cliRoot, CLI_FILES)
  writeTree(pluginRoot, PLUGIN_FILES)
  writeTree(outside, {'secret.md': '# Secret\n\npassword hunter2\n', 'dir/leak.md': '# Leak\n\nsecret stuff\n'})
  symlinkSync(join(outside, 'secret.md'), join(cliRoot, 'docs/secret-link.md'))
  symlinkSync('/etc/hostname', join(cliRoot, 'docs/hostname.md'))
  symlinkSync(join(outside, 'dir'), join(cliRoot, 'docs/linked-dir'))
  docs = await buildDocsIndex(fakeConfig())
})

afterAll(() => {
  rmSync(base, {force: true, recursive: true})
})

describe('buildDocsIndex', () => {
  it('indexes README and docs/** of the CLI and each plugin as <package>/<relative path>', () => {
    expect([...docs.keys()].sort()).toEqual([
      '@acme/plugin-widgets/README.md',
      '@acme/plugin-widgets/docs/usage.md',
      'acme/README.md',
      'acme/docs/deploying.md',
      'acme/docs/fenced.md',
      'acme/docs/guides/auth/login.md',
    ])
  })

  it('records the file, its root and the first heading as title', () => {
    const doc = docs.get('acme/docs/guides/auth/login.md')!
    expect(doc).toMatchObject({file: join(cliRoot, 'docs/guides/auth/login.md'), root: cliRoot, title: 'Logging in'})
  })

  it('leaves out node_modules, links that leave the package and linked directories', () => {
    const paths = [...docs.keys()].join('\n')
    expect(paths).not.toMatch(/node_modules|secret|hostname|linked-dir|leak/)
    for (const doc of docs.values()) expect(doc.file.startsWith(`${doc.root}/`)).toBe(true)
  })

  it('adds the author globs for the CLI only', async () => {
    const withExtra = await buildDocsIndex(fakeConfig(), ['src/**/*.md'])
    expect(withExtra.has('acme/src/ignored.md')).toBe(true)
    expect(withExtra.size).toBe(docs.size + 1)
  })

  it('indexes one file once, under whichever name matched first (README.md and readme.md on a case-insensitive disk)', async () => {
    // A hard link is how a case-insensitive file system looks from here: two names, one file.
    const root = join(base, 'one-file')
    writeTree(root, {'README.md': '# One readme\n'})
    linkSync(join(root, 'README.md'), join(root, 'readme.md'))
    const config = {getPluginsList: () => [], name: 'one', root} as unknown as Config
    expect([...(await buildDocsIndex(config)).keys()]).toEqual(['one/README.md'])
  })

  it('splits sections on headings outside code fences only', () => {
    const doc = docs.get('acme/docs/fenced.md')!
    expect(doc.sections.map((s) => s.heading)).toEqual(['Shell recipes', 'After the fence'])
    expect(doc.sections[0].text).toContain('# not a heading, a shell comment')
    expect(doc.sections[0].text).toContain('## also not a heading')
  })
})

describe('isDocFileOf', () => {
  // Paths relative to the CLI root, joined with a plain `/` so `..` reaches isDocFileOf unresolved.
  it.each([
    ['README.md', true],
    ['docs/guides/auth/login.md', true],
    ['docs/guides/../deploying.md', true],
    ['docs/../README.md', true],
    ['../outside/secret.md', false],
    ['docs/../../outside/secret.md', false],
    ['../plugin-widgets/README.md', false],
    ['docs/secret-link.md', false],
    ['docs/hostname.md', false],
    ['docs/linked-dir/leak.md', false],
    ['docs', false],
    ['.', false],
    ['docs/missing.md', false],
  ])('<root>/%s → %s', async (path, expected) => {
    expect(await isDocFileOf(cliRoot, `${cliRoot}/${path}`)).toBe(expected)
  })

  it('treats a root given with .. like its real path', async () => {
    expect(await isDocFileOf(join(cliRoot, 'docs', '..'), join(cliRoot, 'README.md'))).toBe(true)
  })

  it('does not confuse a prefix-sharing sibling directory with the root', async () => {
    writeTree(`${cliRoot}-evil`, {'README.md': '# Evil\n'})
    expect(await isDocFileOf(cliRoot, `${cliRoot}-evil/README.md`)).toBe(false)
  })
})

/** A docs map from {path: markdown}, split the way buildDocsIndex splits files. */
async function docsFrom(files: Record<string, string>): Promise<Map<string, DocFile>> {
  const root = mkdtempSync(join(base, 'search-'))
  writeTree(root, Object.fromEntries(Object.entries(files).map(([path, text]) => [`docs/${path}`, text])))
  const config = {getPluginsList: () => [], name: 'x', root} as unknown as Config
  return buildDocsIndex(config)
}

describe('searchDocs', () => {
  it('ranks a heading match above a body match', async () => {
    const index = await docsFrom({
      'a.md': '# Overview\n\nThe deploy command ships code.\n',
      'b.md': '# Other\n\n## Deploy\n\nShips code.\n',
    })
    const hits = searchDocs(index, 'deploy', 10)
    expect(hits.map((h) => [h.path, h.section])).toEqual([
      ['x/docs/b.md', 'Deploy'],
      ['x/docs/a.md', 'Overview'],
    ])
    expect(hits[0].score).toBeGreaterThan(hits[1].score)
  })

  it('gives sections holding every word a bonus over more hits of one word', async () => {
    const index = await docsFrom({
      'both.md': '# Notes\n\nalpha alpha beta\n',
      'one.md': '# Notes\n\nalpha alpha alpha alpha\n',
    })
    const hits = searchDocs(index, 'alpha beta', 10)
    expect(hits.map((h) => h.path)).toEqual(['x/docs/both.md', 'x/docs/one.md'])
    expect(hits[0].score).toBe(4.5)
    expect(hits[1].score).toBe(4)
  })

  it('counts the document title for every section of it', async () => {
    const index = await docsFrom({'t.md': '# Widgets\n\n## Setup\n\nInstall widgets first.\n'})
    const [hit] = searchDocs(index, 'widgets', 10).filter((h) => h.section === 'Setup')
    expect(hit).toMatchObject({score: (2 + 1) * 1.5, title: 'Widgets'})
  })

  it('caps the hits at the limit', () => {
    expect(searchDocs(docs, 'widgets', 100).length).toBeGreaterThan(2)
    expect(searchDocs(docs, 'widgets', 2)).toHaveLength(2)
    expect(searchDocs(docs, 'widgets', 1)).toEqual(searchDocs(docs, 'widgets', 2).slice(0, 1))
  })

  it('returns a snippet around the matching words', () => {
    const [hit] = searchDocs(docs, 'rollback release', 5)
    expect(hit).toMatchObject({path: 'acme/docs/deploying.md', section: 'Rollback', title: 'Deploying widgets'})
    expect(hit.snippet).toContain('widget release')
  })

  it('finds words in fenced code without making them headings', () => {
    const hits = searchDocs(docs, 'shell comment', 5)
    expect(hits[0]).toMatchObject({path: 'acme/docs/fenced.md', section: 'Shell recipes'})
    expect(hits[0].snippet).toContain('shell comment')
  })

  it('is case-insensitive and ignores punctuation', () => {
    expect(searchDocs(docs, 'LOGIN!!', 5)[0]).toMatchObject({path: 'acme/docs/guides/auth/login.md'})
  })

  it.each(['', '   ', '\n\t', '!', 'a ? b'])('gives no hits for the query %j', (query) => {
    expect(searchDocs(docs, query, 10)).toEqual([])
  })

  it('gives no hits when nothing matches', () => {
    expect(searchDocs(docs, 'zebra', 10)).toEqual([])
  })
})
