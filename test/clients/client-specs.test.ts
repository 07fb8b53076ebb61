import {describe, expect, it} from '@jest/globals'
import {win32} from 'node:path'

import {clientSetup} from '../../src/clients/client-setup.js'
import {claudeAddCommand, CLIENTS, locationVariables, type Place, shellQuote} from '../../src/clients/client-specs.js'

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
    ['claude-desktop', place('win32', {APPDATA: '/roaming'}), win32.join('/roaming', 'Claude', 'claude_desktop_config.json')],
    ['gemini', place('linux'), '/home/me/.gemini/settings.json'],
    ['gemini', place('linux', {GEMINI_CLI_HOME: '/g'}), '/g/.gemini/settings.json'],
    ['windsurf', place('darwin'), '/home/me/.codeium/windsurf/mcp_config.json'],
    ['zed', place('linux'), '/home/me/.config/zed/settings.json'],
    ['zed', place('linux', {XDG_CONFIG_HOME: '/x'}), '/x/zed/settings.json'],
    ['zed', place('linux', {FLATPAK_XDG_CONFIG_HOME: '/f', XDG_CONFIG_HOME: '/x'}), '/f/zed/settings.json'],
    ['zed', place('darwin', {XDG_CONFIG_HOME: '/x'}), '/home/me/.config/zed/settings.json'],
    ['zed', place('win32', {APPDATA: '/roaming'}), win32.join('/roaming', 'Zed', 'settings.json')],
    ['goose', place('linux'), '/home/me/.config/goose/config.yaml'],
    ['goose', place('darwin', {XDG_CONFIG_HOME: '/x'}), '/x/goose/config.yaml'],
    ['goose', place('win32', {APPDATA: '/roaming'}), win32.join('/roaming', 'Block', 'goose', 'config', 'config.yaml')],
    ['goose', place('linux', {GOOSE_PATH_ROOT: '/g'}), '/g/config/config.yaml'],
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

describe("passing variables of the client's environment on (--env)", () => {
  const launch = {args: ['x'], command: '/bin/cli'}
  const here: Place = {cwd: '/work/app', env: {}, home: '/home/me', platform: 'linux'}
  const env = ['HEROKU_API_KEY', 'HEROKU_ORG']
  const entryOf = (client: Parameters<typeof clientSetup>[0]) => clientSetup(client, 'tb', launch, here, {env}).entry

  it.each([
    ['claude-code', {env: {HEROKU_API_KEY: '${HEROKU_API_KEY}', HEROKU_ORG: '${HEROKU_ORG}'}}],
    ['cursor', {env: {HEROKU_API_KEY: '${env:HEROKU_API_KEY}', HEROKU_ORG: '${env:HEROKU_ORG}'}}],
    ['vscode', {env: {HEROKU_API_KEY: '${env:HEROKU_API_KEY}', HEROKU_ORG: '${env:HEROKU_ORG}'}}],
    ['windsurf', {env: {HEROKU_API_KEY: '${env:HEROKU_API_KEY}', HEROKU_ORG: '${env:HEROKU_ORG}'}}],
    ['gemini', {env: {HEROKU_API_KEY: '${HEROKU_API_KEY}', HEROKU_ORG: '${HEROKU_ORG}'}}],
    ['codex', {env_vars: env}],
    ['goose', {env_keys: env}],
  ] as const)('%s names them its own way, never their values', (client, keys) => {
    expect(entryOf(client)).toMatchObject(keys)
    expect(clientSetup(client, 'tb', launch, here, {env}).unpassable).toBeUndefined()
  })

  it.each(['claude-desktop', 'zed'] as const)('%s cannot, and says so', (client) => {
    const setup = clientSetup(client, 'tb', launch, here, {env})
    expect(setup.unpassable).toMatch(/cannot pass HEROKU_API_KEY, HEROKU_ORG on: /)
    expect(setup.entry).not.toHaveProperty('env')
  })

  it('adds nothing without --env', () => {
    for (const client of ['claude-code', 'codex', 'goose', 'zed'] as const) {
      const setup = clientSetup(client, 'tb', launch, here)
      expect(Object.keys(setup.entry)).not.toEqual(expect.arrayContaining(['env']))
      expect(setup.unpassable).toBeUndefined()
    }
  })

  it('writes each form into the snippet and the claude mcp add line', () => {
    expect(clientSetup('claude-code', 'tb', launch, here, {env}).addCommand).toBe(`claude mcp add tb -e 'HEROKU_API_KEY=\${HEROKU_API_KEY}' -e 'HEROKU_ORG=\${HEROKU_ORG}' -- /bin/cli x`)
    expect(clientSetup('codex', 'tb', launch, here, {env}).snippet).toBe('[mcp_servers.tb]\ncommand = "/bin/cli"\nargs = ["x"]\nenv_vars = ["HEROKU_API_KEY", "HEROKU_ORG"]')
    expect(clientSetup('goose', 'tb', launch, here, {env}).snippet).toContain('env_keys:\n      - HEROKU_API_KEY\n      - HEROKU_ORG')
  })

  it('wraps the new clients the way each reads its file', () => {
    expect(JSON.parse(clientSetup('gemini', 'tb', launch, here).snippet)).toEqual({mcpServers: {tb: {args: ['x'], command: '/bin/cli'}}})
    expect(JSON.parse(clientSetup('windsurf', 'tb', launch, here).snippet)).toEqual({mcpServers: {tb: {args: ['x'], command: '/bin/cli'}}})
    expect(JSON.parse(clientSetup('zed', 'tb', launch, here).snippet)).toEqual({context_servers: {tb: {args: ['x'], command: '/bin/cli', source: 'custom'}}})
    expect(clientSetup('goose', 'tb', launch, here).snippet).toBe(
      ['extensions:', '  tb:', '    enabled: true', '    type: stdio', '    name: tb', '    description: tb commands as MCP tools', '    cmd: /bin/cli', '    args:', '      - x', '    timeout: 300'].join('\n'),
    )
  })
})

describe('where the CLI keeps its plugins: location variables for hosts that filter the environment', () => {
  const launch = {args: ['x'], command: '/bin/cli'}
  const here: Place = {cwd: '/work/app', env: {}, home: '/home/me', platform: 'linux'}
  const locations = locationVariables((n) => `TASKBOX_${n}`, {HOME: '/home/me', TASKBOX_DATA_DIR: '/opt/tb-data', XDG_CONFIG_HOME: '/srv/conf', XDG_DATA_HOME: ''})

  it('takes only the variables set here: XDG folders and the CLI\'s own <BIN>_DATA_DIR, _CONFIG_DIR, _CACHE_DIR', () => {
    expect(locations).toEqual({TASKBOX_DATA_DIR: '/opt/tb-data', XDG_CONFIG_HOME: '/srv/conf'})
  })

  it.each([
    ['codex', {env_vars: ['HEROKU_API_KEY', 'XDG_CONFIG_HOME', 'TASKBOX_DATA_DIR']}],
    ['goose', {env_keys: ['HEROKU_API_KEY', 'XDG_CONFIG_HOME', 'TASKBOX_DATA_DIR']}],
  ] as const)('%s copies them by name, beside the --env ones', (client, keys) => {
    expect(clientSetup(client, 'tb', launch, here, {env: ['HEROKU_API_KEY'], locations}).entry).toMatchObject(keys)
  })

  it.each(['claude-desktop', 'zed'] as const)('%s, which starts servers with its own environment, gets their values (paths, no secret)', (client) => {
    const setup = clientSetup(client, 'tb', launch, here, {locations})
    expect(setup.entry).toMatchObject({env: {TASKBOX_DATA_DIR: '/opt/tb-data', XDG_CONFIG_HOME: '/srv/conf'}})
    expect(setup.unpassable).toBeUndefined()
  })

  it.each(['claude-code', 'cursor', 'vscode', 'windsurf', 'gemini'] as const)('%s passes its own environment on: the entry stays as it was', (client) => {
    expect(clientSetup(client, 'tb', launch, here, {locations}).entry).toEqual(clientSetup(client, 'tb', launch, here).entry)
  })

  it('a server over HTTP runs with its own environment: nothing added', () => {
    const remote = {url: 'http://127.0.0.1:9/mcp'}
    expect(clientSetup('codex', 'tb', remote, here, {locations}).entry).toEqual({url: 'http://127.0.0.1:9/mcp'})
  })
})
