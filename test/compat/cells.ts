// What every matrix cell on a fixture host checks, the SDK-client cells, and the scratch space a cell runs in.
import {describe, expect, it} from '@jest/globals'
import {mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

import {type Host, VERSIONS} from './hosts.js'
import {type Era, expectNoLeftovers, serve, type Session, type StdioTarget, v1Http, v1Stdio, v2Http, v2Stdio} from './sessions.js'
import {textOf} from '../helpers/taskbox.js'

/**
 * Runs `body` with a fresh HOME and project directory for `host`, then fails the cell if any process that mentions
 * its directory (server, command, client) is still running, and removes the directory.
 */
export async function inScratch(host: Host, body: (target: StdioTarget) => Promise<void>): Promise<void> {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), `mcp-compat-${host.bin}-`)))
  const target = {home: join(dir, 'home'), host, project: join(dir, 'project')}
  mkdirSync(target.home)
  mkdirSync(target.project)
  let failure: unknown
  try {
    await body(target)
  } catch (error) {
    failure = error
  }

  try {
    await expectNoLeftovers(dir)
  } catch (error) {
    failure ??= error
  }

  rmSync(dir, {force: true, recursive: true})
  if (failure) throw failure
}

/** Opens a session, runs `body`, and always closes the session (which, over stdio, must end the server). */
export async function using(open: () => Promise<Session>, body: (session: Session) => Promise<void>): Promise<void> {
  const session = await open()
  let failure: unknown
  try {
    await body(session)
  } catch (error) {
    failure = error
  }

  try {
    await session.close()
  } catch (error) {
    failure ??= error
  }

  if (failure) throw failure
}

export interface FixtureHost {
  bin: string
  coreMajor: number
  nodeMajor: number
}

export const FIXTURE4: FixtureHost = {bin: 'host4', coreMajor: 4, nodeMajor: 20}
export const FIXTURE2: FixtureHost = {bin: 'host2', coreMajor: 2, nodeMajor: 20}
export const FIXTURE3: FixtureHost = {bin: 'host3', coreMajor: 3, nodeMajor: 20}
export const FIXTURE5: FixtureHost = {bin: 'host5', coreMajor: 5, nodeMajor: 22}

/**
 * The fixture CLIs (test/fixtures/host-core4, host-core5) through any client: list the tools, call a read-only
 * command, a mutating one (the file must appear on disk) and a failing one (an isError result). Unless `brief`, also
 * read the file back, call with arguments the schema refuses, and ask the built-in cli_info.
 */
export async function exerciseFixture(session: Session, project: string, fixture: FixtureHost, brief = false): Promise<void> {
  const tools = await session.listTools()
  const byName = new Map(tools.map((tool) => [tool.name, tool]))
  expect([...byName.keys()]).toEqual(expect.arrayContaining(['cli_info', 'describe_command', 'files_create', 'files_show', 'info']))
  for (const tool of tools) {
    expect(tool.inputSchema.type).toBe('object')
    expect(typeof tool.annotations?.readOnlyHint).toBe('boolean')
  }

  expect(byName.get('info')?.annotations?.readOnlyHint).toBe(true)
  expect(byName.get('files_show')?.annotations?.readOnlyHint).toBe(true)
  expect(byName.get('files_create')?.annotations?.readOnlyHint).toBe(false)

  // Read-only: the command itself reports the Node and @oclif/core it ran on. With --json on @oclif/core 4 and later;
  // in text where a host's --json errors would lose their message (core 1 to 3), so the server does not pass it.
  const info = await session.callTool('info', {cwd: project})
  expect(info.isError ? textOf(info) : undefined).toBeUndefined()
  if (fixture.coreMajor >= 4) {
    expect(info.structuredContent?.data).toEqual({
      cli: fixture.bin,
      cwd: project,
      node: expect.stringMatching(new RegExp(`^v${fixture.nodeMajor}\\.`)),
      oclifCore: expect.stringMatching(new RegExp(`^${fixture.coreMajor}\\.`)),
    })
  } else {
    expect(info.structuredContent?.data).toBeUndefined()
    expect(info.structuredContent?.stdout).toMatch(new RegExp(`^${fixture.bin} on Node v${fixture.nodeMajor}\\.\\S+, @oclif/core ${fixture.coreMajor}\\.`))
  }

  // Mutating: a file appears in the project directory, with exactly the text sent (flag-like text stays text).
  const content = '--force; $(touch pwned) "quoted" ünïcode'
  const created = await session.callTool('files_create', {content, cwd: project, name: 'note.txt'})
  expect(created.isError).toBeFalsy()
  expect(readFileSync(join(project, 'note.txt'), 'utf8')).toBe(content)

  // A command that fails is an isError result with its message (not a protocol error).
  const missing = await session.callTool('files_show', {cwd: project, name: 'missing.txt'})
  expect(missing.isError).toBe(true)
  expect(textOf(missing)).toContain('No file named missing.txt')
  // The host's own plugin-loading warnings (core 3 warns of the linked ES module on every run) are not in results.
  for (const result of [info, created, missing]) expect(JSON.stringify(result)).not.toContain('linked ESM module')
  if (brief) return

  const shown = await session.callTool('files_show', {cwd: project, name: 'note.txt'})
  if (fixture.coreMajor >= 4) expect(shown.structuredContent?.data).toEqual({content, path: join(project, 'note.txt')})
  else expect(shown.structuredContent?.stdout).toContain(content)

  // More isError results: a command that refuses, and arguments the schema refuses.
  const again = await session.callTool('files_create', {cwd: project, name: 'note.txt'})
  expect(again.isError).toBe(true)
  expect(textOf(again)).toContain('note.txt already exists')
  const bad = await session.callTool('files_show', {cwd: project, name: 'note.txt', shout: true})
  expect(bad.isError).toBe(true)

  const cli = await session.callTool('cli_info')
  expect(cli.isError).toBeFalsy()
  expect(cli.structuredContent).toMatchObject({
    bin: fixture.bin,
    node: expect.stringMatching(new RegExp(`^v${fixture.nodeMajor}\\.`)),
    oclifCore: expect.stringMatching(new RegExp(`^${fixture.coreMajor}\\.`)),
  })
  expect(cli.structuredContent?.plugins).toContainEqual(expect.objectContaining({name: 'oclif-plugin-mcp'}))
}

const REVISION: Record<Era, string> = {legacy: '2025-11-25', modern: '2026-07-28'}

type Open = (target: StdioTarget, url: string | undefined) => Promise<Session>

/** [cell name, transport, how to open the session, the revision it must negotiate] */
const SDK_CLIENTS: [string, 'http' | 'stdio', Open, string][] = [
  [`@modelcontextprotocol/client ${VERSIONS.sdkV2} · stdio · 2025-11-25`, 'stdio', (t) => v2Stdio(t, 'legacy'), REVISION.legacy],
  [`@modelcontextprotocol/client ${VERSIONS.sdkV2} · stdio · 2026-07-28`, 'stdio', (t) => v2Stdio(t, 'modern'), REVISION.modern],
  [`@modelcontextprotocol/client ${VERSIONS.sdkV2} · HTTP · 2025-11-25`, 'http', (_t, url) => v2Http(url!, 'legacy'), REVISION.legacy],
  [`@modelcontextprotocol/client ${VERSIONS.sdkV2} · HTTP · 2026-07-28`, 'http', (_t, url) => v2Http(url!, 'modern'), REVISION.modern],
  [`@modelcontextprotocol/sdk ${VERSIONS.sdkV1} · stdio · 2025-11-25`, 'stdio', (t) => v1Stdio(t), REVISION.legacy],
  [`@modelcontextprotocol/sdk ${VERSIONS.sdkV1} · HTTP · 2025-11-25`, 'http', (_t, url) => v1Http(url!), REVISION.legacy],
]

/** One cell per SDK client, transport and era against a fixture host (HTTP cells start `mcp serve` and stop it). */
export function describeSdkClients(label: string, host: Host, fixture: FixtureHost): void {
  describe(label, () => {
    it.each(SDK_CLIENTS)('%s', async (_client, transport, open, revision) => {
      await inScratch(host, async (target) => {
        const served = transport === 'http' ? await serve(target) : undefined
        try {
          await using(
            () => open(target, served?.url),
            async (session) => {
              await exerciseFixture(session, target.project, fixture)
              expect(session.protocolVersion()).toBe(revision)
            },
          )
        } finally {
          if (served) expect(await served.stop()).toBe(0)
        }
      })
    })
  })
}
