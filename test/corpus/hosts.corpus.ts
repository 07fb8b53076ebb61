// Real MCP hosts from the npm registry, in the cache the corpus uses: each gets the example CLI's server the way
// `mcp config --write` registers it for that host, and must connect to it through its own client.
// Claude Code: `claude mcp get NAME` starts the server and reports whether it connected (no model login needed).
import {afterAll, describe, expect, it} from '@jest/globals'
import {mkdirSync, mkdtempSync, realpathSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

import {installDir, ROOT, runCli} from './clis.js'

const TASKBOX = join(ROOT, 'examples/taskbox/bin/run.js')
const space = realpathSync(mkdtempSync(join(tmpdir(), 'mcp-hosts-')))
afterAll(() => rmSync(space, {force: true, recursive: true}))

let scratchCount = 0
/** A project directory and a HOME of its own, with Claude Code kept offline and quiet. */
function scratch(): {env: Record<string, string>; project: string} {
  const base = join(space, `s${++scratchCount}`)
  const project = join(base, 'project')
  mkdirSync(project, {recursive: true})
  const home = join(base, 'home')
  mkdirSync(home)
  const env = {
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_AUTOUPDATER: '1',
    HOME: home,
    PATH: process.env.PATH ?? '',
    XDG_CACHE_HOME: join(home, 'cache'),
    XDG_CONFIG_HOME: join(home, 'config'),
    XDG_DATA_HOME: join(home, 'data'),
  }
  return {env, project}
}

describe('Claude Code', () => {
  const claude = () => join(installDir('claude-code'), 'node_modules/.bin/claude')

  it('connects, without asking, to the server mcp config --client claude-code --write registers', async () => {
    const {env, project} = scratch()
    const written = await runCli(process.execPath, [TASKBOX, 'mcp', 'config', '--client', 'claude-code', '--write'], env, project)
    expect(written.code).toBe(0)
    const got = await runCli(claude(), ['mcp', 'get', 'taskbox'], env, project)
    expect(got.stdout).toContain('Local config')
    expect(got.stdout).toMatch(/Status: ✔ Connected/)
  })

  it('holds a --scope project server for approval, as the command says it will', async () => {
    const {env, project} = scratch()
    const written = await runCli(process.execPath, [TASKBOX, 'mcp', 'config', '--client', 'claude-code', '--scope', 'project', '--write'], env, project)
    expect(written.stdout).toContain('pending approval')
    const got = await runCli(claude(), ['mcp', 'get', 'taskbox'], env, project)
    expect(got.stdout).toContain('Project config')
    expect(got.stdout).toMatch(/Pending approval/)
  })
})
