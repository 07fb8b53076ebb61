import type {Config} from '@oclif/core'

// What the CLI's own package.json says about it, in the shapes the host manifests take: its npm name and version,
// who made it, where it lives, the Node it needs and the platforms it runs on.

export interface Person {
  email?: string
  name: string
  url?: string
}

export interface PackageFacts {
  author?: Person
  description?: string
  homepage?: string
  keywords: string[]
  license?: string
  /** The package.json `mcpName`: the registry name an npm package claims (server.json's `name`). */
  mcpName?: string
  /** The npm package name (`@acme/mycli`). */
  name: string
  /** `engines.node`, as written (`>=18.0.0`). */
  node?: string
  /** `os` of package.json, as Claude Desktop names platforms; undefined: every platform. */
  platforms?: ('darwin' | 'linux' | 'win32')[]
  private: boolean
  /** The repository's web address (`https://github.com/acme/mycli`), from a URL, `git+…`, or `github:owner/repo`. */
  repository?: string
  version: string
}

/** `Jane Doe <jane@acme.io> (https://acme.io)` or `{name, email, url}`; undefined when there is no name. */
export function personOf(value: unknown): Person | undefined {
  if (typeof value === 'string') {
    const match = /^\s*([^<(]*?)\s*(?:<([^>]+)>)?\s*(?:\(([^)]+)\))?\s*$/.exec(value)
    const name = match?.[1]?.trim()
    if (!name) return undefined
    return {name, ...(match?.[2] ? {email: match[2]} : {}), ...(match?.[3] ? {url: match[3]} : {})}
  }

  if (value && typeof value === 'object') {
    const {email, name, url} = value as Record<string, unknown>
    if (typeof name !== 'string' || !name.trim()) return undefined
    return {name: name.trim(), ...(typeof email === 'string' && email ? {email} : {}), ...(typeof url === 'string' && url ? {url} : {})}
  }

  return undefined
}

/** A repository field as a browsable https URL: `git+https://github.com/a/b.git`, `github:a/b`, `a/b`, `{url}`. */
export function repositoryUrl(value: unknown): string | undefined {
  const raw = typeof value === 'string' ? value : value && typeof value === 'object' ? (value as {url?: unknown}).url : undefined
  if (typeof raw !== 'string' || !raw.trim()) return undefined
  const text = raw.trim()
  const short = /^(?:(github|gitlab|bitbucket):)?([\w.-]+)\/([\w.-]+)$/.exec(text)
  if (short) return `https://${short[1] === 'gitlab' ? 'gitlab.com' : short[1] === 'bitbucket' ? 'bitbucket.org' : 'github.com'}/${short[2]}/${short[3].replace(/\.git$/, '')}`
  const ssh = /^git@([^:]+):(.+?)(?:\.git)?$/.exec(text)
  if (ssh) return `https://${ssh[1]}/${ssh[2]}`
  try {
    const url = new URL(text.replace(/^git\+/, '').replace(/^git:\/\//, 'https://').replace(/^ssh:\/\/git@/, 'https://'))
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined
    return `https://${url.host}${url.pathname.replace(/\.git$/, '').replace(/\/$/, '')}`
  } catch {
    return undefined
  }
}

const PLATFORMS = ['darwin', 'linux', 'win32'] as const

/** package.json `os` (`["darwin", "linux"]`, `["!win32"]`) as the platforms a bundle declares. */
function platformsOf(os: unknown): PackageFacts['platforms'] {
  if (!Array.isArray(os) || os.length === 0) return undefined
  const words = os.filter((entry): entry is string => typeof entry === 'string')
  const denied = new Set(words.filter((w) => w.startsWith('!')).map((w) => w.slice(1)))
  const allowed = words.filter((w) => !w.startsWith('!'))
  const platforms = PLATFORMS.filter((p) => (allowed.length === 0 || allowed.includes(p)) && !denied.has(p))
  return platforms.length === PLATFORMS.length ? undefined : [...platforms]
}

export function packageFacts(config: Pick<Config, 'pjson' | 'version'>): PackageFacts {
  const pjson = config.pjson as unknown as Record<string, unknown>
  const text = (value: unknown) => (typeof value === 'string' && value.trim() ? value.trim() : undefined)
  const engines = pjson.engines as Record<string, unknown> | undefined
  const keywords = Array.isArray(pjson.keywords) ? pjson.keywords.filter((k): k is string => typeof k === 'string' && k.trim() !== '') : []
  return {
    author: personOf(pjson.author),
    description: text(pjson.description),
    homepage: text(pjson.homepage),
    keywords,
    license: text(pjson.license),
    mcpName: text(pjson.mcpName),
    name: String(pjson.name),
    node: text(engines?.node),
    platforms: platformsOf(pjson.os),
    private: pjson.private === true,
    repository: repositoryUrl(pjson.repository),
    version: config.version,
  }
}
