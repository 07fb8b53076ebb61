// A real OAuth authorization server's public side, on loopback, for tests: RFC 8414 metadata and a JWKS with key
// pairs generated here, rotation, and access tokens signed as an identity provider signs them (jose).
import {exportJWK, generateKeyPair, type JWK, type JWTPayload, SignJWT} from 'jose'
import {createServer, type Server} from 'node:http'
import {type AddressInfo} from 'node:net'

export interface Key {
  kid: string
  privateKey: Awaited<ReturnType<typeof generateKeyPair>>['privateKey']
  publicJwk: JWK
}

export interface TestIssuer {
  close(): Promise<void>
  /** How many times the JWKS was fetched. */
  jwksFetches(): number
  /** The key tokens are signed with now. */
  keyNow(): Key
  /** When the JWKS was last fetched (Date.now() then; 0 for never). */
  lastFetchAt(): number
  /** A new key pair; with `retire`, the keys before it leave the JWKS. Returns the new key's id. */
  rotate(options?: {retire?: boolean}): Promise<string>
  /** A signed access token: standard claims filled in (iss, aud, exp in 5 minutes, iat, sub), overridable. */
  sign(claims?: JWTPayload, options?: {key?: Key; kid?: string}): Promise<string>
  /** A key pair the JWKS never publishes. */
  strangerKey(): Promise<Key>
  url: string
}

let counter = 0
async function newKey(): Promise<Key> {
  const {privateKey, publicKey} = await generateKeyPair('RS256', {extractable: true})
  const kid = `k${++counter}-${Date.now().toString(36)}`
  return {kid, privateKey, publicJwk: {...(await exportJWK(publicKey)), alg: 'RS256', kid, use: 'sig'}}
}

export async function startIssuer(audience: string): Promise<TestIssuer> {
  let keys: Key[] = [await newKey()]
  let fetches = 0
  let lastFetch = 0
  let url = ''
  const server: Server = createServer((req, res) => {
    const send = (status: number, body: unknown) => {
      res.writeHead(status, {'Content-Type': 'application/json'})
      res.end(JSON.stringify(body))
    }

    if (req.url === '/.well-known/oauth-authorization-server') {
      return send(200, {
        authorization_endpoint: `${url}/authorize`,
        code_challenge_methods_supported: ['S256'],
        issuer: url,
        jwks_uri: `${url}/jwks`,
        response_types_supported: ['code'],
        scopes_supported: ['mcp:read', 'mcp:write'],
        token_endpoint: `${url}/token`,
      })
    }

    if (req.url === '/jwks') {
      fetches++
      lastFetch = Date.now()
      return send(200, {keys: keys.map((key) => key.publicJwk)})
    }

    send(404, {error: 'not found'})
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`

  return {
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
    jwksFetches: () => fetches,
    keyNow: () => keys.at(-1)!,
    lastFetchAt: () => lastFetch,
    async rotate({retire = false} = {}) {
      const key = await newKey()
      keys = retire ? [key] : [...keys, key]
      return key.kid
    },
    sign(claims = {}, options = {}) {
      const key = options.key ?? keys.at(-1)!
      const now = Math.floor(Date.now() / 1000)
      return new SignJWT({aud: audience, exp: now + 300, iat: now, iss: url, sub: 'person-1', ...claims})
        .setProtectedHeader({alg: 'RS256', kid: options.kid ?? key.kid, typ: 'at+jwt'})
        .sign(key.privateKey)
    },
    strangerKey: newKey,
    get url() {
      return url
    },
  }
}
