import {isSecretName} from '../catalog/secret-names.js'

// Secret values (of flags, args and environment variables whose names say they hold one) must never reach a result,
// an error message, a log line, a progress message or an audit record: they are replaced wherever they appear in text
// the server sends or writes.

/** Shorter values are too likely to occur by chance ("1", "true") to be replaced everywhere. */
const MIN_SECRET_LENGTH = 4
export const REDACTED = '[REDACTED]'

/** Values of the environment's secret-named variables. */
export function secretEnvValues(env: Readonly<Record<string, string | undefined>>): string[] {
  return Object.entries(env)
    .filter(([name, value]) => value !== undefined && isSecretName(name))
    .map(([, value]) => value!)
}

export type Redact = <T>(value: T) => T

/** The inside of a JSON string literal of `text`; with `ascii`, every non-ASCII character as \uXXXX (Python's default). */
function jsonInner(text: string, ascii = false): string {
  const inner = JSON.stringify(text).slice(1, -1)
  return ascii ? inner.replaceAll(/[^\x00-\x7F]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`) : inner
}

/**
 * Every form a secret takes on its way out: as given; escaped inside a JSON string (once, twice — JSON text inside a
 * JSON string — and with non-ASCII escaped); inside a single-quoted shell word; URL-encoded; base64; and, for a
 * secret of several lines, each line on its own (stderr reaches progress messages one line at a time).
 */
export function secretForms(secret: string): string[] {
  const once = jsonInner(secret)
  const forms = [
    secret,
    once,
    jsonInner(once),
    jsonInner(secret, true),
    secret.replaceAll("'", String.raw`'\''`),
    encodeURIComponent(secret),
    Buffer.from(secret).toString('base64').replace(/=+$/, ''),
    ...secret.split(/\r?\n|\r/),
  ]
  return forms.filter((form) => form.length >= MIN_SECRET_LENGTH)
}

/**
 * Replaces every form of the given secrets (secretForms) in strings and object keys, at any depth of a JSON-like
 * value. Applied to raw values before anything is quoted or serialised, and the escaped forms catch what a command
 * serialised itself.
 */
export function redactor(secrets: readonly string[]): Redact {
  const raw = secrets.filter((s) => s.length >= MIN_SECRET_LENGTH)
  const values = [...new Set(raw.flatMap((secret) => secretForms(secret)))].sort((a, b) => b.length - a.length)
  if (values.length === 0) return (value) => value
  const text = (s: string) => values.reduce((out, secret) => out.replaceAll(secret, REDACTED), s)
  const deep = (value: unknown): unknown => {
    if (typeof value === 'string') return text(value)
    if (Array.isArray(value)) return value.map((item) => deep(item))
    if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [text(k), deep(v)]))
    return value
  }

  return <T>(value: T) => deep(value) as T
}
