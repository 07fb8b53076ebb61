import type {CommandTool} from '../tools/catalog/registry.js'

import {isSecretName} from '../tools/catalog/secret-names.js'

// The environment variables that hold the CLI's credentials: a flag's `env` whose name says it holds a secret
// (HEROKU_API_KEY, TWILIO_AUTH_TOKEN), read from the commands in the server's reach, and the ones the author names.
// Hosts that filter the environment a server gets (Codex, Gemini CLI, Claude Desktop) are told to pass them on; none
// of their values is ever written.

export interface Credential {
  /** What the variable is for, from the flag that reads it (or the author's word). */
  description: string
  name: string
  /** The flags that read it (`--api-key` of `apps create`…), for the report. */
  readBy: string[]
}

export function credentialsOf(tools: Iterable<CommandTool>, named: readonly string[] = []): Credential[] {
  const found = new Map<string, Credential>()
  for (const tool of tools) {
    for (const [flag, definition] of Object.entries(tool.command.flags ?? {})) {
      const variables = [definition.env].flat().filter((v): v is string => typeof v === 'string' && v !== '')
      for (const name of variables) {
        if (!isSecretName(name) && !isSecretName(flag)) continue
        const entry = found.get(name) ?? {description: '', name, readBy: []}
        if (!entry.description && definition.description) entry.description = definition.description.split('\n')[0].trim()
        entry.readBy.push(`${tool.displayId} --${flag}`)
        found.set(name, entry)
      }
    }
  }

  for (const name of named) if (!found.has(name)) found.set(name, {description: '', name, readBy: []})
  return [...found.values()]
    .map((entry) => ({...entry, description: entry.description || `A credential the CLI reads from ${entry.name}.`}))
    .sort((a, b) => (a.name < b.name ? -1 : 1))
}
