import {describe, expect, it} from '@jest/globals'

import {isSecretName, REDACTED, redactor, secretEnvValues} from '../../src/tools/secrets.js'

describe('isSecretName', () => {
  it.each([
    ['token', true],
    ['api-key', true],
    ['apiKey', true],
    ['HEROKU_API_KEY', true],
    ['GITHUB_TOKEN', true],
    ['client-secret', true],
    ['clientSecret', true],
    ['password', true],
    ['db-passwd', true],
    ['private-key-file', true],
    ['AWS_SECRET_ACCESS_KEY', true],
    ['keyboard', false],
    ['monkey', false],
    ['tokenizer', false],
    ['name', false],
    ['PATH', false],
    ['target-org', false],
  ])('%s → %s', (name, secret) => {
    expect(isSecretName(name)).toBe(secret)
  })
})

describe('redactor', () => {
  it('replaces every occurrence at any depth, longest secrets first, and leaves other values alone', () => {
    const redact = redactor(['s3cr3t-token', 's3cr3t', 'no'])
    const value = {argv: ['--token=s3cr3t-token'], list: [{deep: 'a s3cr3t b'}], n: 3, ok: true, text: 'nothing here, no'}
    expect(redact(value)).toEqual({argv: [`--token=${REDACTED}`], list: [{deep: `a ${REDACTED} b`}], n: 3, ok: true, text: 'nothing here, no'})
    expect(redact('s3cr3t-tokens')).toBe(`${REDACTED}s`)
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
