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
