import {createLocalJWKSet, errors, type JSONWebKeySet, type JWTVerifyGetKey} from 'jose'

// The issuer's published keys (its jwks_uri), fetched by this server itself rather than by jose's remote key set, so
// that what an issuer sends is bounded (a document larger than MAX_ISSUER_DOCUMENT_BYTES is refused while it
// arrives, not read whole) and a key set that cannot be fetched is not fetched again on every request: after any
// fetch, successful or not, the next one waits KEYS_COOLDOWN_MS, and requests meanwhile are answered from what
// is known (or as "the issuer's keys cannot be read").

/** The largest metadata document or key set read from an issuer; real ones are a few kilobytes. */
export const MAX_ISSUER_DOCUMENT_BYTES = 1024 * 1024

/**
 * How often, at most, the issuer's keys are fetched: again for a token naming a key not seen yet (a rotated key is
 * taken up within this time), or after a failed fetch. Tokens with made-up key ids, or an issuer that is down, cost
 * the issuer at most one request per period.
 */
export const KEYS_COOLDOWN_MS = 10_000

/** Keys older than this are fetched again at the next token, whatever it names. */
const KEYS_MAX_AGE_MS = 10 * 60_000
const FETCH_TIMEOUT_MS = 5000

/** An issuer document that could not be read: said in the error the operator reads on stderr. */
export class IssuerDocumentError extends errors.JOSEError {}

/**
 * The body of `response` as text, refused (IssuerDocumentError) as soon as it passes `max` bytes, whether or not a
 * Content-Length said so first.
 */
export async function cappedText(response: Response, max = MAX_ISSUER_DOCUMENT_BYTES): Promise<string> {
  const declared = Number(response.headers.get('content-length') ?? Number.NaN)
  if (declared > max) {
    await response.body?.cancel().catch(() => {})
    throw new IssuerDocumentError(`the document is ${declared} bytes, more than the ${max} read from an issuer`)
  }

  const reader = response.body?.getReader()
  if (!reader) return ''
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const {done, value} = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > max) {
      await reader.cancel().catch(() => {})
      throw new IssuerDocumentError(`the document is more than the ${max} bytes read from an issuer`)
    }

    chunks.push(value)
  }

  return Buffer.concat(chunks).toString('utf8')
}

/** The issuer's key set, as jwtVerify takes it, with the fetching described above. */
export function issuerKeys(jwksUri: URL, now: () => number = Date.now): JWTVerifyGetKey {
  let known: ReturnType<typeof createLocalJWKSet> | undefined
  let fetchedAt = Number.NEGATIVE_INFINITY
  let lastAttempt = Number.NEGATIVE_INFINITY
  let lastFailure: Error | undefined
  let pending: Promise<void> | undefined

  const fetchKeys = async () => {
    lastAttempt = now()
    try {
      const response = await fetch(jwksUri, {headers: {Accept: 'application/json'}, redirect: 'error', signal: AbortSignal.timeout(FETCH_TIMEOUT_MS)})
      if (!response.ok) {
        await response.body?.cancel().catch(() => {})
        throw new IssuerDocumentError(`${jwksUri.href} answered HTTP ${response.status}`)
      }

      const set = JSON.parse(await cappedText(response)) as JSONWebKeySet
      known = createLocalJWKSet(set)
      fetchedAt = lastAttempt
      lastFailure = undefined
    } catch (error) {
      lastFailure = error instanceof errors.JOSEError ? error : new IssuerDocumentError(`${jwksUri.href}: ${(error as Error).message}`)
    }
  }

  /** Fetches the keys unless a fetch ran within the cooldown (one fetch at a time); rejects with the last failure. */
  const refresh = async () => {
    if (now() - lastAttempt >= KEYS_COOLDOWN_MS) {
      pending ??= fetchKeys().finally(() => (pending = undefined))
    }

    await pending
    if (!known && lastFailure) throw lastFailure
  }

  return async (header, token) => {
    if (!known || now() - fetchedAt >= KEYS_MAX_AGE_MS) await refresh()
    try {
      return await known!(header, token)
    } catch (error) {
      if (!(error instanceof errors.JWKSNoMatchingKey)) throw error
      // A key not seen yet: perhaps the issuer rotated; asked again at most once per cooldown.
      await refresh()
      return known!(header, token)
    }
  }
}
