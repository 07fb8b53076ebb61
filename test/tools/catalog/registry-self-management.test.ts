// A CLI that carries a plugin-management plugin (as a manifest-only plugin named @oclif/plugin-plugins, the way
// oclif loads the real one) and its own `upgrade` and `autocomplete:script` commands (the way @shopify/cli and heroku
// ship theirs): none of them is inside the boundary unless the author opts in. The published CLIs of the corpus
// (test/corpus) check the same with the real plugins.
import {afterAll, beforeAll, describe, expect, it} from '@jest/globals'
import {Config} from '@oclif/core'
import {mkdirSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

import {type AuthorConfig, parseAuthorConfig} from '../../../src/settings/author-config.js'
import {resolveSettings} from '../../../src/settings/settings.js'
import {describeCapabilitiesTool} from '../../../src/tools/builtins/describe-capabilities.js'
import {findExecutable, project} from '../../../src/tools/exposure/projection.js'
import {buildRegistry} from '../../../src/tools/catalog/registry.js'

let root: string
let config: Config

function command(id: string, summary: string) {
  return {aliases: [], args: {}, flags: {}, hasDynamicHelp: false, hiddenAliases: [], id, summary}
}

/** A package with an oclif manifest, whose entries name their plugin as `oclif manifest` writes them. */
function writePackage(dir: string, pjson: {name: string} & Record<string, unknown>, commands: ReturnType<typeof command>[]) {
  mkdirSync(dir, {recursive: true})
  writeFileSync(join(dir, 'package.json'), JSON.stringify({type: 'module', version: '1.0.0', ...pjson}))
  const entries = commands.map((c) => [c.id, {...c, pluginAlias: pjson.name, pluginName: pjson.name, pluginType: 'core'}])
  writeFileSync(join(dir, 'oclif.manifest.json'), JSON.stringify({commands: Object.fromEntries(entries), version: '1.0.0'}))
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'self-management-'))
  writePackage(root, {dependencies: {'@oclif/plugin-plugins': '1.0.0'}, name: 'selfcli', oclif: {bin: 'selfcli', commands: './commands', plugins: ['@oclif/plugin-plugins']}}, [
    command('status', 'Show the status.'),
    command('upgrade', 'Upgrades Self CLI.'),
    command('autocomplete:script', 'display autocomplete setup script for shell'),
    command('config:autoupgrade:on', 'Enable automatic upgrades for Self CLI.'),
  ])
  writePackage(join(root, 'node_modules/@oclif/plugin-plugins'), {name: '@oclif/plugin-plugins', oclif: {commands: './lib/commands'}}, [
    command('plugins', 'List installed plugins.'),
    command('plugins:link', 'Links a plugin into the CLI for development.'),
    command('plugins:install', 'Installs a plugin into <%= config.bin %>.'),
  ])
  config = await Config.load(root)
})

afterAll(() => rmSync(root, {force: true, recursive: true}))

function projectionWith(author: AuthorConfig = {}) {
  const settings = resolveSettings(parseAuthorConfig(author), {})
  return project(buildRegistry(config, settings), settings)
}

const SELF = ['autocomplete:script', 'config:autoupgrade:on', 'plugins', 'plugins:install', 'plugins:link', 'upgrade']

describe('commands that manage the CLI itself', () => {
  it('are outside the boundary on every path, each with the reason', () => {
    const projection = projectionWith()
    expect([...projection.executable.keys()]).toEqual(['status'])
    for (const id of SELF) {
      expect(findExecutable(projection, id)).toBeUndefined()
      expect(projection.notListed).toContainEqual({detail: expect.stringContaining('manages the CLI itself'), id, reason: 'manages the CLI itself'})
    }

    expect(projection.notListed.find((n) => n.id === 'plugins:link')?.detail).toContain('provided by @oclif/plugin-plugins')
  })

  it('describe_capabilities says why each is missing', async () => {
    const projection = projectionWith()
    const scope = {config: undefined as never, docs: async () => new Map(), listingOf: () => ({commands: new Set<never>(), notListed: projection.notListed, tools: []}), projection, revisions: []}
    const answer = await describeCapabilitiesTool(scope).handler({}, {}, undefined as never)
    const notListed = (answer.structuredContent as {notListed: {command: string; detail?: string; reason: string}[]}).notListed
    expect(notListed.filter((n) => n.reason === 'manages the CLI itself').map((n) => n.command).sort()).toEqual(SELF)
    expect(notListed.find((n) => n.command === 'upgrade')?.detail).toContain('it updates the CLI itself')
  })

  it('are exposed only where the author opts in, by id or glob', () => {
    const projection = projectionWith({allowSelfManagement: ['autocomplete:*', 'plugins']})
    expect([...projection.executable.keys()].sort()).toEqual(['autocomplete:script', 'plugins', 'status'])
    expect(findExecutable(projection, 'plugins link')).toBeUndefined()
  })
})
