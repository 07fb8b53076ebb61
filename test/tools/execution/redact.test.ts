import {describe, expect, it} from '@jest/globals'

import {REDACTED, redactor, secretEnvValues} from '../../../src/tools/execution/redact.js'

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

  it('is the identity when there is nothing to hide', () => {
    const value = {a: 'b'}
    expect(redactor([])(value)).toBe(value)
  })
})

describe('secretEnvValues', () => {
  it('takes the values of secret-named variables only', () => {
    expect(secretEnvValues({GITHUB_TOKEN: 'ghp_x', HOME: '/root', MY_API_KEY: 'k-1', PATH: '/bin', UNSET_TOKEN: undefined}).sort()).toEqual(['ghp_x', 'k-1'])
  })
})
