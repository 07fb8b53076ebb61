import {afterAll, beforeAll, describe, expect, it} from '@jest/globals'
import {Config} from '@oclif/core'
import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

import {parseAuthorConfig} from '../../../src/settings/author-config.js'
import {resolveSettings} from '../../../src/settings/settings.js'
import {MAX_TOOL_NAME} from '../../../src/tools/catalog/tool-names.js'
import {buildRegistry, type Registry} from '../../../src/tools/catalog/registry.js'
import {BUILTIN_TOOL_NAMES} from '../../../src/tools/catalog/tool-names.js'
import {toJsonSchema} from '../../../src/tools/catalog/input-schema.js'
import {type GeneratedCli, generateCli} from '../../fixtures/generate-cli.js'

type JsonSchema = Record<string, unknown> & {properties: Record<string, Record<string, unknown>>}

let cli: GeneratedCli
let config: Config
let registry: Registry
let schemas: Map<string, JsonSchema>

beforeAll(async () => {
  cli = generateCli(mkdtempSync(join(tmpdir(), 'registry-scale-')))
  config = await Config.load(cli.root)
  const settings = resolveSettings(parseAuthorConfig({}), {})
  // CPU time, not the clock: other work on the machine delays the build without making it cost more.
  const started = process.cpuUsage()
  registry = buildRegistry(config, settings)
  const used = process.cpuUsage(started)
  const ms = (used.user + used.system) / 1000
  process.stderr.write(
    `registry-scale: buildRegistry made ${registry.tools.length} tools from ${config.commands.length} manifest entries in ${ms.toFixed(1)} ms of CPU\n`,
  )
  expect(ms).toBeLessThan(20_000)
  schemas = new Map(registry.tools.map((t) => [t.name, toJsonSchema(t.input.schema) as JsonSchema]))
})

afterAll(() => {
  if (cli) rmSync(cli.root, {force: true, recursive: true})
})

describe('a generated CLI with hundreds of commands', () => {
  it('loads through oclif from the manifest alone', () => {
    expect(cli.canonical.length).toBeGreaterThanOrEqual(500)
    expect(config.bin).toBe(cli.bin)
    expect(config.topicSeparator).toBe(' ')
    expect(config.commands.find((c) => c.id === 'functions:list')?.pluginType).toBe('jit')
    expect(config.commands.some((c) => c.id === 'data:fetch')).toBe(true)
  })

  it('makes exactly one tool per canonical command', () => {
    expect(registry.tools.map((t) => t.id).sort()).toEqual(cli.canonical)
    expect(registry.byId.size).toBe(cli.canonical.length)
    expect(registry.byName.size).toBe(cli.canonical.length)
  })

  it('leaves out hidden commands, JIT stubs and aliases, and says why', () => {
    for (const id of [...cli.hidden, ...cli.jit, ...cli.aliases]) expect(registry.byId.has(id)).toBe(false)
    const reasons = new Map(registry.skipped.map((s) => [s.id, s.reason]))
    for (const id of cli.hidden) expect(reasons.get(id)).toBe('hidden')
    for (const id of cli.jit) expect(reasons.get(id)).toMatch(/just-in-time/)
  })
})

describe('invariants over every tool', () => {
  it('has a valid, short, unique name that is not a built-in', () => {
    const builtins = new Set<string>(BUILTIN_TOOL_NAMES)
    for (const tool of registry.tools) {
      expect(tool.name).toMatch(/^[A-Za-z0-9_-]{1,64}$/)
      expect(tool.name.length).toBeLessThanOrEqual(MAX_TOOL_NAME)
      expect(builtins.has(tool.name)).toBe(false)
    }

    expect(new Set(registry.tools.map((t) => t.name)).size).toBe(registry.tools.length)
  })

  it('has a strict object schema without top-level combinators, with a cwd property', () => {
    for (const [name, schema] of schemas) {
      const context = `${name}: ${JSON.stringify(schema).slice(0, 200)}`
      expect({context, type: schema.type}).toEqual({context, type: 'object'})
      expect(schema.additionalProperties).toBe(false)
      for (const key of ['oneOf', 'anyOf', 'allOf']) expect(schema).not.toHaveProperty(key)
      expect(schema.properties.cwd).toMatchObject({type: 'string'})
    }
  })

  it('sets all four annotation hints as booleans', () => {
    for (const tool of registry.tools) {
      for (const hint of ['destructiveHint', 'idempotentHint', 'openWorldHint', 'readOnlyHint'] as const) {
        expect(typeof tool.hints[hint]).toBe('boolean')
      }

      if (tool.hints.readOnlyHint) expect(tool.hints.destructiveHint).toBe(false)
    }
  })

  it('has a bounded description with the templates rendered', () => {
    for (const tool of registry.tools) {
      expect(tool.description.length).toBeGreaterThan(0)
      expect(tool.description.length).toBeLessThanOrEqual(1024)
      expect(tool.description).not.toContain('<%')
    }

    expect(registry.byId.get('apps:list')!.description).toContain(`${cli.bin} apps list --target-org me@example.com`)
  })

  it('comes out in the same order every time', async () => {
    const settings = resolveSettings(parseAuthorConfig({}), {})
    const again = buildRegistry(config, settings)
    const reloaded = buildRegistry(await Config.load(cli.root), settings)
    const names = registry.tools.map((t) => t.name)
    expect(again.tools.map((t) => t.name)).toEqual(names)
    expect(reloaded.tools.map((t) => t.name)).toEqual(names)
    expect(registry.tools.map((t) => t.id)).toEqual([...registry.tools.map((t) => t.id)].sort((a, b) => (a < b ? -1 : 1)))
  })
})

describe('names and schemas for awkward commands', () => {
  it.each([
    ['apps:create', 'apps_create'],
    ['apps_create', 'apps_create'],
    ['x:y-z', 'x_y-z'],
    ['x_y-z', 'x_y-z'],
    ['x:y:z', 'x_y_z'],
    ['x:y_z', 'x_y_z'],
    ['x_y:z', 'x_y_z'],
    ['list:commands', 'list_commands'],
    ['search_docs', 'search_docs'],
  ])('%s gets %s plus a hash suffix', (id, base) => {
    expect(registry.byId.get(id)!.name).toMatch(new RegExp(`^${base}_[0-9a-f]{6}$`))
  })

  it('cuts ids too long for a name down to the limit, keeping them apart', () => {
    const long = registry.tools.filter((t) => t.id.startsWith('community:package:version:create:report'))
    expect(long).toHaveLength(3)
    for (const tool of long) expect(tool.name).toMatch(/^community_package_version_create_[a-z_]*[0-9a-f]{6}$/)
    expect(new Set(long.map((t) => t.name)).size).toBe(3)
  })

  it('keeps unique names plain', () => {
    expect(registry.byId.get('x-y:z')!.name).toBe('x-y_z')
    expect(registry.byId.get('org:metadata:permission-set:delete')!.name).toBe('org_metadata_permission-set_delete')
  })

  it('keeps only what matters of the base-class flag shared by every command: here, both its sentences', () => {
    const {name, summary} = cli.commonFlag
    expect(summary.length).toBeGreaterThan(80)
    for (const schema of schemas.values()) {
      const description = String(schema.properties[name].description)
      // Its first sentence, and the one that says when it is not needed: all of it.
      expect(description).toBe('Username or alias of the target org. Not required if the `target-org` configuration variable is already set, for example by `scale org login`.')
      expect(description).not.toContain('Defaults to $')
    }
  })

  it('maps the flag kinds the manifest describes', () => {
    const tool = registry.tools.find((t) => ['wait-for-ready', 'result-format', 'field', 'limit'].every((f) => f in t.command.flags))!
    const {properties, required} = schemas.get(tool.name)! as JsonSchema & {required?: string[]}
    expect(properties['wait-for-ready']).toMatchObject({default: true, type: 'boolean'})
    expect(String(properties['wait-for-ready'].description)).toContain('--no-wait-for-ready')
    expect(properties['result-format']).toMatchObject({default: 'human', enum: ['human', 'csv', 'json']})
    expect(properties.field).toMatchObject({items: {type: 'string'}, minItems: 1, type: 'array'})
    expect(properties.limit).toMatchObject({default: 50, type: 'integer'})
    for (const gone of ['help', 'json', 'interactive', 'loglevel']) expect(properties).not.toHaveProperty(gone)
    expect(required ?? []).not.toContain('cwd')
  })

  it('renames a command flag or arg called cwd instead of clashing with the server one', () => {
    const tool = registry.byId.get(registry.tools.find((t) => 'cwd' in t.command.flags && 'cwd' in t.command.args)!.id)!
    const props = Object.keys(schemas.get(tool.name)!.properties)
    expect(props).toEqual(expect.arrayContaining(['cwd', 'cwd_flag', 'cwd_arg']))
    expect(tool.input.params).toEqual(
      expect.arrayContaining([
        expect.objectContaining({kind: 'flag', name: 'cwd', property: 'cwd_flag'}),
        expect.objectContaining({kind: 'arg', name: 'cwd', property: 'cwd_arg'}),
      ]),
    )
  })

  it('adds extra_args to non-strict commands only', () => {
    for (const tool of registry.tools) {
      expect('extra_args' in schemas.get(tool.name)!.properties).toBe(tool.command.strict === false)
    }
  })
})
