// The MCP Inspector's CLI mode (`inspector --cli`, on the Node 22 it requires) against the fixture host on
// @oclif/core 4 (stdio in both eras, HTTP in the 2026 one: list, read-only, mutating, isError) and against the
// example CLI (list, one call). One Inspector process per request, as a script uses it; over stdio each one starts
// (and must end) its own server.
import {describe, expect, it} from '@jest/globals'

import {exerciseFixture, FIXTURE4, inScratch, using} from './cells.js'
import {HOST4, TASKBOX, VERSIONS} from './hosts.js'
import {type Era, inspector, serve} from './sessions.js'

const INSPECTOR = `@modelcontextprotocol/inspector ${VERSIONS.inspector} --cli (Node 22)`

describe(`host-core4 (@oclif/core ${VERSIONS.core4}, Node 20)`, () => {
  it.each<[string, Era]>([
    ['2025-11-25', 'legacy'],
    ['2026-07-28', 'modern'],
  ])(`${INSPECTOR} · stdio · %s`, async (_revision, era) => {
    await inScratch(HOST4, async (target) => {
      await using(async () => inspector(target, era), (session) => exerciseFixture(session, target.project, FIXTURE4, true))
    })
  })

  it(`${INSPECTOR} · HTTP · 2026-07-28`, async () => {
    await inScratch(HOST4, async (target) => {
      const served = await serve(target)
      try {
        await using(
          async () => inspector({home: target.home, url: served.url}, 'modern'),
          (session) => exerciseFixture(session, target.project, FIXTURE4, true),
        )
      } finally {
        expect(await served.stop()).toBe(0)
      }
    })
  })
})

describe(`examples/taskbox (@oclif/core ${VERSIONS.core4}, Node 20)`, () => {
  // The plain Inspector invocation: tools/list, then tools/call status --tool-arg cwd=DIR.
  it(`${INSPECTOR} · stdio · 2025-11-25`, async () => {
    await inScratch(TASKBOX, async (target) => {
      await using(
        async () => inspector(target, 'legacy', true),
        async (session) => {
          const names = (await session.listTools()).map((tool) => tool.name)
          expect(names).toEqual(expect.arrayContaining(['cli_info', 'init', 'status', 'tasks_add', 'tasks_list']))
          const status = await session.callTool('status', {cwd: target.project})
          expect(status.isError).toBeFalsy()
          expect(status.structuredContent?.data).toMatchObject({directory: target.project, initialized: false})
        },
      )
    })
  })
})
