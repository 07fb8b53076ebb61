import {localhostAllowedHostnames, validateHostHeader, validateOriginHeader} from '@modelcontextprotocol/server'

import {createHash, timingSafeEqual} from 'node:crypto'
import {isIP} from 'node:net'
import type {ErrorCode} from '../../error-codes.js'

/** What a guard decides about a request: go on, or the answer to give instead. */
export type GuardResult = {code: ErrorCode; headers?: Record<string, string>; message: string; ok: false; status: number} | {ok: true}

const OK: GuardResult = {ok: true}

/** Loopback names and addresses: `localhost`, 127.0.0.0/8, `::1` (with or without brackets). */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[(.*)\]$/, '$1').toLowerCase()
  if (bare === 'localhost' || bare === '::1' || bare === '0:0:0:0:0:0:0:1') return true
  return isIP(bare) === 4 && bare.startsWith('127.')
}

/**
 * Where the server may listen: loopback always; anything else only with --allow-remote and authentication (a token,
 * or OAuth: pass `true` as the token).
 */
export function checkBind(host: string, allowRemote: boolean, token: string | true | undefined): GuardResult {
  if (isLoopbackHost(host)) return OK
  if (!allowRemote) {
    return {
      code: 'REMOTE_BIND_REFUSED',
      message: `Refusing to listen on ${host}: the MCP endpoint has no authentication unless you give it a token, and its tools can change files and run commands. Listen on 127.0.0.1 (the default), or pass --allow-remote with a token (--token-file, or the token environment variable) or an OAuth issuer (--auth-issuer) to accept other machines.`,
      ok: false,
      status: 0,
    }
  }

  if (!token) {
    return {
      code: 'TOKEN_REQUIRED',
      message: `--allow-remote needs authentication: a bearer token (--token-file, a file only you can read, or the token environment variable) or an OAuth issuer (--auth-issuer and --auth-audience).`,
      ok: false,
      status: 0,
    }
  }

  return OK
}

/** Host names the `Host` header may carry: loopback, the address listened on (when specific), and the user's. */
export function allowedHostnames(bindHost: string, extra: readonly string[]): string[] {
  const names = new Set([...localhostAllowedHostnames(), ...extra.map((h) => h.toLowerCase())])
  const wildcard = bindHost === '0.0.0.0' || bindHost === '::' || bindHost === '[::]'
  if (!wildcard) names.add(isIP(bindHost) === 6 ? `[${bindHost}]` : bindHost.toLowerCase())
  return [...names]
}

/** A `Host` header as RFC 9110 writes one: a name or an address, and a port; nothing else (no `user@`, no path). */
const HOST_SYNTAX = /^(?:\[[\d:A-Fa-f.]+\]|[\w.-]+)(?::\d{1,5})?$/

/** DNS rebinding: the `Host` header must name this server as the user reaches it. */
export function checkHost(header: string | undefined, allowed: readonly string[]): GuardResult {
  if (header !== undefined && !HOST_SYNTAX.test(header)) {
    return {code: 'HOST_MALFORMED', message: 'The Host header is not a host name or address with an optional port.', ok: false, status: 400}
  }

  const result = validateHostHeader(header, [...allowed])
  return result.ok ? OK : {code: 'HOST_NOT_ALLOWED', message: `${result.message}. Allow it with --allowed-host.`, ok: false, status: 403}
}

/** Browsers send `Origin`; a page from another site must not reach the server. Clients that send none pass. */
export function checkOrigin(header: string | undefined, allowed: readonly string[]): GuardResult {
  const result = validateOriginHeader(header, [...allowed])
  return result.ok ? OK : {code: 'ORIGIN_NOT_ALLOWED', message: `${result.message}. Allow it with --allowed-origin.`, ok: false, status: 403}
}

const digest = (text: string) => createHash('sha256').update(text).digest()

/** `Authorization: Bearer <token>`, compared in constant time (over digests, so lengths leak nothing either). */
export function checkBearer(header: string | undefined, token: string | undefined, realm: string): GuardResult {
  if (token === undefined) return OK
  const given = /^Bearer\s+(.+)$/i.exec(header?.trim() ?? '')?.[1] ?? ''
  if (given && timingSafeEqual(digest(given), digest(token))) return OK
  return {
    code: given ? 'TOKEN_INVALID' : 'TOKEN_REQUIRED',
    headers: {'WWW-Authenticate': `Bearer realm="${realm}"${given ? ', error="invalid_token"' : ''}`},
    message: given ? 'The bearer token is not valid.' : 'This server needs a bearer token (Authorization: Bearer <token>).',
    ok: false,
    status: 401,
  }
}
