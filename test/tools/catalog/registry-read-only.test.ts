// Read-only commands whose flags would change something (`sf org list --clean`, `shopify theme check
// --auto-correct`): the flags are left out of the input, so readOnlyHint holds whatever the model passes; a writing
// flag that cannot be left out (required) makes the command not read-only. A manifest-only CLI, as oclif loads one.
import {afterAll, beforeAll, describe, expect, it} from '@jest/globals'
import {Config} from '@oclif/core'
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

import {resolveSettings} from '../../../src/settings/settings.js'
import {buildArgv} from '../../../src/tools/execution/argv.js'
import {buildRegistry, type Registry} from '../../../src/tools/catalog/registry.js'
import {toJsonSchema} from '../../../src/tools/catalog/input-schema.js'

let root: string
let registry: Registry

const flag = (name: string, summary: string, extra: Record<string, unknown> = {}) => ({name, summary, type: 'boolean', allowNo: false, ...extra})
const option = (name: string, summary: string, extra: Record<string, unknown> = {}) => ({hasDynamicHelp: false, multiple: false, name, summary, type: 'option', ...extra})

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'read-only-flags-'))
  const commands = {
    'org:list': {flags: {all: flag('all', 'Include expired orgs.'), clean: flag('clean', 'Remove all local org authorizations for non-active scratch orgs.')}, summary: 'List all orgs.'},
    'report:show': {flags: {'output-file': option('output-file', 'File where the report is written.', {required: true})}, summary: 'Show the report.'},
    'theme:check': {flags: {'auto-correct': flag('auto-correct', 'Automatically fix offenses'), 'fail-level': option('fail-level', 'Minimum severity')}, summary: 'Validate the theme.'},
  }
  const manifest = Object.fromEntries(
    Object.entries(commands).map(([id, c]) => [id, {aliases: [], args: {}, hasDynamicHelp: false, hiddenAliases: [], id, pluginAlias: 'rocli', pluginName: 'rocli', pluginType: 'core', ...c}]),
  )
  writeFileSync(join(root, 'package.json'), JSON.stringify({name: 'rocli', oclif: {bin: 'rocli', commands: './commands'}, type: 'module', version: '1.0.0'}))
  writeFileSync(join(root, 'oclif.manifest.json'), JSON.stringify({commands: manifest, version: '1.0.0'}))
  registry = buildRegistry(await Config.load(root), resolveSettings({}, {}))
})

afterAll(() => rmSync(root, {force: true, recursive: true}))

const tool = (id: string) => registry.byId.get(id)!
const properties = (id: string) => Object.keys((toJsonSchema(tool(id).input.schema) as {properties: object}).properties)

describe('flags of read-only commands that would change something', () => {
  it('are left out of the input schema, with the reason', () => {
    expect(tool('org:list').hints.readOnlyHint).toBe(true)
    // A read-only command's tool takes no idempotencyKey: running it again is the answer to a retry.
    expect(properties('org:list')).toEqual(['all', 'cwd'])
    expect(tool('org:list').withheldFlags).toEqual([{name: 'clean', reason: expect.stringContaining('clean')}])
    expect(properties('theme:check')).toEqual(['fail-level', 'cwd'])
  })

  it('cannot be passed: the schema refuses them and argv never carries them', () => {
    expect(tool('org:list').input.schema.safeParse({clean: true}).success).toBe(false)
    expect(buildArgv(tool('org:list').input.params, {all: true, clean: true}, false)).toEqual(['--all'])
  })

  it('make a command not read-only when they cannot be left out', () => {
    expect(tool('report:show').hints).toMatchObject({readOnlyHint: false})
    expect(tool('report:show').hintEvidence.at(-1)).toContain('required flag --output-file writes')
    expect(properties('report:show')).toContain('output-file')
  })
})
