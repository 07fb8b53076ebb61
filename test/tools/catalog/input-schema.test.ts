import type {Command} from '@oclif/core'

import {describe, expect, it} from '@jest/globals'
import * as z from 'zod'

import {buildToolInput, flagSignature, isExposedFlag, SchemaError, type SchemaOptions, toJsonSchema} from '../../../src/tools/catalog/input-schema.js'

type Fields = Record<string, unknown>

const bool = (name: string, fields: Fields = {}) => ({allowNo: false, name, type: 'boolean', ...fields}) as unknown as Command.Flag.Cached
const option = (name: string, fields: Fields = {}) => ({multiple: false, name, type: 'option', ...fields}) as unknown as Command.Flag.Cached
const arg = (name: string, fields: Fields = {}) => ({name, ...fields}) as unknown as Command.Arg.Cached

function command(flags: Command.Flag.Cached[], args: Command.Arg.Cached[] = [], fields: Fields = {}): Command.Cached {
  return {
    aliases: [],
    args: Object.fromEntries(args.map((a) => [a.name, a])),
    flags: Object.fromEntries(flags.map((f) => [f.name, f])),
    id: 'tasks:add',
    ...fields,
  } as unknown as Command.Cached
}

const cwd = z.string().describe('Working directory').optional()

function build(cmd: Command.Cached, options: Partial<SchemaOptions> = {}) {
  const input = buildToolInput(cmd, {commonFlags: new Set(), omitFlags: new Set(), secretFlags: new Set(), serverShape: {cwd}, ...options})
  const json = toJsonSchema(input.schema) as {properties: Record<string, Record<string, unknown>>; required?: string[]} & Fields
  return {...input, json}
}

/** The JSON Schema of the single property a one-flag (or one-arg) command produces. */
function property(flag: Command.Flag.Cached, options: Partial<SchemaOptions> = {}): Record<string, unknown> {
  return build(command([flag]), options).json.properties[flag.name]
}

describe('flags → JSON Schema', () => {
  it.each([
    ['boolean', bool('done', {summary: 'Mark done.'}), {description: 'Mark done.', type: 'boolean'}],
    ['boolean with allowNo', bool('color', {allowNo: true, summary: 'Colour.'}), {description: 'Colour. false sends --no-color.', type: 'boolean'}],
    ['boolean with default', bool('all', {default: false}), {default: false, type: 'boolean'}],
    ['option', option('title', {summary: 'The title.'}), {description: 'The title.', type: 'string'}],
    ['description when no summary', option('title', {description: 'A long\n  title.'}), {description: 'A long title.', type: 'string'}],
    ['options → enum', option('priority', {options: ['low', 'high']}), {enum: ['low', 'high'], type: 'string'}],
    ['multiple', option('tag', {multiple: true}), {items: {type: 'string'}, maxItems: 1000, minItems: 1, type: 'array'}],
    [
      'multiple with options',
      option('tag', {multiple: true, options: ['a', 'b']}),
      {items: {enum: ['a', 'b'], type: 'string'}, maxItems: 1000, minItems: 1, type: 'array'},
    ],
    ['string default', option('owner', {default: 'me'}), {default: 'me', type: 'string'}],
    ['integer from default', option('limit', {default: 10}), {default: 10, type: 'integer'}],
    ['number from default', option('ratio', {default: 0.5}), {default: 0.5, type: 'number'}],
    ['integer from multiple default', option('port', {default: [80], multiple: true}), {default: [80], items: {type: 'integer'}, maxItems: 1000, minItems: 1, type: 'array'}],
    ['integer from helpValue <n>', option('limit', {helpValue: '<n>'}), {type: 'integer'}],
    ['integer from helpValue seconds', option('wait', {helpValue: 'SECONDS'}), {type: 'integer'}],
    ['integer from helpValue <10>', option('wait', {helpValue: '<10>'}), {type: 'integer'}],
    ['string from helpValue <value>', option('name', {helpValue: '<value>'}), {type: 'string'}],
    ['string default that looks numeric', option('code', {default: '10'}), {default: '10', type: 'string'}],
    ['a dynamic default is not advertised', option('owner', {default: () => 'me'}), {type: 'string'}],
    ['env note', option('region', {env: 'ACME_REGION', summary: 'Region.'}), {description: 'Region. Defaults to $ACME_REGION.', type: 'string'}],
    [
      'a secret with a variable',
      option('token', {env: 'ACME_TOKEN', summary: 'Token.'}),
      {description: 'Token. Better left out: set $ACME_TOKEN where the server runs, so the secret never passes through the model. Defaults to $ACME_TOKEN.', type: 'string'},
    ],
  ])('%s', (_, flag, expected) => {
    expect(property(flag)).toEqual(expected)
  })

  it.each([
    ['exclusive', {exclusive: ['json', 'csv']}, 'Cannot be used with --json, --csv.'],
    ['exactlyOne', {exactlyOne: ['a', 'b']}, 'Give exactly one of --a, --b.'],
    ['dependsOn', {dependsOn: ['org']}, 'Requires --org.'],
    ['relationship all', {relationships: [{flags: ['x', {name: 'y'}], type: 'all'}]}, 'Needs all of --x, --y.'],
    ['relationship some', {relationships: [{flags: ['x'], type: 'some'}]}, 'Needs at least one of --x.'],
    ['relationship none', {relationships: [{flags: ['x'], type: 'none'}]}, 'Needs none of --x.'],
    ['relationship only', {relationships: [{flags: ['x'], type: 'only'}]}, 'Needs only --x.'],
    ['several notes, in order', {dependsOn: ['org'], env: 'ACME_ORG', exclusive: ['all']}, 'Cannot be used with --all. Requires --org. Defaults to $ACME_ORG.'],
  ])('relation note: %s', (_, fields, note) => {
    expect(property(option('target', {summary: 'Target.', ...fields})).description).toBe(`Target. ${note}`)
  })

  it("leaves out what oclif adds by what it is, and keeps a command's own --version option and --json", () => {
    // @prismatic-io/prism `instances:update --version`: an option of the command's own.
    const own = build(command([option('version', {summary: 'Version to deploy.'}), bool('help', {char: 'h'}), bool('json', {summary: 'Print raw JSON.'}), option('fields')]))
    expect(Object.keys(own.json.properties).sort()).toEqual(['cwd', 'fields', 'json', 'version'])
    // A command with enableJsonFlag: oclif's --json, which the server passes itself; Flags.version() prints and exits.
    const oclif = build(command([bool('json', {helpGroup: 'GLOBAL', summary: 'Format output as json.'}), bool('version'), option('fields')], [], {enableJsonFlag: true}))
    expect(Object.keys(oclif.json.properties).sort()).toEqual(['cwd', 'fields'])
  })

  it('makes a required flag the CLI fills itself optional, saying how (rdme `--key`: RDME_API_KEY or `rdme login`)', () => {
    const built = build(command([
      option('key', {env: 'RDME_API_KEY', required: true, summary: 'API key.'}),
      option('project', {description: 'Project subdomain; defaults to the one saved by `rdme login`.', required: true}),
      option('org', {required: true}),
      option('branch', {required: true}),
    ]), {optionalFlags: new Set(['org'])})
    expect(built.json.required).toEqual(['branch'])
    expect(built.json.properties.key.description).toBe('API key. Leave it out when $RDME_API_KEY is set where the server runs. Defaults to $RDME_API_KEY.')
    expect(built.json.properties.project.description).toContain('Leave it out to use what the CLI keeps from its login.')
    expect(built.json.properties.org.description).toBe('Leave it out to let the CLI fill it in itself.')
  })

  it('treats credentials taken as flags as secrets in any spelling or by their text, and points to their variable', () => {
    const built = build(command([
      option('apiSecret', {env: 'VONAGE_API_SECRET', summary: 'Your Vonage API secret.'}),
      option('client_secret'),
      option('bearer'),
      option('auth', {summary: 'Bearer token'}),
      option('region', {summary: 'Region to use.'}),
    ]))
    expect(built.params.flatMap((p) => (p.kind !== 'rest' && p.secret ? [p.name] : [])).sort()).toEqual(['apiSecret', 'auth', 'bearer', 'client_secret'])
    expect(built.json.properties.apiSecret.description).toContain('Better left out: set $VONAGE_API_SECRET where the server runs, so the secret never passes through the model.')
  })

  it('marks required option flags required, never booleans', () => {
    const {json} = build(command([option('title', {required: true}), option('owner'), bool('done', {required: true})]))
    expect(json.required).toEqual(['title'])
  })

  it('advertises a default without filling it in', () => {
    const {schema} = build(command([option('limit', {default: 10}), bool('all', {default: true})]))
    expect(schema.parse({})).toEqual({})
    expect(schema.parse({limit: 3})).toEqual({limit: 3})
  })

  it('validates integers, enums and non-empty lists', () => {
    const {schema} = build(command([option('limit', {default: 10}), option('p', {options: ['low']}), option('tag', {multiple: true})]))
    expect(schema.safeParse({limit: 2.5}).success).toBe(false)
    expect(schema.safeParse({limit: '3'}).success).toBe(false)
    expect(schema.safeParse({p: 'high'}).success).toBe(false)
    expect(schema.safeParse({tag: []}).success).toBe(false)
    expect(schema.safeParse({limit: 3, p: 'low', tag: ['x']}).success).toBe(true)
  })

  it('shortens the description of a common flag to its first sentence and drops its notes', () => {
    const flag = option('target-org', {env: 'SF_ORG', summary: `Username or alias of the org. ${'Long explanation. '.repeat(10)}`})
    const {description} = property(flag, {commonFlags: new Set([flagSignature(flag)])}) as {description: string}
    expect(description).toBe('Username or alias of the org.')
    expect(description).not.toContain('SF_ORG')
  })

  it('keeps the sentence of a common flag that says when it is not required', () => {
    const summary = 'Username or alias of the target org. Not required if the `target-org` configuration variable is already set. More about orgs here.'
    const flag = option('target-org', {noCacheDefault: true, required: true, summary})
    const {description} = property(flag, {commonFlags: new Set([flagSignature(flag)])}) as {description: string}
    expect(description).toBe('Username or alias of the target org. Not required if the `target-org` configuration variable is already set. Leave it out to use the default the command finds itself (for example in its configuration).')
  })

  it.each([
    ['a default the command works out itself (noCacheDefault)', {noCacheDefault: true, required: true}],
    ['a default in the manifest', {default: '.', required: true}],
  ])('does not require a required flag with %s', (_, extra) => {
    const {schema} = build(command([option('path', {summary: 'Where.', ...extra})]))
    expect(schema.safeParse({}).success).toBe(true)
  })

  it('does not require a required arg with a default', () => {
    const {json, schema} = build(command([], [arg('path', {default: '.', required: true})]))
    expect(schema.safeParse({}).success).toBe(true)
    expect((json.properties.path as {description: string}).description).toContain('Leave it out to use the default.')
  })

  it.each([
    [{allowNo: true, name: 'x', summary: 'log validation diagnostics or not', type: 'boolean'}, 'log validation diagnostics or not. false sends --no-x.'],
    [{env: 'FIX', multiple: false, name: 'x', summary: 'Automatically fix offenses', type: 'option'}, 'Automatically fix offenses. Defaults to $FIX.'],
  ])('ends the flag text as a sentence before a note: %p', (flag, expected) => {
    expect(property(flag as unknown as Command.Flag.Cached).description).toBe(expected)
  })

  it('keeps a short common flag description whole', () => {
    const flag = option('target-org', {env: 'SF_ORG', summary: 'Org alias.'})
    expect(property(flag, {commonFlags: new Set([flagSignature(flag)])}).description).toBe('Org alias.')
  })
})

describe('isExposedFlag', () => {
  const omit = new Set(['api-version'])
  it.each([
    [bool('done'), true],
    [option('title'), true],
    [bool('secret', {hidden: true}), false],
    [option('old', {deprecated: true}), false],
    [option('old', {deprecated: {to: 'new'}}), false],
    [bool('help'), false],
    [bool('json'), false],
    [bool('version'), false],
    [bool('interactive'), false],
    [bool('prompt'), false],
    [option('prompt'), true],
    [option('api-version'), false],
  ])('%p → %p', (flag, exposed) => {
    expect(isExposedFlag(flag, omit)).toBe(exposed)
  })

  it('leaves omitted and server-owned flags out of the schema', () => {
    const {json, params} = build(command([bool('json'), bool('help'), option('api-version'), option('title')], [], {enableJsonFlag: true}), {omitFlags: omit})
    expect(Object.keys(json.properties)).toEqual(['title', 'cwd'])
    expect(params.map((p) => p.property)).toEqual(['title'])
  })
})

describe('positional args', () => {
  it('follow the flags in declared order, skipping hidden ones', () => {
    const cmd = command(
      [bool('done')],
      [arg('title', {description: 'Title. ', required: true}), arg('secret', {hidden: true}), arg('priority', {default: 'low', options: ['low', 'high']})],
    )
    const {json, params} = build(cmd)
    expect(Object.keys(json.properties)).toEqual(['done', 'title', 'priority', 'cwd'])
    expect(json.properties.title).toEqual({description: 'Title.', type: 'string'})
    expect(json.properties.priority).toEqual({default: 'low', enum: ['low', 'high'], type: 'string'})
    expect(json.required).toEqual(['title'])
    expect(params).toEqual([
      {allowNo: false, kind: 'flag', multiple: false, name: 'done', property: 'done', secret: false, type: 'boolean'},
      {kind: 'arg', name: 'title', property: 'title', secret: false},
      {kind: 'arg', name: 'priority', property: 'priority', secret: false},
    ])
  })

  it('marks parameters that hold secrets, by name, by env var, or by the author', () => {
    const cmd = command([option('api-key'), option('remote', {env: 'ACME_TOKEN'}), option('pin'), option('name')], [arg('password')])
    const {params} = build(cmd, {secretFlags: new Set(['pin'])})
    expect(Object.fromEntries(params.map((p) => [p.kind === 'rest' ? 'rest' : p.name, p.kind !== 'rest' && p.secret]))).toEqual({
      'api-key': true,
      name: false,
      password: true,
      pin: true,
      remote: true,
    })
  })

  it('accept any further ones as extra_args when the command is not strict', () => {
    const {json, params, schema} = build(command([], [arg('file')], {strict: false}))
    expect(json.properties.extra_args).toEqual({
      description: 'More positional arguments, passed after the ones above.',
      items: {type: 'string'},
      maxItems: 1000,
      type: 'array',
    })
    expect(params.at(-1)).toEqual({kind: 'rest', property: 'extra_args'})
    expect(schema.parse({extra_args: ['a', '-b']})).toEqual({extra_args: ['a', '-b']})
  })

  it.each([[undefined], [true]])('have no extra_args when strict is %p', (strict) => {
    expect(Object.keys(build(command([], [], {strict})).json.properties)).toEqual(['cwd'])
  })
})

describe('property names', () => {
  it.each([
    ['an arg named like a flag', [option('name')], [arg('name')], {}, ['name', 'name_arg']],
    ['a flag named like a server property', [option('cwd')], [], {}, ['cwd_flag']],
    // Reserved in every tool, also where the property is not offered (a read-only command takes no key).
    ['a flag named like a call input this tool does not take', [option('idempotencyKey')], [], {}, ['idempotencyKey_flag']],
    ['an arg named like a server property', [], [arg('cwd')], {}, ['cwd_arg']],
    ['a second collision on the renamed name', [option('cwd_arg')], [arg('cwd')], {}, ['cwd_arg', 'cwd_arg2']],
    ['a flag named extra_args', [option('extra_args')], [], {strict: false}, ['extra_args', 'extra_args_rest']],
    // Names some hosts refuse (Claude Code drops the whole tool): heroku's `service:plan`, zapier's `key-value pairs...`.
    ['args named with characters hosts refuse', [], [arg('service:plan'), arg('key-value pairs...'), arg('DATABASE|REPORT_ID')], {}, ['service_plan', 'key-value_pairs...', 'DATABASE_REPORT_ID']],
    ['an arg whose safe name another takes', [option('a_b')], [arg('a:b')], {}, ['a_b', 'a_b_arg']],
  ])('%s', (_, flags, args, fields, properties) => {
    const {json, params} = build(command(flags, args, fields))
    expect(params.map((p) => p.property)).toEqual(properties)
    expect(Object.keys(json.properties)).toEqual([...properties, 'cwd'])
    expect(json.properties.cwd).toEqual({description: 'Working directory', type: 'string'})
  })

  it('keeps the flag name for the command line when the property is renamed', () => {
    expect(build(command([option('cwd')])).params[0]).toMatchObject({name: 'cwd', property: 'cwd_flag'})
    expect(build(command([], [arg('service:plan')])).params[0]).toMatchObject({name: 'service:plan', property: 'service_plan'})
  })
})

describe('the object schema', () => {
  const cmd = command([option('title'), option('tag', {multiple: true}), option('limit', {default: 5})], [arg('file')], {strict: false})

  it('is a closed object without top-level combinators', () => {
    const {json} = build(cmd)
    expect(json.type).toBe('object')
    expect(json.additionalProperties).toBe(false)
    for (const key of ['oneOf', 'anyOf', 'allOf', 'not']) expect(json).not.toHaveProperty(key)
  })

  it.each([
    ['an unknown key', {nope: 1}],
    ['a misspelt flag', {titel: 'x'}],
  ])('rejects %s', (_, input) => {
    expect(build(cmd).schema.safeParse(input).success).toBe(false)
  })

  it.each([
    ['a flag', {title: 'a\u0000b'}],
    ['a multiple flag', {tag: ['ok', '\u0000']}],
    ['an arg', {file: 'x\u0000'}],
    ['extra_args', {extra_args: ['\u0000']}],
  ])('rejects NUL characters in %s', (_, input) => {
    const result = build(cmd).schema.safeParse(input)
    expect(result.success).toBe(false)
    expect(JSON.stringify(result.error?.issues)).toContain('NUL')
  })

  it.each([
    ['a lone high surrogate in a flag', {title: 'a\ud800b'}],
    ['a lone low surrogate in an arg', {file: '\udc00'}],
    ['a reversed pair in a multiple flag', {tag: ['\udc00\ud800']}],
    ['a high surrogate at the end of extra_args', {extra_args: ['x\ud83d']}],
  ])('rejects %s', (_, input) => {
    const result = build(cmd).schema.safeParse(input)
    expect(result.success).toBe(false)
    expect(JSON.stringify(result.error?.issues)).toContain('unpaired surrogates')
  })

  it('accepts awkward but legal text unchanged', () => {
    const input = {file: '--not-a-flag \u{1F600}', tag: ['a=b', 'x y', '\ud83d\ude00'], title: '$(rm -rf /)\n"q"'}
    expect(build(cmd).schema.parse(input)).toEqual(input)
  })
})

describe('what has no faithful schema', () => {
  const options: SchemaOptions = {commonFlags: new Set(), omitFlags: new Set(), secretFlags: new Set(), serverShape: {cwd}}

  it.each([
    ['a flag type with no JSON Schema form', command([{name: 'when', type: 'custom'} as unknown as Command.Flag.Cached]), /--when has type "custom"/],
    ['flag options that are not strings', command([option('level', {options: [1, 2]})]), /--level has options that are not a list of strings/],
    ['an empty options list on an arg', command([], [arg('file', {options: []})]), /argument file has options/],
  ])('is refused when the tool is described, before any schema is built: %s', (_what, cmd, message) => {
    expect(() => buildToolInput(cmd, options)).toThrow(SchemaError)
    expect(() => buildToolInput(cmd, options)).toThrow(message)
  })

  it('a hidden or omitted flag is not checked: it is never part of the tool', () => {
    const odd = {name: 'when', type: 'custom'}
    expect(() => buildToolInput(command([{...odd, hidden: true} as unknown as Command.Flag.Cached]), options)).not.toThrow()
    expect(() => buildToolInput(command([odd as unknown as Command.Flag.Cached]), {...options, omitFlags: new Set(['when'])})).not.toThrow()
  })

  it('builds the schema once, on first use', () => {
    const input = buildToolInput(command([option('title')]), options)
    expect(input.schema).toBe(input.schema)
    expect(Object.keys(input.schema.shape)).toEqual(['title', 'cwd'])
  })
})

describe('toJsonSchema', () => {
  it.each([['draft-2020-12' as const], ['draft-07' as const]])('drops the safe-integer bounds (%s)', (target) => {
    const json = toJsonSchema(z.object({n: z.number().int(), m: z.number().int().min(1).max(9)}), target)
    const properties = json.properties as Record<string, unknown>
    expect(properties.n).toEqual({type: 'integer'})
    expect(properties.m).toEqual({maximum: 9, minimum: 1, type: 'integer'})
  })

  it('names the target dialect', () => {
    expect(toJsonSchema(z.object({}), 'draft-07').$schema).toBe('http://json-schema.org/draft-07/schema#')
    expect(toJsonSchema(z.object({})).$schema).toBe('https://json-schema.org/draft/2020-12/schema')
  })
})
