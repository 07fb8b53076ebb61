import {describe, expect, it} from '@jest/globals'

import {isSecretName} from '../../../src/tools/catalog/secret-names.js'

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
