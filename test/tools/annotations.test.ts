import {describe, expect, it} from '@jest/globals'

import type {ToolAnnotationSettings} from '../../src/config.js'

import {type Hints, hintsFromId, resolveHints, SPEC_DEFAULTS} from '../../src/tools/annotations.js'

const READ: Hints = {destructiveHint: false, idempotentHint: true, openWorldHint: true, readOnlyHint: true}
const DESTROY: Hints = {destructiveHint: true, idempotentHint: false, openWorldHint: true, readOnlyHint: false}
const DESTROY_IDEMPOTENT: Hints = {...DESTROY, idempotentHint: true}
const WRITE: Hints = {destructiveHint: false, idempotentHint: false, openWorldHint: true, readOnlyHint: false}
const WRITE_IDEMPOTENT: Hints = {...WRITE, idempotentHint: true}

describe('SPEC_DEFAULTS', () => {
  it('is the conservative reading of the MCP specification', () => {
    expect(SPEC_DEFAULTS).toEqual({destructiveHint: true, idempotentHint: false, openWorldHint: true, readOnlyHint: false})
  })
})

describe('hintsFromId', () => {
  it.each([
    // read-only verbs
    ['tasks:list', READ],
    ['tasks:show', READ],
    ['apps:info', READ],
    ['logs', READ],
    ['org:display', READ],
    ['whoami', READ],
    ['plugins:inspect', READ],
    // destructive verbs
    ['apps:destroy', DESTROY],
    ['tasks:delete', DESTROY],
    ['cache:purge', DESTROY],
    ['db:reset', DESTROY],
    ['plugins:uninstall', DESTROY],
    ['config:unset', DESTROY_IDEMPOTENT],
    // write verbs
    ['tasks:add', WRITE],
    ['apps:create', WRITE],
    ['project:deploy', WRITE],
    ['plugins:install', WRITE],
    ['config:set', WRITE_IDEMPOTENT],
    ['tasks:done', WRITE_IDEMPOTENT],
    ['features:enable', WRITE_IDEMPOTENT],
    ['features:disable', WRITE_IDEMPOTENT],
  ])('%s', (id, hints) => {
    expect(hintsFromId(id)).toEqual(hints)
  })

  it.each([
    // the last known verb decides
    ['project:deploy:report', READ],
    ['org:delete:scratch', DESTROY],
    ['project:deploy:preview', READ],
    ['tasks:list:delete', DESTROY],
    ['apps:destroy:status', READ],
    ['env:set:all', WRITE_IDEMPOTENT],
    // words split on spaces and hyphens too; case does not matter
    ['tasks list', READ],
    ['org delete scratch', DESTROY],
    ['list-tasks', READ],
    ['env:remove-var', DESTROY],
    ['Tasks:LIST', READ],
  ])('%s reads as its last verb', (id, hints) => {
    expect(hintsFromId(id)).toEqual(hints)
  })

  it.each([['frobnicate'], ['tasks:frobnicate'], ['listing:things'], ['deleted'], ['']])('%p has no known verb', (id) => {
    expect(hintsFromId(id)).toBeUndefined()
  })

  it('returns a fresh object every time', () => {
    const first = hintsFromId('tasks:list')!
    first.readOnlyHint = false
    expect(hintsFromId('tasks:list')).toEqual(READ)
  })
})

describe('resolveHints', () => {
  it.each<[string, string, (ToolAnnotationSettings | undefined)[], Hints & {title?: string}, string]>([
    ['no verb, no layers', 'tasks:frobnicate', [], SPEC_DEFAULTS, 'default'],
    ['verb, no layers', 'tasks:list', [], READ, 'verb'],
    ['empty layers do not count', 'tasks:list', [undefined, {}], READ, 'verb'],
    ['a layer of only undefined keys does not count', 'tasks:list', [{readOnlyHint: undefined}], READ, 'verb'],
    ['empty layers on an unknown verb', 'x:y', [undefined, {}, undefined], SPEC_DEFAULTS, 'default'],
    ['author overrides the verb', 'tasks:add', [{idempotentHint: true}], WRITE_IDEMPOTENT, 'author'],
    ['author overrides the defaults', 'x:y', [{destructiveHint: false, openWorldHint: false}], {...SPEC_DEFAULTS, destructiveHint: false, openWorldHint: false}, 'author'],
    ['a title passes through', 'tasks:list', [{title: 'List tasks'}], {...READ, title: 'List tasks'}, 'author'],
    ['later layers win', 'tasks:add', [{idempotentHint: true, openWorldHint: false}, {idempotentHint: false}], {...WRITE, openWorldHint: false}, 'author'],
    ['a later empty layer keeps earlier ones', 'tasks:add', [{openWorldHint: false}, {}], {...WRITE, openWorldHint: false}, 'author'],
    ['read-only implies not destructive', 'apps:destroy', [{readOnlyHint: true}], READ, 'author'],
    ['read-only implies idempotent unless said otherwise', 'x:y', [{idempotentHint: false, readOnlyHint: true}], {...READ, idempotentHint: false}, 'author'],
    ['read-only beats destructive in the same layer', 'x:y', [{destructiveHint: true, readOnlyHint: true}], READ, 'author'],
    ['read-only beats destructive in a later layer', 'x:y', [{readOnlyHint: true}, {destructiveHint: true}], READ, 'author'],
    ['a later layer can take read-only back', 'tasks:list', [{readOnlyHint: false}], {...READ, readOnlyHint: false}, 'author'],
    [
      'destructive after read-only taken back',
      'tasks:list',
      [{readOnlyHint: false}, {destructiveHint: true}],
      {...READ, destructiveHint: true, readOnlyHint: false},
      'author',
    ],
  ])('%s', (_, id, layers, hints, source) => {
    expect(resolveHints(id, layers)).toEqual({hints, source})
  })

  it('ignores keys an author set to undefined', () => {
    const {hints} = resolveHints('tasks:list', [{destructiveHint: undefined, readOnlyHint: undefined, title: 'List'}])
    expect(hints).toEqual({...READ, title: 'List'})
  })

  it('never changes SPEC_DEFAULTS', () => {
    resolveHints('x:y', [{readOnlyHint: true}])
    resolveHints('x:y', [])
    expect(SPEC_DEFAULTS).toEqual({destructiveHint: true, idempotentHint: false, openWorldHint: true, readOnlyHint: false})
  })
})

describe('resolveHints for topic index commands', () => {
  it.each([
    ['apps', true, {readOnlyHint: true, destructiveHint: false}, 'topic'],
    ['apps', false, {readOnlyHint: false, destructiveHint: true}, 'default'],
    ['run', true, {readOnlyHint: false, destructiveHint: false}, 'verb'],
    ['config', true, {readOnlyHint: true, destructiveHint: false}, 'topic'],
  ] as const)('%s (topic index: %s)', (id, topicIndex, hints, source) => {
    const result = resolveHints(id, [], topicIndex)
    expect(result.hints).toMatchObject(hints)
    expect(result.source).toBe(source)
  })
})
