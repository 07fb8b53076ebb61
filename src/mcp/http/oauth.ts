import {
  type AuthInfo,
  bearerAuthChallengeResponse,
  getOAuthProtectedResourceMetadataUrl,
  OAuthError,
  OAuthErrorCode,
  type OAuthMetadata,
  oauthMetadataResponse,
  type OAuthTokenVerifier,
  verifyBearerToken,
} from '@modelcontextprotocol/server'
import {errors, type JWTPayload, jwtVerify} from 'jose'

import {type AuthSettings, SCOPE_NAME, TOKEN_ALGORITHMS} from '../../settings/author-config.js'
import {isLoopbackHost} from './guards.js'
import {cappedText, IssuerDocumentError, issuerKeys} from './issuer-keys.js'
import {CodedError} from '../../error-codes.js'

// `mcp serve` as an OAuth 2.1 resource server: bearer tokens are JWTs of one issuer, checked against the issuer's
// published keys (JWKS), for this server (audience, RFC 8707), unexpired, signed with a public-key algorithm; the
// token's scopes decide what the request reaches (everything the server exposes, or its read-only commands only).

export const DEFAULT_SCOPES = {read: 'mcp:read', write: 'mcp:write'} as const

/** What one request may reach: everything the server exposes, or its read-only commands only. */
export type Access = 'full' | 'read'

export interface OAuthOptions {
  algorithms: readonly string[]
  /** The resource: this server's public URL, which tokens must name as their audience. */
  audience: URL
  /** The audience as configured, when it is written otherwise than its normal form (`https://a.example` vs `…/`). */
  audienceAsGiven: string
  issuer: string
  scopes: {read: string; write: string}
}

export class OAuthSetupError extends CodedError {
  constructor(message: string) {
    super('OAUTH_SETUP', message)
  }
}

export interface OAuthFlags {
  audience?: string
  issuer?: string
  readScope?: string
  writeScope?: string
}

/** A URL as messages show it: whatever stands before an @ after the scheme (a user name, a password) is not repeated. */
const withoutUserinfo = (text: string) => text.replace(/^([a-z][\w+.-]*:\/\/)?[^/]*@/i, '$1…@')

function checkedUrl(given: string, what: string): URL {
  let url: URL
  try {
    url = new URL(given)
  } catch {
    throw new OAuthSetupError(`${what} is not a URL: ${withoutUserinfo(given)}`)
  }

  // A user name or password in it would be echoed by every message naming the URL, and sent with every request.
  if (url.username || url.password) throw new OAuthSetupError(`${what} must not hold a user name or password (${url.protocol}//…@${url.host})`)
  const text = withoutUserinfo(url.href)

  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopbackHost(url.hostname.replace(/^\[(.*)\]$/, '$1')))) {
    throw new OAuthSetupError(`${what} must be an https:// URL (http:// only on a loopback address): ${text}`)
  }

  if (url.hash || url.search) throw new OAuthSetupError(`${what} must have no query string or fragment: ${text}`)
  return url
}

/**
 * The OAuth settings from the flags over the author's `oclif.mcp.auth`; undefined when neither names an issuer.
 * Throws OAuthSetupError saying what is missing or wrong.
 */
export function resolveOAuth(author: AuthSettings | undefined, flags: OAuthFlags): OAuthOptions | undefined {
  const issuer = flags.issuer ?? author?.issuer
  const audience = flags.audience ?? author?.audience
  if (issuer === undefined) {
    if (flags.audience !== undefined) throw new OAuthSetupError('--auth-audience needs --auth-issuer (the authorization server whose tokens this server accepts).')
    return undefined
  }

  if (audience === undefined) {
    throw new OAuthSetupError("--auth-issuer needs --auth-audience: this server's public URL as clients reach it (e.g. https://mcp.example.com/mcp), which its tokens must name.")
  }

  checkedUrl(issuer, 'The issuer')
  const scopes = {read: flags.readScope ?? author?.scopes?.read ?? DEFAULT_SCOPES.read, write: flags.writeScope ?? author?.scopes?.write ?? DEFAULT_SCOPES.write}
  for (const [name, scope] of Object.entries(scopes)) {
    if (!SCOPE_NAME.test(scope)) throw new OAuthSetupError(`The ${name} scope "${scope}" is not a scope name (printable ASCII, no spaces, quotes or backslashes).`)
  }

  if (scopes.read === scopes.write) throw new OAuthSetupError(`The read and write scopes must differ (both are "${scopes.read}").`)
  return {algorithms: author?.algorithms ?? TOKEN_ALGORITHMS, audience: checkedUrl(audience, 'The audience'), audienceAsGiven: audience, issuer, scopes}
}

/** Where an issuer publishes its metadata: RFC 8414's path-aware well-known URL, then OpenID Connect's. */
function metadataUrls(issuer: string): string[] {
  const url = new URL(issuer)
  const path = url.pathname.replace(/\/$/, '')
  return [`${url.origin}/.well-known/oauth-authorization-server${path}`, `${issuer.replace(/\/$/, '')}/.well-known/openid-configuration`]
}

/**
 * The issuer's metadata and the URL of its keys, read once at start. The metadata must name the issuer exactly as
 * configured (RFC 8414 section 3.3: a document for another issuer is not this one's). Throws OAuthSetupError.
 */
export async function discoverIssuer(issuer: string, timeoutMs = 10_000): Promise<{jwksUri: URL; metadata: OAuthMetadata}> {
  const tried: string[] = []
  for (const url of metadataUrls(issuer)) {
    let body: unknown
    try {
      const response = await fetch(url, {headers: {Accept: 'application/json'}, redirect: 'error', signal: AbortSignal.timeout(timeoutMs)})
      if (!response.ok) {
        tried.push(`${url}: HTTP ${response.status}`)
        continue
      }

      // Bounded: an issuer's document is read up to MAX_ISSUER_DOCUMENT_BYTES, then refused.
      body = JSON.parse(await cappedText(response))
    } catch (error) {
      tried.push(`${url}: ${(error as Error).cause instanceof Error ? ((error as Error).cause as Error).message : (error as Error).message}`)
      continue
    }

    const metadata = body as Partial<OAuthMetadata> & {jwks_uri?: unknown}
    if (metadata?.issuer !== issuer) {
      tried.push(`${url}: names the issuer ${JSON.stringify(metadata?.issuer)}, not ${JSON.stringify(issuer)}`)
      continue
    }

    if (typeof metadata.jwks_uri !== 'string') {
      tried.push(`${url}: has no jwks_uri`)
      continue
    }

    return {jwksUri: checkedUrl(metadata.jwks_uri, "The issuer's jwks_uri"), metadata: metadata as OAuthMetadata}
  }

  throw new OAuthSetupError(`Cannot read the metadata of the issuer ${issuer}:\n${tried.map((line) => `  ${line}`).join('\n')}`)
}

/** The token's scopes: `scope` (RFC 9068, space-separated) or `scp` (a list or a string, as some issuers write it). */
function scopesOf(payload: JWTPayload): string[] {
  const {scope, scp} = payload as {scope?: unknown; scp?: unknown}
  if (typeof scope === 'string') return scope.split(' ').filter(Boolean)
  if (Array.isArray(scp)) return scp.filter((s): s is string => typeof s === 'string')
  if (typeof scp === 'string') return scp.split(' ').filter(Boolean)
  return []
}

/** Why jose refused a token, as the error_description a client developer reads. */
function refusal(error: unknown, options: OAuthOptions): OAuthError {
  if (error instanceof errors.JWTExpired) return new OAuthError(OAuthErrorCode.InvalidToken, 'Token has expired')
  if (error instanceof errors.JWTClaimValidationFailed) {
    const claim = {aud: `Token is not for this resource (${options.audience.href})`, iss: `Token was not issued by ${options.issuer}`}[error.claim]
    return new OAuthError(OAuthErrorCode.InvalidToken, claim ?? `Token claim "${error.claim}" is not valid: ${error.reason}`)
  }

  if (error instanceof errors.JOSEAlgNotAllowed) return new OAuthError(OAuthErrorCode.InvalidToken, `Token algorithm is not allowed (allowed: ${options.algorithms.join(', ')})`)
  if (error instanceof errors.JWKSNoMatchingKey) return new OAuthError(OAuthErrorCode.InvalidToken, "No key of the issuer matches the token's signature")
  if (error instanceof errors.JWSSignatureVerificationFailed) return new OAuthError(OAuthErrorCode.InvalidToken, 'Token signature is not valid')
  // The keys could not be fetched or read (a timeout, an HTTP error or a body that is not a key set: jose throws its
  // base error or JWKSInvalid for those), or something else failed: the server's trouble, not the token's.
  if (error instanceof IssuerDocumentError || error instanceof errors.JWKSTimeout || error instanceof errors.JWKSInvalid || !(error instanceof errors.JOSEError) || error.constructor === errors.JOSEError) {
    // The issuer's keys could not be read: the server's trouble, not the token's.
    process.stderr.write(`[mcp] cannot check a token against the issuer's keys: ${(error as Error).message}\n`)
    return new OAuthError(OAuthErrorCode.ServerError, "The issuer's keys cannot be read")
  }

  return new OAuthError(OAuthErrorCode.InvalidToken, 'Token is not a valid signed JWT')
}

export {KEYS_COOLDOWN_MS} from './issuer-keys.js'

/** Checks access tokens as JWTs against the issuer's keys (issuer-keys.ts: bounded, fetched at most every KEYS_COOLDOWN_MS). */
export function jwtVerifier(options: OAuthOptions, jwksUri: URL): OAuthTokenVerifier {
  const keys = issuerKeys(jwksUri)
  const audiences = [...new Set([options.audience.href, options.audienceAsGiven])]
  return {
    async verifyAccessToken(token) {
      let payload: JWTPayload
      try {
        ;({payload} = await jwtVerify(token, keys, {algorithms: [...options.algorithms], audience: audiences, clockTolerance: 30, issuer: options.issuer, requiredClaims: ['exp']}))
      } catch (error) {
        throw refusal(error, options)
      }

      const {azp, client_id: clientId, sub} = payload as {azp?: unknown; client_id?: unknown; sub?: unknown}
      return {
        clientId: String(clientId ?? azp ?? sub ?? ''),
        expiresAt: payload.exp,
        extra: {subject: sub},
        resource: options.audience,
        scopes: scopesOf(payload),
        token,
      }
    },
  }
}

/** What a token's scopes reach; undefined when neither scope is among them. */
export function accessOf(info: AuthInfo | undefined, scopes: OAuthOptions['scopes']): Access | undefined {
  if (info?.scopes.includes(scopes.write)) return 'full'
  if (info?.scopes.includes(scopes.read)) return 'read'
  return undefined
}

/** The OAuth side of the HTTP server: the well-known documents, and the check of each request's token. */
export interface OAuthGate {
  /** The token's access and who it is, or the answer that refuses the request (401, 403, or 500). */
  check(authorization: string | undefined): Promise<{access: Access; info: AuthInfo} | {refusal: Response}>
  /** The RFC 9728 document (and the issuer's metadata at RFC 8414's place) for its paths; undefined for any other. */
  metadata(request: Request): Response | undefined
  metadataUrl: string
  options: OAuthOptions
}

/** Reads the issuer's metadata (throws OAuthSetupError when it cannot) and makes the gate. */
export async function openOAuthGate(options: OAuthOptions, resourceName: string): Promise<OAuthGate> {
  const {jwksUri, metadata} = await discoverIssuer(options.issuer)
  const verifier = jwtVerifier(options, jwksUri)
  const metadataUrl = getOAuthProtectedResourceMetadataUrl(options.audience)
  const required = [options.scopes.read, options.scopes.write]
  const metadataOptions = {
    // Loopback issuers are allowed plain http (checkedUrl): the SDK allows only localhost and 127.0.0.1 by name.
    dangerouslyAllowInsecureIssuerUrl: new URL(options.issuer).protocol === 'http:',
    oauthMetadata: metadata,
    resourceName,
    resourceServerUrl: options.audience,
    scopesSupported: required,
  }
  return {
    async check(authorization) {
      try {
        const info = await verifyBearerToken(authorization, {resourceMetadataUrl: metadataUrl, verifier})
        const access = accessOf(info, options.scopes)
        if (access) return {access, info}
        throw new OAuthError(OAuthErrorCode.InsufficientScope, `Token has neither the scope ${options.scopes.read} nor ${options.scopes.write}`)
      } catch (error) {
        return {refusal: bearerAuthChallengeResponse(error, {requiredScopes: required, resourceMetadataUrl: metadataUrl})}
      }
    },
    metadata: (request) => oauthMetadataResponse(request, metadataOptions),
    metadataUrl,
    options,
  }
}
