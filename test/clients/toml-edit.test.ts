import {describe, expect, it} from '@jest/globals'

import {tomlTable, upsertTomlServer} from '../../src/clients/toml-edit.js'
import {launch} from '../helpers/client-configs.js'

describe('upsertTomlServer', () => {
  const table = tomlTable('taskbox', launch)

  it('writes a table a TOML reader understands', () => {
    expect(table).toBe('[mcp_servers.taskbox]\ncommand = "/usr/bin/node"\nargs = ["/opt/tb/bin/run.js", "mcp", "stdio"]\n')
    expect(tomlTable('tb', {args: ['a "quoted" \\ path\u007F'], command: 'x'})).toContain(String.raw`args = ["a \"quoted\" \\ path\u007F"]`)
  })

  it.each([
    {name: 'an empty file', text: ''},
    {name: 'top-level settings', text: 'model = "o3"\napproval_policy = "never"\n'},
    {name: 'another server', text: '[mcp_servers.other]\ncommand = "other"\nargs = ["x"]\n'},
    {name: 'no final newline', text: '[mcp_servers.other]\ncommand = "other"'},
    {name: 'a multi-line string that looks like our table', text: "notes = '''\n[mcp_servers.taskbox]\n'''\n"},
  ])('appends the table to $name, leaving the rest as written', ({text}) => {
    const result = upsertTomlServer(text, 'taskbox', launch)
    expect(result.status).toBe('added')
    expect(result.text.startsWith(text.trimEnd())).toBe(true)
    expect(result.text.endsWith(table)).toBe(true)
  })

  it.each([
    {
      expected: '[mcp_servers.taskbox]\ncommand = "/usr/bin/node"\nargs = ["/opt/tb/bin/run.js", "mcp", "stdio"]\nstartup_timeout_sec = 20 # slow\n\n[mcp_servers.taskbox.env]\nTOKEN = "x"\n',
      name: 'replaces command and args, keeps other keys, comments and sub-tables',
      text: '[mcp_servers.taskbox]\ncommand = "old"\nargs = ["a"]\nstartup_timeout_sec = 20 # slow\n\n[mcp_servers.taskbox.env]\nTOKEN = "x"\n',
    },
    {
      expected: 'model = "o3"\n[mcp_servers."taskbox"] # mine\ncommand = "/usr/bin/node"\nargs = ["/opt/tb/bin/run.js", "mcp", "stdio"]\n[mcp_servers.other]\ncommand = "z"\n',
      name: 'finds a quoted header; a multi-line args array goes whole',
      text: 'model = "o3"\n[mcp_servers."taskbox"] # mine\nargs = [\n  "a", # first\n  "b",\n]\ncommand = "old"\n[mcp_servers.other]\ncommand = "z"\n',
    },
    {
      expected: '[mcp_servers.taskbox]\r\ncommand = "/usr/bin/node"\r\nargs = ["/opt/tb/bin/run.js", "mcp", "stdio"]\r\n',
      name: 'keeps CRLF line ends',
      text: '[mcp_servers.taskbox]\r\ncommand = "old"\r\n',
    },
  ])('$name', ({expected, text}) => {
    expect(upsertTomlServer(text, 'taskbox', launch)).toEqual({status: 'updated', text: expected})
  })

  it('leaves a file whose table is already right exactly as it is', () => {
    const text = `model = "o3"\n\n${table}`
    expect(upsertTomlServer(text, 'taskbox', launch)).toEqual({status: 'unchanged', text})
  })

  it.each([
    {code: 'UNSAFE_CLIENT_CONFIG', name: 'dotted keys at the top level', text: 'mcp_servers.taskbox.command = "x"\n'},
    {code: 'UNSAFE_CLIENT_CONFIG', name: 'an inline table in [mcp_servers]', text: '[mcp_servers]\ntaskbox = {command = "x"}\n'},
    {code: 'UNSAFE_CLIENT_CONFIG', name: 'every server as one inline table', text: 'mcp_servers = {other = {command = "x"}}\n'},
    {code: 'UNSAFE_CLIENT_CONFIG', name: 'an array of tables', text: '[[mcp_servers.taskbox]]\ncommand = "x"\n'},
    {code: 'UNSAFE_CLIENT_CONFIG', name: 'the table twice', text: '[mcp_servers.taskbox]\n[mcp_servers.taskbox]\n'},
    {code: 'UNPARSABLE_CLIENT_CONFIG', name: 'a line that is not TOML', text: 'this is not toml\n'},
    {code: 'UNPARSABLE_CLIENT_CONFIG', name: 'an unterminated string', text: 'model = "o3\n'},
    {code: 'UNPARSABLE_CLIENT_CONFIG', name: 'an array that never closes', text: 'list = [1,\n2\n'},
    {code: 'UNPARSABLE_CLIENT_CONFIG', name: 'a broken header', text: '[mcp_servers.taskbox\n'},
  ])('refuses $name ($code)', ({code, text}) => {
    expect(() => upsertTomlServer(text, 'taskbox', launch)).toThrow(expect.objectContaining({code}))
  })
})

describe('upsertTomlServer with env_vars', () => {
  it('writes env_vars with the launch, and leaves one written by hand alone when none are given', () => {
    const added = upsertTomlServer('', 'taskbox', {...launch, env_vars: ['HEROKU_API_KEY']})
    expect(added.text).toContain('env_vars = ["HEROKU_API_KEY"]')
    expect(upsertTomlServer(added.text, 'taskbox', {...launch, env_vars: ['HEROKU_API_KEY']})).toEqual({status: 'unchanged', text: added.text})
    const changed = upsertTomlServer(added.text, 'taskbox', {...launch, env_vars: ['HEROKU_API_KEY', 'HEROKU_ORG']})
    expect(changed.status).toBe('updated')
    expect(changed.text.match(/env_vars/g)).toHaveLength(1)
    expect(changed.text).toContain('env_vars = ["HEROKU_API_KEY", "HEROKU_ORG"]')
    expect(upsertTomlServer(added.text, 'taskbox', launch)).toEqual({status: 'unchanged', text: added.text})
  })
})

describe('upsertTomlServer across transports', () => {
  it('switches a table from a command to a URL and back, dropping the other transport\'s keys and keeping the rest', () => {
    const started = upsertTomlServer('', 'taskbox', launch).text.replace('[mcp_servers.taskbox]\n', '[mcp_servers.taskbox]\nstartup_timeout_sec = 30\n')
    const remote = upsertTomlServer(started, 'taskbox', {bearer_token_env_var: 'TB_TOKEN', url: 'http://127.0.0.1:5757/mcp?client=codex'})
    expect(remote.text).toBe('[mcp_servers.taskbox]\nurl = "http://127.0.0.1:5757/mcp?client=codex"\nbearer_token_env_var = "TB_TOKEN"\nstartup_timeout_sec = 30\n')
    expect(upsertTomlServer(remote.text, 'taskbox', launch).text).toBe(`${tomlTable('taskbox', launch)}startup_timeout_sec = 30\n`)
  })

  it('drops what Codex refuses beside a URL (env_vars, env, cwd) and beside a command (headers), and refuses an env table', () => {
    const started = `${tomlTable('taskbox', {...launch, env_vars: ['K']})}cwd = "/srv"\n`
    const remote = upsertTomlServer(started, 'taskbox', {url: 'http://127.0.0.1:5757/mcp'})
    expect(remote.text).toBe('[mcp_servers.taskbox]\nurl = "http://127.0.0.1:5757/mcp"\n')
    const back = upsertTomlServer(`${remote.text}http_headers = {X = "1"}\n`, 'taskbox', launch)
    expect(back.text).toBe(tomlTable('taskbox', launch))
    const withTable = `${tomlTable('taskbox', launch)}\n[mcp_servers.taskbox.env]\nK = "v"\n`
    expect(() => upsertTomlServer(withTable, 'taskbox', {url: 'http://127.0.0.1:5757/mcp'})).toThrow(/\[mcp_servers\.taskbox\.env\] on line 5 belongs to a server Codex starts/)
  })
})
