// A CommonJS CLI of the oclif v1 era (@oclif/command with @oclif/config 1), which loads plugin commands with
// require(). On a Node that can require() ES modules (20.19 and 22.12 on) the plugin runs there like anywhere else;
// on one that cannot (20.18) every mcp command ends with one line that names the minimum and what to do, exit 2,
// instead of a stack trace about ERR_REQUIRE_ESM. The CLI's own commands are not affected.
import {describe, expect, it} from '@jest/globals'

import {inScratch, using} from './cells.js'
import {HOSTV1, hostEnv, mcpArgv, NODE20_18, VERSIONS} from './hosts.js'
import {runProcess, v2Stdio} from './sessions.js'
import {textOf} from '../helpers/taskbox.js'

describe(`host-v1 (@oclif/config ${VERSIONS.configV1})`, () => {
  it(`@modelcontextprotocol/client 2.4.0 · stdio (hostv1 mcp:stdio) · Node ${process.version}`, async () => {
    await inScratch(HOSTV1, async (target) => {
      await using(
        () => v2Stdio(target, 'legacy'),
        async (session) => {
          const names = (await session.listTools()).map((tool) => tool.name)
          expect(names).toEqual(expect.arrayContaining(['cli_info', 'info', 'run_command']))
          const info = await session.callTool('info', {cwd: target.project})
          expect(info.isError ? textOf(info) : undefined).toBeUndefined()
          expect(textOf(info)).toContain(`hostv1 on Node ${process.version}`)
        },
      )
    })
  })

  it('one line, exit 2, on Node 20.18 (no require() of ES modules)', async () => {
    await inScratch({...HOSTV1, node: NODE20_18}, async (target) => {
      const env = hostEnv(HOSTV1, target.home)
      const ran = await runProcess(NODE20_18, mcpArgv(HOSTV1, 'stdio'), env, target.project)
      expect(ran.code).toBe(2)
      expect(ran.stderr.trim().split('\n')).toEqual([expect.stringContaining('oclif-plugin-mcp cannot run in this CLI on Node v20.18.3')])
      expect(ran.stderr).toContain('Node 20.19, 22.12 or later')
      // The CLI's own commands run as before.
      const own = await runProcess(NODE20_18, [HOSTV1.script, 'info'], env, target.project)
      expect(own.code).toBe(0)
      expect(own.stdout).toContain('hostv1 on Node v20.18.3')
    })
  })
})
