// Where `mcp serve --state` keeps what outlives a call: a Redis URL, from the flag or (when it holds a password) from
// an environment variable, since every local user can read a process's command line.

/** The URL as it may be shown: without its password. */
export function shownUrl(url: string): string {
  try {
    const parsed = new URL(url)
    if (parsed.password) parsed.password = '***'
    return parsed.toString()
  } catch {
    return '(an unparsable URL)'
  }
}

/**
 * The state store URL from `--state` or the variable (the flag wins), or why it cannot be used; undefined when
 * neither gives one. A password is refused on the command line.
 */
export function resolveStateUrl(flag: string | undefined, fromEnv: string | undefined, variable: string): {error: string} | {url?: string} {
  const url = flag ?? (fromEnv || undefined)
  if (url === undefined) return {}
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return {error: `"${shownUrl(url)}" is not a URL: give redis://host:port (rediss:// for TLS), optionally with /db.`}
  }

  if (parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:') {
    return {error: `${parsed.protocol} is not a state store this server knows: give redis://host:port (rediss:// for TLS).`}
  }

  if (flag !== undefined && parsed.password) {
    return {error: `--state holds a password, and every user of this machine can read a process's command line. Put the whole URL in ${variable} instead.`}
  }

  return {url}
}

/**
 * What may be kept in the store: bytes of outputs, finished jobs' results and idempotency results in all, and of one
 * person's (an OAuth subject's; calls without one, as without OAuth, count towards the total only). Past a quota,
 * an output is not kept there, and a job's or idempotent call's result is kept without its output, saying so: a full
 * store never refuses anyone's call.
 */
export interface StateQuota {
  perPersonBytes: number
  totalBytes: number
}

export const DEFAULT_STATE_QUOTA: StateQuota = {perPersonBytes: 64 * 1024 * 1024, totalBytes: 256 * 1024 * 1024}
