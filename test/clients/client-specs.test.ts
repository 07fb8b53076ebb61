import {describe, expect, it} from '@jest/globals'
import {join} from 'node:path'

import {clientSetup} from '../../src/clients/client-setup.js'
import {claudeAddCommand, CLIENTS, type Place, shellQuote} from '../../src/clients/client-specs.js'

describe('shell words', () => {
  it.each([
    ['/usr/bin/node', 'linux', '/usr/bin/node'],
    ['/Users/me/My Apps/cli', 'darwin', `'/Users/me/My Apps/cli'`],
    ["it's", 'linux', String.raw`'it'\''s'`],
    [String.raw`C:\Program Files\cli.cmd`, 'win32', String.raw`"C:\Program Files\cli.cmd"`],
  ] as const)('%s on %s → %s', (word, platform, quoted) => {
    expect(shellQuote(word, platform)).toBe(quoted)
  })

  it('builds the claude mcp add line', () => {
    expect(claudeAddCommand('tb', {args: ['/a b/run.js', 'mcp', 'stdio'], command: '/usr/bin/node'}, 'linux')).toBe(
      `claude mcp add tb -- /usr/bin/node '/a b/run.js' mcp stdio`,
    )
  })
})

describe('client config paths', () => {
  const place = (platform: NodeJS.Platform, env: NodeJS.ProcessEnv = {}): Place => ({cwd: '/work/app', env, home: '/home/me', platform})
  it.each([
    ['claude-code', place('linux'), '/home/me/.claude.json'],
    ['claude-code', {...place('linux'), scope: 'project'}, '/work/app/.mcp.json'],
    ['claude-code', place('linux', {CLAUDE_CONFIG_DIR: '/etc/claude'}), '/etc/claude/.claude.json'],
    ['vscode', place('darwin'), '/work/app/.vscode/mcp.json'],
    ['cursor', place('linux'), '/home/me/.cursor/mcp.json'],
    ['codex', place('linux'), '/home/me/.codex/config.toml'],
    ['codex', place('linux', {CODEX_HOME: '/etc/codex'}), '/etc/codex/config.toml'],
    ['claude-desktop', place('darwin'), '/home/me/Library/Application Support/Claude/claude_desktop_config.json'],
    ['claude-desktop', place('linux'), '/home/me/.config/Claude/claude_desktop_config.json'],
    ['claude-desktop', place('linux', {XDG_CONFIG_HOME: '/x'}), '/x/Claude/claude_desktop_config.json'],
    ['claude-desktop', place('win32', {APPDATA: '/roaming'}), join('/roaming', 'Claude', 'claude_desktop_config.json')],
  ] as const)('%s → %s', (client, where, path) => {
    expect(CLIENTS[client].configPath(where)).toBe(path)
  })

  it('wraps each entry the way its client reads it', () => {
    const launch = {args: ['x'], command: '/bin/cli'}
    const here = place('linux')
    expect(JSON.parse(clientSetup('cursor', 'tb', launch, here).snippet)).toEqual({mcpServers: {tb: {args: ['x'], command: '/bin/cli'}}})
    expect(JSON.parse(clientSetup('claude-desktop', 'tb', launch, here).snippet)).toEqual({mcpServers: {tb: {args: ['x'], command: '/bin/cli'}}})
    expect(JSON.parse(clientSetup('claude-code', 'tb', launch, here).snippet)).toEqual({projects: {'/work/app': {mcpServers: {tb: {args: ['x'], command: '/bin/cli', type: 'stdio'}}}}})
    expect(JSON.parse(clientSetup('claude-code', 'tb', launch, {...here, scope: 'user'}).snippet)).toEqual({mcpServers: {tb: {args: ['x'], command: '/bin/cli', type: 'stdio'}}})
    expect(clientSetup('claude-code', 'tb', launch, {...here, scope: 'project'}).addCommand).toBe('claude mcp add --scope project tb -- /bin/cli x')
    expect(JSON.parse(clientSetup('vscode', 'tb', launch, here).snippet)).toEqual({servers: {tb: {args: ['x'], command: '/bin/cli', type: 'stdio'}}})
    expect(clientSetup('codex', 'tb', launch, here).snippet).toBe('[mcp_servers.tb]\ncommand = "/bin/cli"\nargs = ["x"]')
    expect(clientSetup('claude-code', 'tb', launch, here).addCommand).toBe('claude mcp add tb -- /bin/cli x')
  })
})
