// `mcp` alone lists the plugin's commands as the CLI spells them; given a subcommand spelled the other way round (as
// a host configured with `heroku mcp stdio` would), it says how to spell it and exits 2 instead of leaving the host
// waiting. The corpus checks a `:`-separated CLI (heroku); here the example CLI, separated by spaces.
import {describe, expect, it} from '@jest/globals'

import {plain, runTaskbox} from '../../helpers/run-cli.js'
import {scratch, taskboxEnv} from '../../helpers/taskbox.js'

const space = scratch()

describe('taskbox mcp', () => {
  it('lists the mcp commands as this CLI spells them', async () => {
    const ran = await runTaskbox(['mcp'], {cwd: space.dir, env: taskboxEnv(space.dir)})
    expect(ran.code).toBe(0)
    for (const name of ['stdio', 'serve', 'config', 'tools', 'call']) expect(ran.stdout).toContain(`taskbox mcp ${name}`)
  })

  it('refuses a command it does not have, naming those it has', async () => {
    const ran = await runTaskbox(['mcp', 'start'], {cwd: space.dir, env: taskboxEnv(space.dir)})
    expect(ran.code).toBe(2)
    expect(plain(ran.stderr)).toContain('No mcp command "start". The commands are: taskbox mcp stdio')
  })
})

describe('mcp stdio --help', () => {
  it('prints its script example with the JSON on one line, so it can be copied and run', async () => {
    const ran = await runTaskbox(['mcp', 'stdio', '--help'], {cwd: space.dir, env: {...taskboxEnv(space.dir), COLUMNS: '80'}})
    const line = ran.stdout.split('\n').find((l) => l.includes(`'{"jsonrpc"`))
    expect(line).toMatch(/'\{"jsonrpc":"2\.0","id":1,"method":"tools\/list"\}' \| taskbox mcp/)
  })
})
