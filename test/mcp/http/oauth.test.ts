// The OAuth settings and the issuer's discovery (src/mcp/http/oauth.ts): what is refused before the server listens,
// and how the issuer's metadata is found (RFC 8414, then OpenID Connect) and checked, against real loopback servers.
import {afterAll, describe, expect, it} from '@jest/globals'
import {createServer, type Server} from 'node:http'
import {type AddressInfo} from 'node:net'

import {accessOf, DEFAULT_SCOPES, discoverIssuer, OAuthSetupError, resolveOAuth} from '../../../src/mcp/http/oauth.js'

describe('resolveOAuth', () => {
  const audience = 'https://mcp.example.com/mcp'

  it('is off without an issuer, and on with an issuer and an audience, flags over the author', () => {
    expect(resolveOAuth(undefined, {})).toBeUndefined()
    const options = resolveOAuth({audience: 'https://a.example/mcp', issuer: 'https://idp.example', scopes: {read: 'r'}}, {audience})!
    expect(options.issuer).toBe('https://idp.example')
    expect(options.audience.href).toBe(audience)
    expect(options.scopes).toEqual({read: 'r', write: DEFAULT_SCOPES.write})
    expect(options.algorithms).not.toContain('HS256')
    expect(options.algorithms).not.toContain('none')
  })

  it.each([
    [{issuer: 'https://idp.example'}, '--auth-issuer needs --auth-audience'],
    [{audience}, '--auth-audience needs --auth-issuer'],
    [{audience, issuer: 'http://idp.example'}, 'must be an https:// URL'],
    [{audience: 'http://mcp.example.com/mcp', issuer: 'https://idp.example'}, 'The audience must be an https:// URL'],
    [{audience: 'not a url', issuer: 'https://idp.example'}, 'The audience is not a URL'],
    [{audience, issuer: 'https://idp.example?x=1'}, 'no query string or fragment'],
    [{audience, issuer: 'https://idp.example', readScope: 'same', writeScope: 'same'}, 'must differ'],
    [{audience, issuer: 'https://idp.example', readScope: 'two words'}, 'is not a scope name'],
  ])('refuses %j, saying what is wrong', (flags, message) => {
    expect(() => resolveOAuth(undefined, flags)).toThrow(OAuthSetupError)
    expect(() => resolveOAuth(undefined, flags)).toThrow(message)
  })

  it.each(['https://ops:s3cret-pw@idp.example', 'https://ops:s3cret-pw@idp.example/%zz bad', 'ops:s3cret-pw@idp.example'])('refuses an issuer %s holding a user name or password, without repeating them', (issuer) => {
    const refused = (() => {
      try {
        resolveOAuth(undefined, {audience, issuer})
      } catch (error) {
        return error as Error
      }
    })()
    expect(refused).toBeInstanceOf(OAuthSetupError)
    expect(refused!.message).not.toMatch(/s3cret|ops/)
  })

  it('takes plain http on loopback (a local issuer or a test)', () => {
    expect(resolveOAuth(undefined, {audience: 'http://127.0.0.1:5757/mcp', issuer: 'http://localhost:9000'})?.audience.host).toBe('127.0.0.1:5757')
  })
})

describe('accessOf', () => {
  const info = (scopes: string[]) => ({clientId: 'c', scopes, token: 't'})
  it('gives everything to the write scope, read-only to the read scope, nothing otherwise', () => {
    expect(accessOf(info(['mcp:write']), DEFAULT_SCOPES)).toBe('full')
    expect(accessOf(info(['mcp:read', 'mcp:write']), DEFAULT_SCOPES)).toBe('full')
    expect(accessOf(info(['mcp:read']), DEFAULT_SCOPES)).toBe('read')
    expect(accessOf(info(['profile']), DEFAULT_SCOPES)).toBeUndefined()
    expect(accessOf(undefined, DEFAULT_SCOPES)).toBeUndefined()
  })
})

describe('discoverIssuer', () => {
  const servers: Server[] = []
  afterAll(() => Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve)))))

  /** A loopback server answering the given paths with JSON (a function gets the server's base URL). */
  async function serve(paths: Partial<Record<string, (base: string) => unknown>>): Promise<string> {
    let base = ''
    const server = createServer((req, res) => {
      const answer = paths[req.url ?? '']
      res.writeHead(answer ? 200 : 404, {'Content-Type': 'application/json'})
      res.end(JSON.stringify(answer ? answer(base) : {error: 'not found'}))
    })
    servers.push(server)
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    return base
  }

  it("reads RFC 8414's path-aware document for an issuer with a path", async () => {
    const base = await serve({'/.well-known/oauth-authorization-server/tenant': (b) => ({issuer: `${b}/tenant`, jwks_uri: `${b}/keys`})})
    const found = await discoverIssuer(`${base}/tenant`)
    expect(found.jwksUri.href).toBe(`${base}/keys`)
  })

  it("falls back to OpenID Connect's document", async () => {
    const base = await serve({'/.well-known/openid-configuration': (b) => ({issuer: b, jwks_uri: `${b}/jwks`})})
    expect((await discoverIssuer(base)).metadata.issuer).toBe(base)
  })

  it('refuses metadata that names another issuer, or has no keys, saying what each place answered', async () => {
    const base = await serve({
      '/.well-known/oauth-authorization-server': () => ({issuer: 'https://someone-else.example', jwks_uri: 'https://someone-else.example/jwks'}),
      '/.well-known/openid-configuration': (b) => ({issuer: b}),
    })
    const refused = discoverIssuer(base)
    await expect(refused).rejects.toThrow(OAuthSetupError)
    await expect(discoverIssuer(base)).rejects.toThrow(/names the issuer "https:\/\/someone-else.example"[\s\S]*has no jwks_uri/)
  })

  it('refuses an issuer nobody answers for', async () => {
    const base = await serve({})
    await expect(discoverIssuer(base)).rejects.toThrow(/HTTP 404[\s\S]*HTTP 404/)
  })
})
