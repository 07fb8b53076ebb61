// What the code does on Windows, proved here with the platform simulated (nothing in this suite runs on Windows):
// process trees ended with taskkill and a server's death noticed without re-parenting, the launch line of a
// Windows install, the token file (no POSIX modes), client config paths (%APPDATA%, %USERPROFILE%, Claude Code's
// forward-slash project keys), a call's cwd (drive letters; no network shares), the console to ask at, and the
// signals that stop a server. Real-process checks of CRLF input are in test/e2e/stdio-process.test.ts.
import {afterAll, describe, expect, it} from '@jest/globals'
import {mkdirSync, writeFileSync} from 'node:fs'
import {join, win32} from 'node:path'

import {claudeProjectKey, CLIENTS, type Place} from '../src/clients/client-specs.js'
import {binOnPath} from '../src/clients/launch.js'
import {skillDir} from '../src/skill/skill-install.js'
import {stopSignals} from '../src/host/signals.js'
import {readToken} from '../src/mcp/http/token-file.js'
import {terminalDevices} from '../src/cli/terminal-ask.js'
import {childEnv} from '../src/tools/execution/child-env.js'
import {killTree, parentGone, taskkillPath} from '../src/tools/execution/process-tree.cjs'
import {workdirPathProblem} from '../src/tools/execution/workdir.js'
import {scratch} from './helpers/taskbox.js'

const space = scratch('win32-')
afterAll(() => space.cleanup())

describe('ending a command and what it started', () => {
  it('on Windows runs taskkill /T /F on the tree, by absolute path, whatever the signal', () => {
    const ran: [string, string[]][] = []
    const kill = () => {
      throw new Error('no process groups on Windows')
    }

    killTree(4242, 'SIGTERM', {kill, platform: 'win32', run: (file, args) => ran.push([file, args])})
    expect(ran).toEqual([[taskkillPath(), ['/T', '/F', '/PID', '4242']]])
    expect(taskkillPath({SystemRoot: 'D:\\Win'})).toBe('D:\\Win\\System32\\taskkill.exe')
    expect(win32.isAbsolute(taskkillPath({}))).toBe(true)
  })

  it('on POSIX signals the process group, and a group already gone is no error', () => {
    const sent: [number, NodeJS.Signals | number][] = []
    const ran: string[] = []
    killTree(4242, 'SIGTERM', {kill: (pid, signal) => sent.push([pid, signal]), platform: 'linux', run: (file) => ran.push(file)})
    expect(sent).toEqual([[-4242, 'SIGTERM']])
    expect(ran).toEqual([])
    const gone = () => {
      throw Object.assign(new Error('ESRCH'), {code: 'ESRCH'})
    }

    expect(() => killTree(4242, 'SIGKILL', {kill: gone, platform: 'darwin'})).not.toThrow()
  })

  it("notices the server's death: by a new parent on POSIX, by the server's process being gone on Windows", () => {
    expect(parentGone(100, {platform: 'linux', ppid: 100})).toBe(false)
    expect(parentGone(100, {platform: 'linux', ppid: 1})).toBe(true)
    // Windows re-parents nothing: the parent id stays, so the server itself is looked for.
    const alive = () => {}
    const missing = () => {
      throw Object.assign(new Error('kill ESRCH'), {code: 'ESRCH'})
    }

    const denied = () => {
      throw Object.assign(new Error('kill EPERM'), {code: 'EPERM'})
    }

    expect(parentGone(100, {kill: alive, platform: 'win32', ppid: 100})).toBe(false)
    expect(parentGone(100, {kill: missing, platform: 'win32', ppid: 100})).toBe(true)
    expect(parentGone(100, {kill: denied, platform: 'win32', ppid: 100})).toBe(false)
  })
})

describe('the launch line of a Windows install', () => {
  const root = join(space.dir, 'pkg')
  const shims = join(space.dir, 'shims')
  mkdirSync(join(root, 'bin'), {recursive: true})
  mkdirSync(shims)
  // What a Windows install of an oclif CLI holds: a shell script without an extension, a .cmd shim, a native .exe.
  for (const name of ['tb', 'tb.cmd']) writeFileSync(join(root, 'bin', name), 'x')

  it('never picks a .cmd or .bat shim, nor a file without an extension: the script is launched with Node instead', () => {
    const config = {bin: 'tb', root}
    expect(binOnPath(config, {PATH: join(root, 'bin'), PATHEXT: '.COM;.EXE;.BAT;.CMD'}, 'win32')).toBeUndefined()
  })

  it('picks a native .exe inside the package, from a quoted PATH entry', () => {
    writeFileSync(join(root, 'bin', 'tb.exe'), 'MZ')
    const config = {bin: 'tb', root}
    expect(binOnPath(config, {PATH: `"${join(root, 'bin')}";${shims}`, PATHEXT: '.COM;.EXE;.BAT;.CMD'}, 'win32')).toBe(join(root, 'bin', 'tb.exe'))
  })
})

describe('the token file on Windows', () => {
  it('is not refused for POSIX modes Windows does not have, and a byte order mark is not part of the token', async () => {
    const file = join(space.dir, 'token')
    writeFileSync(file, '\uFEFFtok-123\r\n', {mode: 0o644})
    await expect(readToken(file, 'X_MCP_TOKEN', {}, 'win32')).resolves.toBe('tok-123')
    await expect(readToken(file, 'X_MCP_TOKEN', {}, 'linux')).rejects.toThrow('can be read by other users')
  })
})

describe('client config paths on Windows', () => {
  const place: Place = {cwd: 'C:\\work\\app', env: {APPDATA: 'C:\\Users\\me\\AppData\\Roaming'}, home: 'C:\\Users\\me', platform: 'win32'}

  it.each([
    ['claude-desktop', 'C:\\Users\\me\\AppData\\Roaming\\Claude\\claude_desktop_config.json'],
    ['claude-code', 'C:\\Users\\me\\.claude.json'],
    ['cursor', 'C:\\Users\\me\\.cursor\\mcp.json'],
    ['vscode', 'C:\\work\\app\\.vscode\\mcp.json'],
    ['codex', 'C:\\Users\\me\\.codex\\config.toml'],
    ['gemini', 'C:\\Users\\me\\.gemini\\settings.json'],
    ['windsurf', 'C:\\Users\\me\\.codeium\\windsurf\\mcp_config.json'],
    ['zed', 'C:\\Users\\me\\AppData\\Roaming\\Zed\\settings.json'],
    ['goose', 'C:\\Users\\me\\AppData\\Roaming\\Block\\goose\\config\\config.yaml'],
  ] as const)('%s → %s', (client, path) => {
    expect(CLIENTS[client].configPath(place)).toBe(path)
  })

  it("falls back to %USERPROFILE%\\AppData\\Roaming without %APPDATA%, and keys Claude Code's project with forward slashes", () => {
    expect(CLIENTS['claude-desktop'].configPath({...place, env: {}})).toBe('C:\\Users\\me\\AppData\\Roaming\\Claude\\claude_desktop_config.json')
    expect(claudeProjectKey(place)).toBe('C:/work/app')
    expect(CLIENTS['claude-code'].format === 'json' && CLIENTS['claude-code'].serversPath(place)).toEqual(['projects', 'C:/work/app', 'mcpServers'])
    expect(skillDir('claude-code', 'tb', place)).toBe('C:\\work\\app\\.claude\\skills\\tb')
    expect(skillDir('codex', 'tb', place)).toBe('C:\\Users\\me\\.codex\\skills\\tb')
  })
})

describe("a call's cwd on Windows", () => {
  it.each([
    ['C:\\work\\app', undefined],
    ['d:/work', undefined],
    ['\\work\\app', 'with its drive letter'],
    ['C:work', 'with its drive letter'],
    ['relative\\dir', 'with its drive letter'],
    ['\\\\fileserver\\share\\app', 'network share or device path'],
    ['//fileserver/share', 'network share or device path'],
    ['\\\\?\\C:\\work', 'network share or device path'],
  ])('%s', (path, problem) => {
    const found = workdirPathProblem(path, 'win32')
    if (problem === undefined) expect(found).toBeUndefined()
    else expect(found).toContain(problem)
  })

  it('and on POSIX only absolute paths', () => {
    expect(workdirPathProblem('/srv/app', 'linux')).toBeUndefined()
    expect(workdirPathProblem('C:\\work', 'linux')).toContain('must be an absolute path')
  })
})

describe('the terminal and the signals', () => {
  it("asks at the console's own devices on Windows", () => {
    expect(terminalDevices('win32')).toEqual({input: '\\\\.\\CONIN$', output: '\\\\.\\CONOUT$'})
    expect(terminalDevices('linux')).toEqual({input: '/dev/tty', output: '/dev/tty'})
  })

  it('stops on Ctrl-Break and a closed console on Windows too', () => {
    expect(stopSignals('win32')).toEqual(['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK'])
    expect(stopSignals('linux')).toEqual(['SIGINT', 'SIGTERM'])
  })
})

describe("the plugin's own variables on Windows", () => {
  it('are kept from commands whatever the case of their names, as Windows reads them', () => {
    const config = {scopedEnvVarKey: (key: string) => `TASKBOX_${key}`} as Parameters<typeof childEnv>[0]
    const saved = {...process.env}
    try {
      Object.assign(process.env, {TASKBOX_MCP_TOKEN: 'a', taskbox_mcp_state: 'b', Taskbox_Other: 'c'})
      const win = childEnv(config, {}, 'win32')
      expect(Object.keys(win).filter((name) => /^taskbox_mcp_/i.test(name))).toEqual([])
      expect(win.Taskbox_Other).toBe('c')
      expect(childEnv(config, {}, 'linux').taskbox_mcp_state).toBe('b')
    } finally {
      for (const name of ['TASKBOX_MCP_TOKEN', 'taskbox_mcp_state', 'Taskbox_Other']) delete process.env[name]
      Object.assign(process.env, saved)
    }
  })
})
