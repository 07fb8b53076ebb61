/**
 * Which flags, args and environment variables hold secrets: those whose names say so (and those the author names in
 * `oclif.mcp.secretFlags`). Their values are blanked where a call is shown and redacted from everything the server
 * sends or writes (src/tools/execution/redact.ts).
 */
const SECRET_WORDS = new Set(['apikey', 'credential', 'credentials', 'key', 'passphrase', 'passwd', 'password', 'private', 'secret', 'token'])

/** `api-key`, `--password`, `GITHUB_TOKEN`, `clientSecret`, `HEROKU_API_KEY` say they hold secrets; `keyboard` does not. */
export function isSecretName(name: string): boolean {
  const words = name
    .replaceAll(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
  return words.some((word, i) => SECRET_WORDS.has(word) || (word === 'api' && words[i + 1] === 'key'))
}
