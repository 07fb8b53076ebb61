import {afterAll, describe, expect, it} from '@jest/globals'
import {execFileSync} from 'node:child_process'
import {chmodSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'

import {ClientConfigError, updateConfigFile} from '../../src/clients/config-file-update.js'
import {mergeJsonServer} from '../../src/clients/jsonc-edit.js'
import {tomlTable, upsertTomlServer} from '../../src/clients/toml-edit.js'
import {scratch} from '../helpers/taskbox.js'

const launch = {args: ['/opt/tb/bin/run.js', 'mcp', 'stdio'], command: '/usr/bin/node'}
const entry = {command: launch.command, args: launch.args}
const json = (value: unknown, indent: number | string = 2) => `${JSON.stringify(value, null, indent)}\n`

describe('mergeJsonServer', () => {
  const other = {command: 'other', args: ['serve']}
  it.each([
    {expected: {mcpServers: {taskbox: entry}}, name: 'an empty file', status: 'added', text: ''},
    {expected: {mcpServers: {other, taskbox: entry}}, name: 'a file with another server', status: 'added', text: json({mcpServers: {other}})},
    {expected: {mcpServers: {taskbox: entry}, theme: 'dark'}, name: 'a file with other settings', status: 'added', text: json({theme: 'dark'})},
    {
      expected: {mcpServers: {other, taskbox: {command: launch.command, args: launch.args, env: {TOKEN: 'x'}}}},
      name: 'our own older entry (its other keys stay)',
      status: 'updated',
      text: json({mcpServers: {other, taskbox: {command: 'old', args: [], env: {TOKEN: 'x'}}}}),
    },
  ])('$name → $status', ({expected, status, text}) => {
    const result = mergeJsonServer(text, ['mcpServers'], 'taskbox', entry)
    expect(result.status).toBe(status)
    expect(JSON.parse(result.text)).toEqual(expected)
  })

  it('leaves a file that already has the entry exactly as it is', () => {
    const text = json({mcpServers: {taskbox: entry}}, 4)
    expect(mergeJsonServer(text, ['mcpServers'], 'taskbox', entry)).toEqual({status: 'unchanged', text})
  })

  it('writes VS Code servers under "servers", next to its inputs', () => {
    const result = mergeJsonServer(json({inputs: [{id: 'key'}]}), ['servers'], 'taskbox', {type: 'stdio', ...entry})
    expect(JSON.parse(result.text)).toEqual({inputs: [{id: 'key'}], servers: {taskbox: {type: 'stdio', ...entry}}})
  })

  it.each([['    '], ['\t']])('keeps the file\'s indentation (%j)', (indent) => {
    const result = mergeJsonServer(json({mcpServers: {}}, indent), ['mcpServers'], 'taskbox', entry)
    expect(result.text).toBe(json({mcpServers: {taskbox: entry}}, indent))
  })

  it('edits JSONC in place: comments, formatting and every untouched value stay byte for byte', () => {
    const text = [
      '{',
      '  // my servers (VS Code and Cursor read comments)',
      '  "budget": 12345678901234567890,',
      '  "ratio": 1e2,',
      '  "dup": 1, "dup": 2,',
      '  "mcpServers": {',
      '    /* the other one */ "other": {"command": "other", "args": ["serve"]},',
      '  },',
      '}',
      '',
    ].join('\n')
    const result = mergeJsonServer(text, ['mcpServers'], 'taskbox', entry)
    expect(result.status).toBe('added')
    const kept = ['// my servers (VS Code and Cursor read comments)', '"budget": 12345678901234567890,', '"ratio": 1e2,', '"dup": 1, "dup": 2,', '/* the other one */ "other": {"command": "other", "args": ["serve"]}']
    for (const line of kept) expect(result.text).toContain(line)
    expect(result.text.startsWith('{\n  // my servers')).toBe(true)
    expect(result.text).toContain('"taskbox": {')

    // Updating our entry touches only the keys this command sets.
    const updated = mergeJsonServer(result.text.replace('"/usr/bin/node"', '"/old/node"').replace('"taskbox": {', '"taskbox": {\n      "env": {"N": 12345678901234567890},'), ['mcpServers'], 'taskbox', entry)
    expect(updated.status).toBe('updated')
    expect(updated.text).toContain('"env": {"N": 12345678901234567890}')
    expect(updated.text).toContain('"/usr/bin/node"')
    for (const line of kept) expect(updated.text).toContain(line)
  })

  it('accepts a trailing comma, and keeps CRLF line ends', () => {
    expect(mergeJsonServer('{"mcpServers": {},}', ['mcpServers'], 'taskbox', entry).status).toBe('added')
    expect(mergeJsonServer('{\r\n  "mcpServers": {}\r\n}\r\n', ['mcpServers'], 'taskbox', entry).text).not.toMatch(/[^\r]\n/)
  })

  it.each([
    {code: 'UNPARSABLE_CLIENT_CONFIG', name: 'text that is not JSON', text: '{"mcpServers": '},
    {code: 'UNPARSABLE_CLIENT_CONFIG', name: 'an array', text: '[]'},
    {code: 'UNPARSABLE_CLIENT_CONFIG', name: 'a servers key that is not an object', text: json({mcpServers: []})},
    {code: 'UNPARSABLE_CLIENT_CONFIG', name: 'an entry of our name that is not an object', text: json({mcpServers: {taskbox: 'x'}})},
    {code: 'UNSAFE_CLIENT_CONFIG', name: 'the servers key twice', text: '{"mcpServers": {}, "mcpServers": {}}'},
    {code: 'UNSAFE_CLIENT_CONFIG', name: 'our entry twice', text: '{"mcpServers": {"taskbox": {}, "taskbox": {}}}'},
    {code: 'UNSAFE_CLIENT_CONFIG', name: 'a key of ours twice in our entry', text: '{"mcpServers": {"taskbox": {"command": "a", "command": "b"}}}'},
  ])('refuses $name ($code)', ({code, text}) => {
    expect(() => mergeJsonServer(text, ['mcpServers'], 'taskbox', entry)).toThrow(expect.objectContaining({code}))
  })
})

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

describe('updateConfigFile', () => {
  const space = scratch('config-file-')
  afterAll(() => space.cleanup())
  let n = 0
  const fresh = () => {
    const dir = join(space.dir, `case-${++n}`)
    mkdirSync(dir)
    return dir
  }

  const merge = (text: string) => mergeJsonServer(text, ['mcpServers'], 'taskbox', entry)
  const backups = (dir: string) => readdirSync(dir).filter((f) => f.endsWith('.bak'))

  it('creates a missing file and its directories, with no backup', async () => {
    const path = join(fresh(), 'deep', 'er', 'mcp.json')
    const outcome = await updateConfigFile(path, merge)
    expect(outcome).toEqual({backup: null, path, status: 'added'})
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({mcpServers: {taskbox: entry}})
  })

  it('keeps the previous file as a backup, and its permissions', async () => {
    const dir = fresh()
    const path = join(dir, 'mcp.json')
    const before = json({mcpServers: {other: {command: 'o'}}})
    writeFileSync(path, before)
    chmodSync(path, 0o600)
    const first = await updateConfigFile(path, merge)
    expect(first.status).toBe('added')
    expect(first.backup).toMatch(/mcp\.json\.\d{8}T\d{6}Z(-\d+)?\.bak$/)
    expect(readFileSync(first.backup!, 'utf8')).toBe(before)
    expect(statSync(path).mode & 0o777).toBe(0o600)
    expect(JSON.parse(readFileSync(path, 'utf8')).mcpServers.other).toEqual({command: 'o'})

    const second = await updateConfigFile(path, (text) => mergeJsonServer(text, ['mcpServers'], 'taskbox', {...entry, args: ['new']}))
    expect(second.status).toBe('updated')
    expect(second.backup).not.toBe(first.backup)
    expect(readFileSync(first.backup!, 'utf8')).toBe(before)
    expect(backups(dir)).toHaveLength(2)
  })

  it('writes nothing, not even a backup, when nothing changes', async () => {
    const dir = fresh()
    const path = join(dir, 'mcp.json')
    writeFileSync(path, json({mcpServers: {taskbox: entry}}))
    const mtime = statSync(path).mtimeMs
    expect(await updateConfigFile(path, merge)).toEqual({backup: null, path, status: 'unchanged'})
    expect(statSync(path).mtimeMs).toBe(mtime)
    expect(backups(dir)).toEqual([])
  })

  it.each([
    {file: 'mcp.json', name: 'JSON with the servers key twice', run: merge, text: '{"mcpServers": {}, "mcpServers": {}}\n'},
    {file: 'config.toml', name: 'a TOML form it cannot replace', run: (text: string) => upsertTomlServer(text, 'taskbox', launch), text: 'mcp_servers.taskbox.command = "x"\n'},
  ])('refuses $name and leaves the file untouched', async ({file, run, text}) => {
    const dir = fresh()
    const path = join(dir, file)
    writeFileSync(path, text)
    const mtime = statSync(path).mtimeMs
    await expect(updateConfigFile(path, run)).rejects.toThrow(ClientConfigError)
    expect(readFileSync(path, 'utf8')).toBe(text)
    expect(statSync(path).mtimeMs).toBe(mtime)
    expect(readdirSync(dir)).toEqual([file])
  })

  it('refuses a path that is not a regular file, without opening it (a FIFO would block for ever)', async () => {
    const dir = fresh()
    const fifo = join(dir, 'mcp.json')
    execFileSync('mkfifo', [fifo])
    await expect(updateConfigFile(fifo, merge)).rejects.toThrow('it is a named pipe (FIFO), not a regular file')
    await expect(updateConfigFile(dir, merge)).rejects.toThrow('it is a directory, not a regular file')
    expect(readdirSync(dir)).toEqual(['mcp.json'])
  })

  it('follows a dangling symlink and creates the file where it leads; the link stays a link', async () => {
    const dir = fresh()
    const link = join(dir, 'mcp.json')
    symlinkSync(join(dir, 'dotfiles', 'mcp.json'), link)
    await updateConfigFile(link, merge)
    expect(lstatSync(link).isSymbolicLink()).toBe(true)
    expect(JSON.parse(readFileSync(join(dir, 'dotfiles', 'mcp.json'), 'utf8'))).toEqual({mcpServers: {taskbox: entry}})
  })

  it('updates a symlinked file where it lives; the link stays a link', async () => {
    const dir = fresh()
    const real = join(dir, 'dotfiles-mcp.json')
    const link = join(dir, 'mcp.json')
    writeFileSync(real, json({}))
    symlinkSync(real, link)
    const outcome = await updateConfigFile(link, merge)
    expect(outcome.path).toBe(link)
    expect(lstatSync(link).isSymbolicLink()).toBe(true)
    expect(JSON.parse(readFileSync(real, 'utf8'))).toEqual({mcpServers: {taskbox: entry}})
    expect(existsSync(outcome.backup!)).toBe(true)
  })
})
