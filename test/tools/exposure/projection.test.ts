import {afterAll, beforeAll, describe, expect, it} from '@jest/globals'
import {Config} from '@oclif/core'
import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

import {type AuthorConfig, ConfigError, parseAuthorConfig} from '../../../src/settings/author-config.js'
import {resolveSettings, type ServerFlags} from '../../../src/settings/settings.js'
import {listingBytes, listingFloor} from '../../../src/tools/exposure/listing.js'
import {findExecutable, project, type Projection, unknownCommandMessage} from '../../../src/tools/exposure/projection.js'
import {definitionHash} from '../../../src/tools/catalog/definition-hash.js'
import {buildRegistry, type Registry} from '../../../src/tools/catalog/registry.js'
import {generateCli} from '../../fixtures/generate-cli.js'
import {ROOT} from '../../helpers/taskbox.js'

let taskbox: Config
let large: Config
let largeRoot: string

beforeAll(async () => {
  taskbox = await Config.load(join(ROOT, 'examples/taskbox'))
  largeRoot = mkdtempSync(join(tmpdir(), 'projection-'))
  large = await Config.load(generateCli(largeRoot).root)
})

afterAll(() => rmSync(largeRoot, {force: true, recursive: true}))

function projectFor(config: Config, flags: ServerFlags = {}, author: AuthorConfig = {}): {projection: Projection; registry: Registry} {
  const settings = resolveSettings(parseAuthorConfig(author), flags)
  const registry = buildRegistry(config, settings)
  return {projection: project(registry, settings), registry}
}

const ids = (tools: readonly {id: string}[]) => tools.map((t) => t.id)
const reasonOf = (projection: Projection, id: string) => projection.notListed.find((n) => n.id === id)?.reason

describe('project: the example CLI', () => {
  it('lists every command when they all fit, and says why the rest are not listed', () => {
    const {projection, registry} = projectFor(taskbox)
    expect(projection.bandSource).toBe('all commands fit')
    expect(ids(projection.band)).toEqual(ids(registry.tools))
    expect(projection.gateway).toEqual([])
    expect(reasonOf(projection, 'debug:dump')).toBe('hidden')
    expect(reasonOf(projection, 'mcp:stdio')).toBe('the MCP server itself')
    expect(projection.bandBytes).toBe(projection.band.reduce((sum, t) => sum + listingBytes(t), 0))
  })

  it('fills a small band with read-only commands first; the rest stay reachable', () => {
    const {projection} = projectFor(taskbox, {'max-tools': 3})
    expect(projection.bandSource).toBe('default selection')
    expect(projection.band).toHaveLength(3)
    expect(projection.band.every((t) => t.hints.readOnlyHint)).toBe(true)
    expect(projection.executable.size).toBe(10)
    expect(reasonOf(projection, 'tasks:add')).toBe('outside the typed band (reachable through run_command)')
  })

  it('respects the byte budget', () => {
    const {projection} = projectFor(taskbox, {'max-bytes': 2048})
    expect(projection.bandBytes).toBeLessThanOrEqual(2048)
    expect(projection.band.length).toBeGreaterThan(0)
    expect(projection.band.length).toBeLessThan(10)
  })

  it('in read-only mode keeps mutating commands out of every path', () => {
    const {projection} = projectFor(taskbox, {'read-only': true})
    expect(projection.readOnly).toBe(true)
    expect([...projection.executable.values()].every((t) => t.hints.readOnlyHint)).toBe(true)
    expect(reasonOf(projection, 'tasks:remove')).toBe('read-only mode')
    expect(findExecutable(projection, 'tasks remove')).toBeUndefined()
    expect(findExecutable(projection, 'tasks list')?.id).toBe('tasks:list')
  })

  it('answers a command outside the boundary exactly like an unknown one', () => {
    const {projection} = projectFor(taskbox, {exclude: ['sync']})
    expect(reasonOf(projection, 'sync')).toBe('excluded by flag')
    expect(unknownCommandMessage(projection, 'sync')).toMatch(/^No command "sync"\./)
    expect(unknownCommandMessage(projection, 'debug dump')).toMatch(/^No command "debug dump"\./)
  })

  it.each([[['tasks']], [['tasks:*']], [['tasks:l*', 'tasks:show']]])('selects the band with --tools %j', (tools) => {
    const {projection} = projectFor(taskbox, {tools})
    expect(projection.bandSource).toBe('tools flag')
    expect(projection.band.every((t) => t.id.startsWith('tasks:'))).toBe(true)
    expect(projection.executable.get('init')).toBeDefined()
    expect(reasonOf(projection, 'init')).toBe('outside the typed band (reachable through run_command)')
  })

  it('uses the author default profile, a profile by flag, and profile exclusions and read-only', () => {
    const author: AuthorConfig = {
      defaultProfile: 'core',
      profiles: {
        core: {include: ['status', 'tasks:list', 'tasks:add']},
        viewer: {exclude: ['report'], include: ['tasks'], readOnly: true},
      },
    }
    const byDefault = projectFor(taskbox, {}, author).projection
    expect(byDefault.profile).toBe('core')
    expect(byDefault.bandSource).toBe('author default profile')
    expect(ids(byDefault.band)).toEqual(['status', 'tasks:add', 'tasks:list'])

    const viewer = projectFor(taskbox, {profile: 'viewer'}, author).projection
    expect(viewer.bandSource).toBe('profile flag')
    expect(viewer.readOnly).toBe(true)
    expect(ids(viewer.band)).toEqual(['tasks:list', 'tasks:show'])
    expect(reasonOf(viewer, 'report:weekly')).toBe('excluded by profile')

    expect(() => projectFor(taskbox, {profile: 'nope'}, author)).toThrow(ConfigError)
    expect(() => parseAuthorConfig({defaultProfile: 'missing'})).toThrow(/no profile named "missing"/)
  })

  it('is deterministic', () => {
    const a = projectFor(taskbox, {'max-tools': 4}).projection
    const b = projectFor(taskbox, {'max-tools': 4}).projection
    expect(ids(a.band)).toEqual(ids(b.band))
    expect(a.notListed).toEqual(b.notListed)
  })
})

describe('project: a generated CLI of hundreds of commands', () => {
  it('fits the band with the bytes the built-ins reserve taken off the budget', () => {
    const settings = resolveSettings(parseAuthorConfig({}), {})
    const registry = buildRegistry(large, settings)
    const reserved = project(registry, settings, () => 8000)
    expect(reserved.limits).toEqual({maxBytes: 32 * 1024, maxTools: 40, reservedBytes: 8000})
    expect(reserved.bandBytes).toBeLessThanOrEqual(32 * 1024 - 8000)
    expect(reserved.band.length).toBeLessThan(project(registry, settings).band.length)
  })

  it('passes over a command on its floor only when the floor is no more than its listing', () => {
    // The floor decides without building a schema; were it ever above the listing, a band could miss a command.
    const {registry} = projectFor(large)
    for (const tool of registry.tools) expect(listingFloor(tool)).toBeLessThanOrEqual(listingBytes(tool))
  })

  it('keeps the band within 40 tools and 32 KB by default and reaches everything else through the gateway', () => {
    const {projection, registry} = projectFor(large)
    expect(projection.bandSource).toBe('default selection')
    expect(projection.band.length).toBeLessThanOrEqual(40)
    expect(projection.bandBytes).toBeLessThanOrEqual(32 * 1024)
    expect(projection.band.length + projection.gateway.length).toBe(registry.tools.length)
    const listedOrGateway = new Set([...ids(projection.band), ...ids(projection.gateway)])
    for (const {id, reason} of projection.notListed) {
      if (reason.startsWith('outside')) expect(listedOrGateway.has(id)).toBe(true)
      else expect(projection.executable.has(id)).toBe(false)
    }
  })
})

describe('definitionHash', () => {
  it('is stable, distinct per command, and changes when what shapes a call changes', () => {
    const first = projectFor(taskbox).registry
    const second = projectFor(taskbox).registry
    const add = first.byId.get('tasks:add')!
    expect(definitionHash(add)).toMatch(/^sha256:[0-9a-f]{32}$/)
    expect(definitionHash(add)).toBe(definitionHash(second.byId.get('tasks:add')!))
    expect(new Set(first.tools.map((t) => definitionHash(t))).size).toBe(first.tools.length)
    const slower = projectFor(taskbox, {}, {commands: {'tasks:add': {timeout: 5}}}).registry
    expect(definitionHash(slower.byId.get('tasks:add')!)).not.toBe(definitionHash(add))
    const relabelled = projectFor(taskbox, {}, {commands: {'tasks:add': {annotations: {idempotentHint: true}}}}).registry
    expect(definitionHash(relabelled.byId.get('tasks:add')!)).not.toBe(definitionHash(add))
  })
})
