import {describe, expect, it} from '@jest/globals'

import {allowedHostnames, checkBearer, checkBind, checkHost, checkOrigin, isLoopbackHost} from '../../../src/mcp/http/guards.js'

describe('isLoopbackHost', () => {
  it.each([
    ['127.0.0.1', true],
    ['127.8.9.10', true],
    ['localhost', true],
    ['LOCALHOST', true],
    ['::1', true],
    ['[::1]', true],
    ['0.0.0.0', false],
    ['::', false],
    ['192.168.1.10', false],
    ['10.0.0.1', false],
    ['example.com', false],
    ['127.0.0.1.example.com', false],
  ])('%s → %s', (host, loopback) => {
    expect(isLoopbackHost(host)).toBe(loopback)
  })
})

describe('checkBind', () => {
  it.each([
    ['127.0.0.1', false, undefined, true, undefined],
    ['::1', false, undefined, true, undefined],
    ['0.0.0.0', false, undefined, false, 'REMOTE_BIND_REFUSED'],
    ['0.0.0.0', false, 'tok', false, 'REMOTE_BIND_REFUSED'],
    ['0.0.0.0', true, undefined, false, 'TOKEN_REQUIRED'],
    ['0.0.0.0', true, '', false, 'TOKEN_REQUIRED'],
    ['0.0.0.0', true, 'tok', true, undefined],
    ['192.168.1.10', true, 'tok', true, undefined],
    // OAuth (--auth-issuer) counts as authentication.
    ['0.0.0.0', true, true, true, undefined],
    ['0.0.0.0', false, true, false, 'REMOTE_BIND_REFUSED'],
  ] as const)('%s allowRemote=%s token=%s → ok=%s', (host, allowRemote, token, ok, code) => {
    const result = checkBind(host, allowRemote, token)
    expect(result.ok).toBe(ok)
    if (!result.ok) expect(result.code).toBe(code)
  })
})

describe('allowedHostnames', () => {
  it('always allows loopback, adds a specific bind address and the extras, never a wildcard', () => {
    expect(allowedHostnames('127.0.0.1', [])).toEqual(expect.arrayContaining(['localhost', '127.0.0.1', '[::1]']))
    expect(allowedHostnames('192.168.1.10', ['Build.Local'])).toEqual(expect.arrayContaining(['192.168.1.10', 'build.local']))
    expect(allowedHostnames('fe80::1', [])).toContain('[fe80::1]')
    expect(allowedHostnames('0.0.0.0', [])).not.toContain('0.0.0.0')
    expect(allowedHostnames('::', [])).not.toContain('[::]')
  })
})

describe('checkHost and checkOrigin', () => {
  const hosts = allowedHostnames('127.0.0.1', ['devbox.local'])
  it.each([
    ['127.0.0.1:5757', true],
    ['localhost', true],
    ['[::1]:80', true],
    ['devbox.local:5757', true],
    ['evil.example', false],
    ['127.0.0.1.evil.example', false],
    [undefined, false],
  ])('Host %s → ok=%s', (header, ok) => {
    const result = checkHost(header, hosts)
    expect(result.ok).toBe(ok)
    if (!result.ok) expect(result).toMatchObject({code: 'HOST_NOT_ALLOWED', status: 403})
  })

  it.each(['evil.com@localhost', 'localhost/path', 'local host', 'localhost:57a7', 'user:pass@127.0.0.1:5757', 'localhost#x', ''])('a malformed Host %p → 400', (header) => {
    expect(checkHost(header, hosts)).toMatchObject({code: 'HOST_MALFORMED', ok: false, status: 400})
  })

  it.each([
    [undefined, true],
    ['http://localhost:3000', true],
    ['http://127.0.0.1', true],
    ['https://app.example', true],
    ['https://evil.example', false],
    ['null', false],
  ])('Origin %s → ok=%s', (header, ok) => {
    const result = checkOrigin(header, ['localhost', '127.0.0.1', '[::1]', 'app.example'])
    expect(result.ok).toBe(ok)
    if (!result.ok) expect(result).toMatchObject({code: 'ORIGIN_NOT_ALLOWED', status: 403})
  })
})

describe('checkBearer', () => {
  it.each([
    [undefined, undefined, true, undefined],
    ['Bearer anything', undefined, true, undefined],
    ['Bearer s3cret', 's3cret', true, undefined],
    ['bearer   s3cret', 's3cret', true, undefined],
    [undefined, 's3cret', false, 'TOKEN_REQUIRED'],
    ['Basic czNjcmV0', 's3cret', false, 'TOKEN_REQUIRED'],
    ['Bearer s3cre', 's3cret', false, 'TOKEN_INVALID'],
    ['Bearer s3cret-and-more', 's3cret', false, 'TOKEN_INVALID'],
  ])('%s with token %s → ok=%s', (header, token, ok, code) => {
    const result = checkBearer(header, token, 'acme mcp')
    expect(result.ok).toBe(ok)
    if (!result.ok) {
      expect(result).toMatchObject({code, status: 401})
      expect(result.headers?.['WWW-Authenticate']).toMatch(/^Bearer realm="acme mcp"/)
      expect(result.message).not.toContain('s3cret')
    }
  })
})
