import {describe, expect, it} from '@jest/globals'
import fc from 'fast-check'

import {REDACTED, redactor, redactSecretFields, secretEnvValues, secretForms} from '../../../src/tools/execution/redact.js'

describe('redactor', () => {
  it('replaces every occurrence at any depth, longest secrets first, and leaves other values alone', () => {
    const redact = redactor(['s3cr3t-token', 's3cr3t', 'no'])
    const value = {argv: ['--token=s3cr3t-token'], list: [{deep: 'a s3cr3t b'}], n: 3, ok: true, text: 'nothing here, no'}
    expect(redact(value)).toEqual({argv: [`--token=${REDACTED}`], list: [{deep: `a ${REDACTED} b`}], n: 3, ok: true, text: 'nothing here, no'})
    expect(redact('s3cr3t-tokens')).toBe(`${REDACTED}s`)
  })

  it('replaces the forms quoting and serialising give a secret, and secrets used as keys', () => {
    const secret = 'Quo"teTok\\1234 é'
    const redact = redactor([secret])
    const escaped = JSON.stringify(secret).slice(1, -1)
    expect(redact(`--token=${JSON.stringify(secret)}`)).toBe(`--token="${REDACTED}"`)
    expect(redact(JSON.stringify({note: JSON.stringify({token: secret})}))).not.toContain('Quo')
    expect(redact({[secret]: 'v', [`x${escaped}`]: 'w'})).toEqual({[REDACTED]: 'v', [`x${REDACTED}`]: 'w'})
    // Python's json.dumps escapes non-ASCII: the secret arrives as Quo\"teTok\\1234 \u00e9.
    expect(redact(escaped.replace('é', String.raw`\u00e9`))).toBe(REDACTED)
    expect(redact(`'${secret}'`)).toBe(`'${REDACTED}'`)
    expect(redact(encodeURIComponent(secret))).toBe(REDACTED)
  })

  it('hides each line of a secret of several lines', () => {
    const redact = redactor(['-----BEGIN KEY-----\nAAAABBBBCCCC\n-----END KEY-----'])
    expect(redact('line: AAAABBBBCCCC')).toBe(`line: ${REDACTED}`)
  })

  it('changes nothing when there is nothing to hide', () => {
    const value = {a: 'b', list: ['c', {d: 1}]}
    expect(redactor([])(value)).toEqual(value)
    expect(redactor([])('plain text')).toBe('plain text')
  })
})

const base64 = (text: string | Uint8Array) => Buffer.from(text).toString('base64')

/**
 * Whether the secret can still be read back from the base64 left visible: some run of `text` between redactions,
 * its base64 characters decoded from each of the 4 character offsets, holds the secret's bytes.
 */
function decodesTo(text: string, secret: string): boolean {
  const bytes = Buffer.from(secret)
  return text.split(REDACTED).some((run) => {
    const chars = run.replaceAll(/[^\w+/-]/g, '')
    return [0, 1, 2, 3].some((offset) => Buffer.from(chars.slice(offset), 'base64').includes(bytes))
  })
}

describe('redactor: a secret in base64 after a prefix', () => {
  // Secrets of 5 bytes or more (a 4-byte one is hidden at alignment 0 only: see the next test), ASCII or not.
  const secrets = fc
    .oneof(fc.string({maxLength: 200, minLength: 4, unit: 'grapheme-ascii'}), fc.string({maxLength: 200, minLength: 4, unit: 'grapheme'}))
    .filter((secret) => Buffer.byteLength(secret) >= 5)
  const bytes = fc.uint8Array({maxLength: 5})

  it('hides it at every byte alignment, base64 and base64url, padded or not: no form left, nothing decodes back to it', () => {
    fc.assert(
      fc.property(secrets, bytes, bytes, fc.boolean(), fc.boolean(), (secret, prefix, suffix, url, padded) => {
        const encoded = Buffer.concat([prefix, Buffer.from(secret), suffix]).toString(url ? 'base64url' : 'base64')
        const text = `Authorization: Basic ${padded ? encoded.padEnd(Math.ceil(encoded.length / 4) * 4, '=') : encoded}`
        // The check can see the secret: it decodes back from the text as sent.
        expect(decodesTo(text, secret)).toBe(true)
        const redacted = redactor([secret])(text)
        expect(secretForms(secret).filter((form) => redacted.includes(form))).toEqual([])
        expect(decodesTo(redacted, secret)).toBe(false)
      }),
      {numRuns: 300},
    )
  })

  it('hides a token in Basic auth and in a docker config\'s auths', () => {
    const token = 'ghp_16C7e42F292c6912E7710c838347Ae178B4a'
    const redact = redactor([token])
    expect(decodesTo(redact(`Authorization: Basic ${base64(`octocat:${token}`)}`), token)).toBe(false)
    const docker = JSON.stringify({auths: {'ghcr.io': {auth: base64(`octocat:${token}`)}, 'registry.example.com': {auth: base64(`ci-bot:${token}`)}}}, null, 2)
    const redacted = redact(docker)
    expect(redacted.match(/\[REDACTED]/g)).toHaveLength(2)
    expect(decodesTo(redacted, token)).toBe(false)
  })

  it('hides a 4-byte secret only where its base64 starts a group of 3 bytes: its other cores are too short to replace', () => {
    const redact = redactor(['pa55'])
    expect(redact(`Basic ${base64('pa55')}`)).toBe(`Basic ${REDACTED}==`)
    // After 2 bytes only 5 characters depend on the secret alone: fewer than the 6 a part of base64 needs to be replaced.
    expect(redact(`Basic ${base64('u:pa55')}`)).toBe(`Basic ${base64('u:pa55')}`)
  })
})

describe('redactor: a secret wrapped across lines', () => {
  /** `token` cut into lines of `width` characters. */
  const chunks = (token: string, width: number) => token.match(new RegExp(`.{1,${width}}`, 'g'))!

  /**
   * `token` as a renderer shows it when it wraps it at `width`: plain lines (after a label), or in a box-drawing
   * table whose last or middle column holds it; each piece shown as `show` makes it (the expected output redacted).
   */
  function render(layout: string, token: string, width: number, show = (piece: string) => piece): string {
    const pieces = chunks(token, width)
    if (layout === 'plain') return pieces.map((piece, i) => `${i === 0 ? 'export TOKEN=' : ''}${show(piece)}`).join('\n')
    const middle = layout === 'middle'
    const rule = (left: string, cross: string, right: string) => `${left}${'─'.repeat(6)}${cross}${'─'.repeat(width + 2)}${middle ? `${cross}${'─'.repeat(8)}` : ''}${right}`
    const row = (name: string, value: string, note: string) => `│ ${name.padEnd(4)} │ ${value} │${middle ? ` ${note.padEnd(6)} │` : ''}`
    const cell = (piece: string) => `${show(piece)}${' '.repeat(width - piece.length)}`
    const rows = pieces.map((piece, i) => row(i === 0 ? 'gh' : '', cell(piece), i === 0 ? 'admin' : ''))
    return [rule('┌', '┬', '┐'), row('name', 'value'.padEnd(width).slice(0, width), 'note'), rule('├', '┼', '┤'), ...rows, rule('└', '┴', '┘')].join('\n')
  }

  it('hides every piece, however long, of a token wrapped in lines, in a table\'s last or middle column', () => {
    const tokens = fc.tuple(fc.stringMatching(/^[A-Za-z0-9]{4}$/), fc.stringMatching(/^[\w-]{12,116}$/)).map(([head, tail]) => `${head}_${tail}`)
    fc.assert(
      fc.property(tokens, fc.integer({max: 40, min: 5}), fc.constantFrom('plain', 'last', 'middle'), (token, width, layout) => {
        fc.pre(token.length > width)
        expect(redactor([token])(render(layout, token, width))).toBe(render(layout, token, width, () => REDACTED))
      }),
      {numRuns: 300},
    )
  })

  it('hides a 60-character token printed as two lines of 30, and base64 wrapped at 76 columns', () => {
    const token = 'sk_live_51HxYzAbCdEfGhIjKlMnOpQrStUvWxYz0123456789AbCdEfGhIj'
    const redact = redactor([token])
    expect(redact(`token:\n  ${token.slice(0, 30)}\n  ${token.slice(30)}\ndone`)).toBe(`token:\n  ${REDACTED}\n  ${REDACTED}\ndone`)
    const mime = base64(`Authorization: Basic user:${token}:and some more bytes after it`).match(/.{1,76}/g)!.join('\r\n')
    expect(decodesTo(redact(mime).replaceAll(/\s/g, ''), token)).toBe(false)
  })

  it('changes no ordinary text, table or prose, and leaves short values alone', () => {
    const text = [
      '┌────────┬──────────────────────┐',
      '│ name   │ description          │',
      '├────────┼──────────────────────┤',
      '│ deploy │ Deploys the app to a │',
      '│        │ target environment   │',
      '└────────┴──────────────────────┘',
      'The quick brown fox | jumps over the',
      'lazy dog. 12',
      '34 passwords were let',
      'mein.',
    ].join('\n')
    expect(redactor(['tok_9f8e7d6c5b4a', 'ghp_16C7e42F292c6912E7710c838347Ae178B4a'])(text)).toBe(text)
    // Under 4 characters a value is never replaced, under 8 it is not looked for across lines ("let" / "mein").
    expect(redactor(['the', '1234', 'letmein'])(text)).toBe(text)
    fc.assert(
      fc.property(fc.array(fc.stringMatching(/^[a-z ]{0,60}$/), {maxLength: 30}), fc.stringMatching(/^[A-Za-z0-9]{12,60}$/), (lines, secret) => {
        const prose = lines.join('\n')
        expect(redactor([`tok_${secret}`])(prose)).toBe(prose)
      }),
    )
  })
})

describe('secretEnvValues', () => {
  it('takes the values of secret-named variables only', () => {
    expect(secretEnvValues({GITHUB_TOKEN: 'ghp_x', HOME: '/root', MY_API_KEY: 'k-1', PATH: '/bin', UNSET_TOKEN: undefined}).sort()).toEqual(['ghp_x', 'k-1'])
  })
  it('keeps the directories the shell names PWD and OLDPWD (a host may set them to the project)', () => {
    expect(secretEnvValues({MY_PWD_SECRET: 's-1', OLDPWD: '/srv/old', PWD: '/srv/app'})).toEqual(['s-1'])
  })

})

describe('redactSecretFields: credentials a command prints from its own store', () => {
  it.each([
    // @vonage/cli 1.2 `config`, prism `me:token`, in the forms commands print
    ['{\n  "apiKey": "a1b2c3d4",\n  "apiSecret": "Zx9yW8vU7t",\n  "region": "eu"\n}', '{\n  "apiKey": "[REDACTED]",\n  "apiSecret": "[REDACTED]",\n  "region": "eu"\n}'],
    ['{"access_token":"eyJhbGciOi.x.y","token_type":"Bearer","expires_in":3600}', '{"access_token":"[REDACTED]","token_type":"[REDACTED]","expires_in":3600}'],
    ['apiKey: a1b2c3d4\napiSecret: Zx9yW8vU7t\nregion: eu', 'apiKey: [REDACTED]\napiSecret: [REDACTED]\nregion: eu'],
    ['DATABASE_PASSWORD=hunter2hunter\nPORT=5432', 'DATABASE_PASSWORD=[REDACTED]\nPORT=5432'],
    ['  - client_secret: "abc123xyz"', '  - client_secret: [REDACTED]'],
    ['Name     Token            Expires\nci-bot   ghp_abcdef123456  2027-01-01\nme       ghp_zyx987654321  never', 'Name     Token            Expires\nci-bot   [REDACTED]  2027-01-01\nme       [REDACTED]  never'],
  ])('%p', (printed, shown) => {
    expect(redactSecretFields(printed)).toBe(shown)
  })

  it.each([
    '{"key": "tasks:add", "private": true, "hasPassword": false, "token": null}',
    'key: tasks:add\nprivate: yes',
    'Tokens used: 42 of 100',
    'Name   Key        Value\napp    max-size   10',
  ])('leaves alone %p', (printed) => {
    expect(redactSecretFields(printed)).toBe(printed)
  })

  it('in a JSON-like value too, under a secret-named key, whatever the secrets named to the server', () => {
    expect(redactor([])({data: {apiSecret: 'Zx9yW8vU7t', items: [{password: 'p4ssw0rd!', user: 'ann'}]}})).toEqual({data: {apiSecret: REDACTED, items: [{password: REDACTED, user: 'ann'}]}})
  })
})
