// A real published oclif CLI: heroku (installed from the npm registry into test/compat/heroku), with the plugin
// linked by heroku's own `plugins:link`, served over stdio in both eras and over HTTP. Everything called works
// offline: `version`, `which` (found and not found) and the built-in tools.
import {afterAll, afterEach, beforeAll, describe, expect, it} from '@jest/globals'
import {mkdirSync, mkdtempSync, realpathSync, rmSync} from 'node:fs'
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
