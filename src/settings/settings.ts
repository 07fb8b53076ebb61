import {availableParallelism} from 'node:os'
import * as z from 'zod'

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
  timeout: z.number().positive().max(86_400).optional().describe('seconds'),
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

/** The `oclif.mcp` section of the host CLI's package.json. */
export const authorConfigSchema = z.strictObject({
  /**
   * Ids or globs of commands that manage the CLI itself (plugins, update, autocomplete) to expose anyway; they are
   * outside every server's boundary otherwise (src/tools/catalog/self-management.ts).
   */
  allowSelfManagement: z.array(z.string().min(1)).optional(),
  commands: z.record(z.string().min(1), commandSettingsSchema).optional(),
  /** Ask the person before every destructive command; the --confirm-destructive default. */
  confirmDestructive: z.boolean().optional(),
  defaultProfile: z.string().min(1).optional(),
  docs: z.array(z.string().min(1)).optional(),
  env: envSchema.optional(),
  instructions: z.string().optional(),
  /** "extend" (default): the author's instructions come first, then the generated ones; "replace": only the author's. */
  instructionsMode: z.enum(['extend', 'replace']).optional(),
  maxOutputBytes: z.number().int().min(1024).optional(),
  omitFlags: z.array(z.string().min(1)).optional(),
  secretFlags: z.array(z.string().min(1)).optional(),
  profiles: z.record(z.string().regex(/^[\w.-]+$/, 'a profile name (letters, digits, _ . -)'), profileSchema).optional(),
  timeout: z.number().positive().max(86_400).optional(),
  title: z.string().optional(),
  /** Where the person cannot be asked, let the host's own approval of tool calls decide; the --trust-host-approval default. */
  trustHostApproval: z.boolean().optional(),
  workers: z.number().int().min(0).max(16).optional(),
})

export type CommandSettings = z.infer<typeof commandSettingsSchema>
export type AuthorConfig = z.infer<typeof authorConfigSchema>
export type Profile = z.infer<typeof profileSchema>
export type ToolAnnotationSettings = z.infer<typeof annotationsSchema>

export class ConfigError extends Error {
  readonly code = 'INVALID_MCP_CONFIG'
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

/** What the user asked the server to expose (see src/tools/exposure/projection.ts). */
export interface ProjectionOptions {
  exclude: string[]
  maxBytes: number
  maxTools: number
  profile?: string
  readOnly: boolean
  tools?: string[]
}

/** What the server was started with: the author's config plus the user's flags. */
export interface Settings {
  /** Append mutating and destructive calls to the audit log. */
  audit: boolean
  author: AuthorConfig
  confirmDestructive: boolean
  /** Directory commands run in when a call gives no `cwd`; undefined means a private empty directory. */
  defaultCwd?: string
  /** Command processes that may run at once. */
  maxConcurrency: number
  maxOutputBytes: number
  /** Calls that may wait for a free slot before further calls are refused as busy. */
  maxQueue: number
  projection: ProjectionOptions
  timeoutMs: number
  /**
   * With confirmDestructive, where the person cannot be asked (a client without elicitation, 2025-era HTTP), run the
   * destructive call and leave the approval to the host; otherwise such a call is refused.
   */
  trustHostApproval: boolean
  /** Prewarmed one-shot workers kept ready (0: spawn every command cold). */
  workers: number
}

export const DEFAULT_TIMEOUT_SECONDS = 60
export const DEFAULT_MAX_OUTPUT_BYTES = 1024 * 1024
export const DEFAULT_MAX_QUEUE = 32
export const DEFAULT_WORKERS = 1
export const DEFAULT_MAX_TOOLS = 40
export const DEFAULT_MAX_BYTES = 32 * 1024

/** The flags every server command shares (see src/settings/flags.ts). */
export interface ServerFlags {
  audit?: boolean
  'confirm-destructive'?: boolean
  cwd?: string
  exclude?: string[]
  'max-bytes'?: number
  'max-concurrency'?: number
  'max-output'?: number
  'max-queue'?: number
  'max-tools'?: number
  profile?: string
  'read-only'?: boolean
  timeout?: number
  tools?: string[]
  'trust-host-approval'?: boolean
  workers?: number
}

export function resolveSettings(author: AuthorConfig, flags: ServerFlags): Settings {
  return {
    audit: flags.audit ?? true,
    author,
    confirmDestructive: flags['confirm-destructive'] ?? author.confirmDestructive ?? false,
    defaultCwd: flags.cwd,
    maxConcurrency: flags['max-concurrency'] ?? availableParallelism(),
    maxOutputBytes: flags['max-output'] ?? author.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES,
    maxQueue: flags['max-queue'] ?? DEFAULT_MAX_QUEUE,
    projection: {
      exclude: flags.exclude ?? [],
      maxBytes: flags['max-bytes'] ?? DEFAULT_MAX_BYTES,
      maxTools: flags['max-tools'] ?? DEFAULT_MAX_TOOLS,
      profile: flags.profile,
      readOnly: flags['read-only'] ?? false,
      tools: flags.tools,
    },
    timeoutMs: 1000 * (flags.timeout ?? author.timeout ?? DEFAULT_TIMEOUT_SECONDS),
    trustHostApproval: flags['trust-host-approval'] ?? author.trustHostApproval ?? false,
    workers: flags.workers ?? author.workers ?? DEFAULT_WORKERS,
  }
}

/** Command-id globs: `tasks:*` matches one level below `tasks`, `tasks:**` any depth. Spaces count as `:`. */
export function idPattern(glob: string): RegExp {
  return new RegExp(`^${globSource(glob)}$`)
}

/** A glob that matches a command by id (`apps:create`, `apps:*`) or by topic (`apps` covers `apps:**`). */
export function idOrTopicPattern(glob: string): RegExp {
  return new RegExp(`^${globSource(glob)}(?::.*)?$`)
}

function globSource(glob: string): string {
  return glob
    .trim()
    .replaceAll(' ', ':')
    .split(/(\*\*|\*)/)
    .map((part) => (part === '**' ? '.*' : part === '*' ? '[^:]*' : part.replaceAll(/[.+?^${}()|[\]\\]/g, '\\$&')))
    .join('')
}
