/**
 * Which flags, args and environment variables hold secrets: those whose names say so (and those the author names in
 * `oclif.mcp.secretFlags`). Their values are blanked where a call is shown and redacted from everything the server
 * sends or writes (src/tools/execution/redact.ts).
 */
const SECRET_WORDS = new Set(['apikey', 'bearer', 'credential', 'credentials', 'key', 'passcode', 'passphrase', 'passwd', 'password', 'private', 'pwd', 'secret', 'token'])
/** A word run together that ends in a secret (`accesstoken`, `clientsecret`, `apikey`, `signingkey`), in any case. */
const SECRET_ENDING = /(?:token|secret|password|passwd|passphrase|(?:api|access|private|secret|signing|client|master)key)$/

/**
 * `api-key`, `--password`, `GITHUB_TOKEN`, `clientSecret`, `client_secret`, `apiSecret`, `HEROKU_API_KEY`, `--bearer`,
 * `accesstoken` say they hold secrets, in kebab-, snake- or camelCase; `keyboard` and `tokenizer` do not.
 */
export function isSecretName(name: string): boolean {
  const words = name
    .replaceAll(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
  return words.some((word, i) => SECRET_WORDS.has(word) || SECRET_ENDING.test(word) || (word === 'api' && words[i + 1] === 'key'))
}

/**
 * A flag's text that says its value is a credential ("Bearer token", "Your API secret", "The password to log in
 * with", "Client secret of the connected app"): a flag so described holds a secret whatever its name.
 */
export const SECRET_TEXT = /\b(?:password|passphrase|passcode|credentials?|(?:api|access|auth(?:entication|orization)?|bearer|client|private|refresh|session|secret|signing)[ -](?:key|token|secret))\b|^(?:the |your |an? )?(?:api |access |auth |bearer )?(?:token|secret)(?:\s+(?:to|for|used|of|that|which)\b.*)?\.?$/i

/** Words that name a secret on their own as a field (`"apiSecret"`, `token:`), bare `key` and `private` not among them. */
const FIELD_WORDS = new Set(['apikey', 'bearer', 'credential', 'credentials', 'passcode', 'passphrase', 'passwd', 'password', 'pwd', 'secret', 'token'])
const KEY_OWNERS = new Set(['access', 'api', 'client', 'master', 'private', 'secret', 'signing'])

/**
 * Whether a field a command prints (a JSON key, a `name: value` line, a table column) holds a secret: `apiSecret`,
 * `access_token`, `PASSWORD`, `private_key`, `client-secret`; not a bare `key` (`"key": "tasks:add"`) or `private`.
 */
export function isSecretField(name: string): boolean {
  const words = name
    .replaceAll(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean)
  return words.some((word, i) => FIELD_WORDS.has(word) || SECRET_ENDING.test(word) || (KEY_OWNERS.has(word) && words[i + 1] === 'key'))
}
