// Our commands' `--json` output is JSON alone on stdout, even when another plugin's init and prerun hooks print to
// stdout (test/fixtures/noisy-plugin): `mycli mcp tools --json | jq` must work. What the hooks print goes to stderr.
import {afterAll, describe, expect, it} from '@jest/globals'
import {join} from 'node:path'

import {runTaskbox} from '../helpers/run-cli.js'
import {NOISY_PLUGIN, scratch, taskboxEnv} from '../helpers/taskbox.js'

const space = scratch()
afterAll(() => space.cleanup())

describe('--json with a plugin whose hooks print to stdout', () => {
  const env = taskboxEnv(join(space.dir, 'home'), [NOISY_PLUGIN])

  it.each([
    [['mcp', 'tools', '--json'], 'listed'],
    [['mcp', 'config', '--client', 'cursor', '--json'], 'launch'],
    [['mcp', 'call', 'cli_info', '--json'], 'structuredContent'],
  ])('%p prints JSON alone on stdout', async (args, key) => {
    const ran = await runTaskbox(args, {cwd: space.dir, env})
    expect(ran.code).toBe(0)
    expect(JSON.parse(ran.stdout)).toHaveProperty(key)
    // The hooks did print: on stderr.
    expect(ran.stderr).toContain('noisy-plugin')
  })

  it('leaves the output of a command run without --json as it was', async () => {
    const ran = await runTaskbox(['mcp', 'tools'], {cwd: space.dir, env})
    expect(ran.code).toBe(0)
    expect(ran.stdout).toContain('Tools listed:')
  })
})
