// What the server reads from an OAuth issuer (src/mcp/http/issuer-keys.ts), against a real loopback issuer: a key
// set or metadata document larger than the cap is refused while it arrives (the issuer sees the connection closed
// long before it has sent it all), and a key set that cannot be fetched is fetched again at most once per cooldown,
// however many tokens come meanwhile (the clock is the test's own, so nothing waits).
import {afterAll, beforeAll, describe, expect, it} from '@jest/globals'
import {exportJWK, generateKeyPair, SignJWT} from 'jose'
import {createServer, type Server, type ServerResponse} from 'node:http'
import {type AddressInfo} from 'node:net'

import {cappedText, IssuerDocumentError, issuerKeys, KEYS_COOLDOWN_MS, MAX_ISSUER_DOCUMENT_BYTES} from '../../../src/mcp/http/issuer-keys.js'
import {discoverIssuer, jwtVerifier, OAuthSetupError} from '../../../src/mcp/http/oauth.js'

let server: Server
let base: string
/** What the issuer answers on each path, and how many times each was asked. */
const routes = new Map<string, (response: ServerResponse) => void>()
const asked = new Map<string, number>()
/** Bytes the endless document had written when its connection was closed. */
let endlessSent = 0

beforeAll(async () => {
  server = createServer((request, response) => {
    const path = request.url ?? '/'
    asked.set(path, (asked.get(path) ?? 0) + 1)
    const route = routes.get(path)
    if (route) route(response)
    else response.writeHead(404).end()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})

afterAll(async () => {
  server.closeAllConnections()
  await new Promise((resolve) => server.close(resolve))
})

/** A JSON document without a length, written in 64 KiB pieces for as long as the reader reads (up to 300 MB). */
function endless(response: ServerResponse): void {
  endlessSent = 0
  response.writeHead(200, {'content-type': 'application/json'})
  const piece = Buffer.alloc(64 * 1024, 0x20)
  response.write('{"keys": [')
  const more = () => {
    while (endlessSent < 300 * 1024 * 1024 && !response.destroyed) {
      endlessSent += piece.length
      if (!response.write(piece)) return void response.once('drain', more)
    }

    response.end(']}')
  }

  response.on('close', () => response.destroy())
  more()
}

async function keyPair(kid: string) {
  const {privateKey, publicKey} = await generateKeyPair('ES256', {extractable: true})
  return {jwk: {...(await exportJWK(publicKey)), alg: 'ES256', kid, use: 'sig'}, kid, privateKey}
}

const token = (key: Awaited<ReturnType<typeof keyPair>>) => new SignJWT({scope: 'mcp:read'}).setProtectedHeader({alg: 'ES256', kid: key.kid}).setIssuer(base).setAudience('http://127.0.0.1/mcp').setExpirationTime('5m').sign(key.privateKey)

describe('cappedText', () => {
  it('refuses a body past the cap while it arrives, declared or not', async () => {
    routes.set('/endless', endless)
    const response = await fetch(`${base}/endless`)
    await expect(cappedText(response)).rejects.toThrow(IssuerDocumentError)
    // The reader stopped reading: far less than 300 MB went out (what the sockets' buffers held at most).
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(endlessSent).toBeLessThan(MAX_ISSUER_DOCUMENT_BYTES + 32 * 1024 * 1024)
    routes.set('/declared', (r) => r.writeHead(200, {'content-length': String(MAX_ISSUER_DOCUMENT_BYTES + 1)}).end())
    await expect(cappedText(await fetch(`${base}/declared`))).rejects.toThrow(/more than the 1048576 read from an issuer/)
  })
})

describe("the issuer's metadata", () => {
  it('is refused when larger than the cap, so nothing that large is kept or served back', async () => {
    routes.set('/.well-known/oauth-authorization-server', endless)
    const refused = await discoverIssuer(base, 10_000).catch((error: Error) => error)
    expect(refused).toBeInstanceOf(OAuthSetupError)
    expect((refused as Error).message).toMatch(/more than the 1048576 bytes read from an issuer/)
    routes.delete('/.well-known/oauth-authorization-server')
  })
})

describe("the issuer's keys", () => {
  it('are refused when the key set is larger than the cap: the token is not judged, the server says it cannot read the keys', async () => {
    routes.set('/huge-jwks', endless)
    const verifier = jwtVerifier({algorithms: ['ES256'], audience: new URL('http://127.0.0.1/mcp'), audienceAsGiven: 'http://127.0.0.1/mcp', issuer: base, scopes: {read: 'mcp:read', write: 'mcp:write'}}, new URL(`${base}/huge-jwks`))
    const refused = await verifier.verifyAccessToken(await token(await keyPair('k1'))).catch((error: Error) => error)
    expect((refused as Error).message).toBe("The issuer's keys cannot be read")
  })

  it('that cannot be fetched are fetched again at most once per cooldown, however many tokens come', async () => {
    let now = 1_000_000
    const key = await keyPair('k2')
    routes.set('/failing-jwks', (r) => r.writeHead(503).end())
    const keys = issuerKeys(new URL(`${base}/failing-jwks`), () => now)
    const header = {alg: 'ES256', kid: 'k2'}
    const signed = await token(key)
    for (let i = 0; i < 30; i++) await expect(keys(header, {} as never)).rejects.toThrow(/answered HTTP 503/)
    expect(asked.get('/failing-jwks')).toBe(1)
    // After the cooldown, one more fetch: the issuer is back, and the token's key is found.
    routes.set('/failing-jwks', (r) => r.writeHead(200, {'content-type': 'application/json'}).end(JSON.stringify({keys: [key.jwk]})))
    now += KEYS_COOLDOWN_MS
    await expect(keys(header, {payload: signed.split('.')[1], signature: signed.split('.')[2]} as never)).resolves.toBeDefined()
    expect(asked.get('/failing-jwks')).toBe(2)
    // A key not seen yet within the cooldown: no fetch, refused as unknown.
    await expect(keys({alg: 'ES256', kid: 'unknown'}, {} as never)).rejects.toThrow(/no applicable key found/)
    expect(asked.get('/failing-jwks')).toBe(2)
  })
})
