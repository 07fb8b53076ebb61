import {afterAll, describe, expect, it} from '@jest/globals'
import {execFileSync} from 'node:child_process'
import {chmodSync, chownSync, existsSync, linkSync, lstatSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'

import {ClientConfigError, updateConfigFile} from '../../src/clients/config-file-update.js'
import {mergeJsonServer} from '../../src/clients/jsonc-edit.js'
import {upsertTomlServer} from '../../src/clients/toml-edit.js'
import {entry, json, launch} from '../helpers/client-configs.js'
import {scratch} from '../helpers/taskbox.js'

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

  it("refuses a project's file that a planted link leads out of the project, touching what it leads to", async () => {
    const project = fresh()
    const userSettings = join(fresh(), 'Code', 'User')
    mkdirSync(userSettings, {recursive: true})
    writeFileSync(join(userSettings, 'mcp.json'), '{"theirs": true}')
    symlinkSync(userSettings, join(project, '.vscode'))
    const refused = await updateConfigFile(join(project, '.vscode', 'mcp.json'), merge, {project}).catch((error: Error) => error)
    expect(refused).toBeInstanceOf(ClientConfigError)
    expect((refused as Error).message).toContain('a symbolic link on the way leads out of it')
    expect([readFileSync(join(userSettings, 'mcp.json'), 'utf8'), readdirSync(userSettings)]).toEqual(['{"theirs": true}', ['mcp.json']])
    // A link that stays inside the project is followed.
    mkdirSync(join(project, 'shared'))
    symlinkSync(join(project, 'shared'), join(project, '.cursor'))
    expect((await updateConfigFile(join(project, '.cursor', 'mcp.json'), merge, {project})).status).toBe('added')
    expect(existsSync(join(project, 'shared', 'mcp.json'))).toBe(true)
  })

  it('refuses a file with other hard links, which a rewrite would cut off', async () => {
    const dir = fresh()
    writeFileSync(join(dir, 'mcp.json'), '{}')
    linkSync(join(dir, 'mcp.json'), join(dir, 'other-name.json'))
    await expect(updateConfigFile(join(dir, 'mcp.json'), merge)).rejects.toThrow(/1 other hard link/)
    expect(readFileSync(join(dir, 'mcp.json'), 'utf8')).toBe('{}')
  })

  ;(process.getuid?.() === 0 ? it : it.skip)("run as root, keeps another user's file and its backup theirs", async () => {
    const dir = fresh()
    const path = join(dir, 'mcp.json')
    writeFileSync(path, '{}')
    chownSync(path, 4321, 4322)
    const outcome = await updateConfigFile(path, merge)
    expect([statSync(path).uid, statSync(path).gid]).toEqual([4321, 4322])
    expect([statSync(outcome.backup!).uid, statSync(outcome.backup!).gid]).toEqual([4321, 4322])
  })

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
