import {describe, expect, it} from '@jest/globals'

import {isSecretName, SECRET_TEXT} from '../../../src/tools/catalog/secret-names.js'

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
    // anypoint-cli-v4 and @vonage/cli spellings
    ['client_secret', true],
    ['apiSecret', true],
    ['bearer', true],
    ['accesstoken', true],
    ['ACCESSTOKEN', true],
    ['signingKey', true],
    ['client_id', false],
    ['username', false],
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

describe('SECRET_TEXT', () => {
  it.each([
    ['Bearer token', true],
    ['The password to log in with.', true],
    ['Your API secret.', true],
    ['Client secret of the connected app', true],
    ['Token to authenticate with.', true],
    ['Stored credentials to use', true],
    ['Token type to request', false],
    ['The key of the setting to show', false],
    ['Number of tokens in the reply', false],
    ['Secret name to look up in the vault list', false],
  ])('%s → %s', (text, secret) => {
    expect(SECRET_TEXT.test(text)).toBe(secret)
  })
})
