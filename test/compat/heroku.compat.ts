// A real published oclif CLI: heroku (the corpus's pinned install, test/corpus/heroku in its cache), with the plugin
// linked by heroku's own `plugins:link`, served over stdio in both eras and over HTTP. Everything called works
// offline: `version`, `which` (found and not found) and the built-in tools.
import {afterAll, afterEach, beforeAll, describe, expect, it} from '@jest/globals'
import {existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

import {using} from './cells.js'
import {HEROKU, hostEnv, ROOT, VERSIONS} from './hosts.js'
import {expectNoLeftovers, runProcess, serve, type Session, type StdioTarget, v1Http, v2Stdio} from './sessions.js'
import {textOf} from '../helpers/taskbox.js'

/** List the tools, call read-only commands (one found, one failing) and cli_info. */
async function exerciseHeroku(session: Session): Promise<void> {
  const tools = await session.listTools()
  const names = tools.map((tool) => tool.name)
  expect(names).toEqual(expect.arrayContaining(['cli_info', 'describe_command', 'find_commands', 'run_command', 'version', 'which']))
  expect(tools.find((tool) => tool.name === 'version')?.annotations?.readOnlyHint).toBe(true)

  const version = await session.callTool('version')
  expect(version.isError).toBeFalsy()
  expect(version.structuredContent?.stdout).toMatch(new RegExp(`^heroku/${VERSIONS.heroku.replaceAll('.', '\\.')} `))

  const which = await session.callTool('which', {extra_args: ['apps:info']})
  expect(which.isError).toBeFalsy()
  expect(which.structuredContent?.data).toEqual({plugin: 'heroku'})

  const unknown = await session.callTool('which', {extra_args: ['no:such:command']})
  expect(unknown.isError).toBe(true)
  expect(textOf(unknown)).toContain('command no:such:command not found')

  const info = await session.callTool('cli_info')
  expect(info.structuredContent).toMatchObject({bin: 'heroku', oclifCore: VERSIONS.herokuCore, version: VERSIONS.heroku})
  expect(info.structuredContent?.commands).toBeGreaterThan(300)
  expect(info.structuredContent?.plugins).toContainEqual({name: 'oclif-plugin-mcp', type: 'link', version: VERSIONS.plugin})
}

describe(`heroku ${VERSIONS.heroku} (@oclif/core ${VERSIONS.herokuCore}, Node 20)`, () => {
  let dir: string
  let target: StdioTarget

  beforeAll(() => {
    dir = realpathSync(mkdtempSync(join(tmpdir(), 'mcp-compat-heroku-')))
    // Only the two offline commands are listed as tools; the other 350 stay reachable through the gateway.
    target = {args: ['--tools', 'version', '--tools', 'which'], home: join(dir, 'home'), host: HEROKU, project: join(dir, 'project')}
    mkdirSync(target.home)
    mkdirSync(target.project)
  })

  // Each cell must leave no process behind (a leftover is killed by pid and fails the cell).
  afterEach(() => expectNoLeftovers(dir))
  afterAll(() => rmSync(dir, {force: true, recursive: true}))

  it('heroku plugins:link (its own command)', async () => {
    const env = hostEnv(HEROKU, target.home)
    // --no-install: otherwise plugin-plugins runs `npm install` in the linked directory (this repository).
    const linked = await runProcess(HEROKU.node, [HEROKU.script, 'plugins:link', '--no-install', ROOT], env, target.project)
    expect(linked.code).toBe(0)
    expect(linked.stderr).toContain(`Linking plugin ${ROOT}... done`)
    const listed = await runProcess(HEROKU.node, [HEROKU.script, 'plugins'], env, target.project)
    expect(listed.code).toBe(0)
    expect(listed.stdout).toContain(`oclif-plugin-mcp ${VERSIONS.plugin} (link) ${ROOT}`)
  })

  it.each<[string, 'legacy' | 'modern']>([
    ['2025-11-25', 'legacy'],
    ['2026-07-28', 'modern'],
  ])(`@modelcontextprotocol/client ${VERSIONS.sdkV2} · stdio (heroku mcp:stdio) · %s`, async (revision, era) => {
    await using(
      () => v2Stdio(target, era),
      async (session) => {
        await exerciseHeroku(session)
        expect(session.protocolVersion()).toBe(revision)
      },
    )
  })

  it(`@modelcontextprotocol/sdk ${VERSIONS.sdkV1} · HTTP (heroku mcp:serve) · 2025-11-25`, async () => {
    const served = await serve(target)
    try {
      await using(() => v1Http(served.url), exerciseHeroku)
    } finally {
      expect(await served.stop()).toBe(0)
    }
  })
})

// The way a user installs the plugin until it is on the npm registry: a tarball packed from this checkout, given to
// the CLI's own `plugins:install` as a `file:` spec (a bare path to a .tgz is read as a GitHub repository there).
describe('heroku plugins:install file:<tarball> (what the README tells users)', () => {
  let dir: string
  beforeAll(() => {
    dir = realpathSync(mkdtempSync(join(tmpdir(), 'mcp-compat-tarball-')))
    mkdirSync(join(dir, 'home'))
    mkdirSync(join(dir, 'project'))
  })
  afterEach(() => expectNoLeftovers(dir))
  afterAll(() => rmSync(dir, {force: true, recursive: true}))

  it('installs from the packed tarball and serves as an installed (not linked) plugin', async () => {
    // The build the README's test command ran is what is packed (its scripts would build again).
    const packed = await runProcess('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], {...(process.env as Record<string, string>)}, ROOT)
    expect(packed.code).toBe(0)
    const [{filename, files}] = JSON.parse(packed.stdout) as [{filename: string; files: {path: string}[]}]
    // The manifest goes with it, and stays in the checkout (a linked checkout without one loads every mcp module on
    // every run of the CLI).
    expect(files.map((file) => file.path)).toContain('oclif.manifest.json')
    expect(existsSync(join(ROOT, 'oclif.manifest.json'))).toBe(true)
    const env = hostEnv(HEROKU, join(dir, 'home'))
    const installed = await runProcess(HEROKU.node, [HEROKU.script, 'plugins:install', `file:${join(dir, filename)}`], env, join(dir, 'project'), 600_000)
    expect([installed.code, installed.stderr]).toEqual([0, expect.any(String)])
    const listed = await runProcess(HEROKU.node, [HEROKU.script, 'plugins'], env, join(dir, 'project'))
    expect(listed.stdout).toMatch(new RegExp(`oclif-plugin-mcp ${VERSIONS.plugin.replaceAll('.', '\\.')}(?! \\(link\\))`))
    const help = await runProcess(HEROKU.node, [HEROKU.script, 'mcp'], env, join(dir, 'project'))
    expect([help.code, help.stdout]).toEqual([0, expect.stringContaining('mcp:stdio')])
  }, 900_000)
})
