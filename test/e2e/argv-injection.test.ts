// Argument injection, property-based, through the real server (`faulty mcp stdio`, official client) and the
// faulty-cli `echo` command, which prints as JSON exactly the flags and args oclif parsed. Whatever a string holds —
// a leading `-`, `=`, `--`, newlines, quotes, shell metacharacters, unicode — it must reach the command as exactly
// that value, and never change which flags the command receives. Each run is one call (one process) carrying
// several values at once, so the run count stays modest: ARGV_RUNS (default 40).
import {afterAll, beforeAll, describe, expect, it} from '@jest/globals'
import fc from 'fast-check'
import {join} from 'node:path'

import {connectTaskbox, type Connected, FAULTY_BIN, scratch, taskboxEnv, textOf} from '../helpers/taskbox.js'

const RUNS = Number(process.env.ARGV_RUNS ?? 40)

interface EchoInput {
  first?: string
  force: boolean
  item?: string[]
  second?: string
  value?: string
}

interface Parsed {
  args: {first?: string; second?: string}
  argv: string[]
  flags: Record<string, unknown>
}

const PIECES = [
  '-', '--', '---', '-x', '-h', '--help', '--force', '--no-force', '--json', '--version', '--value', '--value=x', '--item', '--item=y',
  '=', 'a=b', '--=', '=--', '$(id)', '`id`', '${HOME}', '; rm -rf /', '| cat', '&&', '||', '>', '<', '*', '?', '~', '!', '#',
  '"', "'", '\\', '\\"', '\n', '\r\n', '\r', '\t', ' ', '%s', '%n', 'é', '🙂', '\u202e', '\u200b', '\ufeff', '\u2028', 'ß', 'İ', '日本',
]

/** A string no shell or parser should get wrong: pieces of syntax glued together, or any code points (no NUL). */
const nasty = fc.oneof(
  fc.constantFrom(...PIECES),
  fc.array(fc.oneof(fc.constantFrom(...PIECES), fc.string({maxLength: 6})), {maxLength: 6, minLength: 1}).map((parts) => parts.join('')),
  fc.string({unit: 'binary', maxLength: 30}).filter((s) => !s.includes('\u0000')),
)

const inputs: fc.Arbitrary<EchoInput> = fc
  .record({
    first: fc.option(nasty, {nil: undefined}),
    force: fc.boolean(),
    item: fc.option(fc.array(nasty, {maxLength: 4, minLength: 1}), {nil: undefined}),
    second: fc.option(nasty, {nil: undefined}),
    value: fc.option(nasty, {nil: undefined}),
  })
  // A later positional needs the earlier one (the server refuses the call otherwise).
  .map((input) => (input.first === undefined ? {...input, second: undefined} : input))

/**
 * oclif's parser takes `--value=X`, with X exactly the name of one of the command's flags (`--force`), as a missing
 * value and fails with "Flag --value expects a value" (@oclif/core parser/parse.js, parseFlag); the server cannot pass
 * such a value to an oclif command at all, and refuses it before anything runs (src/tools/execution/argv.ts).
 */
const FLAG_TOKENS = new Set(['--value', '--item', '--force', '--json'])

/** Drops keys whose value is undefined, so `{a: undefined}` and `{}` compare equal. */
function defined<T extends object>(object: T): Partial<T> {
  return Object.fromEntries(Object.entries(object).filter(([, v]) => v !== undefined)) as Partial<T>
}

describe('argument injection through mcp stdio into a real command', () => {
  const space = scratch('mcp-argv-')
  let server: Connected
  let calls = 0

  const echo = async (input: Record<string, unknown>) =>
    (await server.client.callTool({arguments: {cwd: space.dir, ...input}, name: 'echo'}, {timeout: 60_000})) as {
      content: unknown
      isError?: boolean
      structuredContent?: {argv: string[]; data: Parsed}
    }

  beforeAll(async () => {
    server = await connectTaskbox({bin: FAULTY_BIN, cwd: space.dir, env: taskboxEnv(join(space.dir, 'home')), era: 'legacy'})
  })

  afterAll(async () => {
    try {
      await server?.close()
    } finally {
      space.cleanup()
      process.stderr.write(`argv-injection: ${calls} calls, ${RUNS} property runs\n`)
    }
  })

  it('every value reaches the command exactly, and the flags it receives are exactly the ones given', async () => {
    await fc.assert(
      fc.asyncProperty(inputs, async (input) => {
        calls++
        const result = await echo(defined(input))
        if ([input.value, ...(input.item ?? [])].some((v) => v !== undefined && FLAG_TOKENS.has(v))) {
          // oclif would refuse a flag value that is exactly one of the command's flags: the server says so first.
          expect(result.isError).toBe(true)
          expect(textOf(result)).toMatch(/Flag --(value|item) expects a value/)
          return
        }

        expect(result.isError).toBeFalsy()
        const parsed = result.structuredContent!.data
        expect(defined(parsed.args)).toEqual(defined({first: input.first, second: input.second}))
        expect(parsed.flags).toEqual(defined({force: input.force || undefined, item: input.item, json: true, value: input.value}))
        // What the server said it ran is what the command received.
        expect(parsed.argv).toEqual(result.structuredContent!.argv)
      }),
      {numRuns: RUNS},
    )
  }, 60_000 + RUNS * 10_000)

  /** The call is refused with an error that names the argument and says why; nothing runs (no structured result). */
  const expectRefused = async (input: Record<string, unknown>, field: string, why: string) => {
    calls++
    const result = await echo(input)
    expect(result.isError).toBe(true)
    expect(result.structuredContent).toBeUndefined()
    expect(textOf(result)).toContain(field)
    expect(textOf(result)).toContain(why)
  }

  it.each([
    ['a flag value', {value: 'a\u0000b'}, 'value'],
    ['an item of a multiple flag', {item: ['ok', '\u0000']}, 'item'],
    ['a positional', {first: 'x\u0000'}, 'first'],
  ])('refuses NUL in %s with a clear error, and runs nothing', (_where, input, field) => expectRefused(input, field, 'must not contain NUL characters'))

  // An unpaired UTF-16 surrogate cannot be encoded in a process's argv (UTF-8): Node replaces it with U+FFFD, so the
  // command would get another value than the one given. Like NUL, it must be refused, not silently changed.
  it.each([
    ['a flag value', {value: 'a\ud800b'}, 'value'],
    ['a positional', {first: '\udc00'}, 'first'],
  ])('refuses an unpaired surrogate in %s instead of passing U+FFFD', (_where, input, field) => expectRefused(input, field, 'unpaired surrogates'))

  it('a value cannot smuggle in another flag, whatever its shape', async () => {
    calls++
    const value = '--force --item=x -- --value=y'
    const result = await echo({first: '--force', item: ['--force=true', '--json=false', '--value=--force'], second: '--value=z', value})
    expect(result.structuredContent!.data.flags).toEqual({item: ['--force=true', '--json=false', '--value=--force'], json: true, value})
    expect(result.structuredContent!.data.args).toEqual({first: '--force', second: '--value=z'})
  })

  it.each([['--force'], ['--json'], ['--item']])('a flag value that is exactly a flag name (%s) is refused before it runs, saying why', async (value) => {
    calls++
    const result = await echo({value})
    expect(result.isError).toBe(true)
    expect(result.structuredContent).toBeUndefined()
    expect(textOf(result)).toContain('Flag --value expects a value')
    expect(textOf(result)).toContain('Nothing was run')
  })
})
