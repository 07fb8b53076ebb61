import * as z from 'zod'
import {CodedError} from '../error-codes.js'

/** Tool hints a CLI author can set (MCP ToolAnnotations). */
const annotationsSchema = z.strictObject({
  destructiveHint: z.boolean().optional(),
  idempotentHint: z.boolean().optional(),
  openWorldHint: z.boolean().optional(),
  readOnlyHint: z.boolean().optional(),
  title: z.string().optional(),
})

const envSchema = z.record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'an environment variable name'), z.string())

/** Per-command settings: the static `mcp` property of a command class, or an `oclif.mcp.commands` entry. */
export const commandSettingsSchema = z.strictObject({
  annotations: annotationsSchema.optional(),
  env: envSchema.optional(),
  exclude: z.boolean().optional(),
  /** Seconds a call waits before the command goes on as a job. */
  foreground: z.number().positive().max(86_400).optional().describe('seconds'),
  timeout: z.number().positive().max(86_400).optional().describe('seconds'),
})

/** One argument of an author's prompt; `values` are what completion offers (and the only ones accepted). */
const promptArgumentSchema = z.strictObject({
  description: z.string().optional(),
  name: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'an argument name (letters, digits, _; usable in the template)'),
  required: z.boolean().optional(),
  values: z.array(z.string().min(1)).min(1).optional(),
})

/**
 * A prompt the author offers (hosts show prompts as slash commands): an ejs template given `args` (the arguments),
 * `config` (the CLI's) and `command(id)`, which says how to call that command through this server.
 */
export const promptSchema = z.strictObject({
  arguments: z.array(promptArgumentSchema).optional(),
  description: z.string().optional(),
  template: z.string().min(1),
  title: z.string().optional(),
})

/** A named selection of commands for the typed band (`--profile NAME`). */
export const profileSchema = z.strictObject({
  description: z.string().optional(),
  /** Command ids or topics to remove from the server entirely (not even reachable through run_command). */
  exclude: z.array(z.string().min(1)).optional(),
  /** Command ids or topics (globs) that make up the typed band. */
  include: z.array(z.string().min(1)).min(1),
  readOnly: z.boolean().optional(),
})

/** Signature algorithms an access token may use: public-key ones only (never `none`, never a shared secret). */
export const TOKEN_ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'] as const

/** A scope name as OAuth writes it (RFC 6749 section 3.3: printable ASCII but space, `"` and `\`). */
export const SCOPE_NAME = /^[\u0021\u0023-\u005B\u005D-\u007E]+$/
const scopeName = z.string().regex(SCOPE_NAME, 'a scope name (printable ASCII, no spaces, quotes or backslashes)')

/**
 * `mcp serve` as an OAuth resource server: access tokens are JWTs from `issuer`, for `audience` (the server's own
 * public URL, the RFC 8707 resource), signed with one of `algorithms`; `scopes` names the scope that reaches only
 * read-only commands and the one that reaches everything the server exposes.
 */
export const authSchema = z.strictObject({
  algorithms: z.array(z.enum(TOKEN_ALGORITHMS)).min(1).optional(),
  audience: z.url({protocol: /^https?$/}).optional(),
  issuer: z.url({protocol: /^https?$/}).optional(),
  scopes: z.strictObject({read: scopeName.optional(), write: scopeName.optional()}).optional(),
})

/** The `oclif.mcp` section of the host CLI's package.json. */
export const authorConfigSchema = z.strictObject({
  /**
   * Ids or globs of commands that manage the CLI itself (plugins, update, autocomplete) to expose anyway; they are
   * outside every server's boundary otherwise (src/tools/catalog/self-management.ts).
   */
  allowSelfManagement: z.array(z.string().min(1)).optional(),
  auth: authSchema.optional(),
  commands: z.record(z.string().min(1), commandSettingsSchema).optional(),
  /** Ask the person before every destructive command; the --confirm-destructive default. */
  confirmDestructive: z.boolean().optional(),
  defaultProfile: z.string().min(1).optional(),
  docs: z.array(z.string().min(1)).optional(),
  env: envSchema.optional(),
  /** How commands are listed for hosts (the --exposure default): see ExposureChoice in settings.ts. */
  exposure: z.enum(['auto', 'band', 'search']).optional(),
  /** Seconds a call waits before its command goes on as a job; the --foreground default. */
  foreground: z.number().positive().max(86_400).optional(),
  instructions: z.string().optional(),
  /** "extend" (default): the author's instructions come first, then the generated ones; "replace": only the author's. */
  instructionsMode: z.enum(['extend', 'replace']).optional(),
  maxOutputBytes: z.number().int().min(1024).optional(),
  /** About how many tokens a result may hold for the model; the --max-result-tokens default. */
  maxResultTokens: z.number().int().min(1000).optional(),
  omitFlags: z.array(z.string().min(1)).optional(),
  /** Flags oclif marks required that the CLI fills itself when left out (from its login, a file): optional in every tool. */
  optionalFlags: z.array(z.string().min(1)).optional(),
  secretFlags: z.array(z.string().min(1)).optional(),
  profiles: z.record(z.string().regex(/^[\w.-]+$/, 'a profile name (letters, digits, _ . -)'), profileSchema).optional(),
  prompts: z.record(z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'a prompt name (letters, digits, _ and -, at most 64)'), promptSchema).optional(),
  timeout: z.number().positive().max(86_400).optional(),
  title: z.string().optional(),
  /** Where the person cannot be asked, let the host's own approval of tool calls decide; the --trust-host-approval default. */
  trustHostApproval: z.boolean().optional(),
  workers: z.number().int().min(0).max(16).optional(),
})

export type CommandSettings = z.infer<typeof commandSettingsSchema>
export type AuthorConfig = z.infer<typeof authorConfigSchema>
export type AuthSettings = z.infer<typeof authSchema>
export type Profile = z.infer<typeof profileSchema>
export type PromptSettings = z.infer<typeof promptSchema>
export type ToolAnnotationSettings = z.infer<typeof annotationsSchema>

export class ConfigError extends CodedError {
  constructor(message: string) {
    super('INVALID_MCP_CONFIG', message)
  }
}

function describeIssues(where: string, error: z.ZodError): string {
  const lines = error.issues.map((issue) => {
    const path = issue.path.length > 0 ? `${where}.${issue.path.join('.')}` : where
    return `  ${path}: ${issue.message}`
  })
  return `Invalid MCP settings in ${lines.length === 1 ? lines[0].trim() : `\n${lines.join('\n')}`}`
}

/** Validates the host's `oclif.mcp` section; throws ConfigError naming each bad key. */
export function parseAuthorConfig(raw: unknown, where = 'package.json oclif.mcp'): AuthorConfig {
  const result = authorConfigSchema.safeParse(raw ?? {})
  if (!result.success) throw new ConfigError(describeIssues(where, result.error))
  const {defaultProfile, profiles} = result.data
  if (defaultProfile && !profiles?.[defaultProfile]) {
    throw new ConfigError(`Invalid MCP settings in ${where}.defaultProfile: no profile named "${defaultProfile}" in ${where}.profiles`)
  }

  return result.data
}

/** Validates a command's static `mcp` property; throws ConfigError naming the command. */
export function parseCommandSettings(raw: unknown, commandId: string): CommandSettings {
  const result = commandSettingsSchema.safeParse(raw ?? {})
  if (!result.success) throw new ConfigError(describeIssues(`the static mcp property of "${commandId}"`, result.error))
  return result.data
}
