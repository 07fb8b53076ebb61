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

/** The `oclif.mcp` section of the host CLI's package.json. */
export const authorConfigSchema = z.strictObject({
  commands: z.record(z.string().min(1), commandSettingsSchema).optional(),
  docs: z.array(z.string().min(1)).optional(),
  env: envSchema.optional(),
  instructions: z.string().optional(),
  maxOutputBytes: z.number().int().min(1024).optional(),
  omitFlags: z.array(z.string().min(1)).optional(),
  timeout: z.number().positive().max(86_400).optional(),
  title: z.string().optional(),
})

export type CommandSettings = z.infer<typeof commandSettingsSchema>
export type AuthorConfig = z.infer<typeof authorConfigSchema>
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
  return result.data
}

/** Validates a command's static `mcp` property; throws ConfigError naming the command. */
export function parseCommandSettings(raw: unknown, commandId: string): CommandSettings {
  const result = commandSettingsSchema.safeParse(raw ?? {})
  if (!result.success) throw new ConfigError(describeIssues(`the static mcp property of "${commandId}"`, result.error))
  return result.data
}

/** What the server was started with: the author's config plus the user's flags. */
export interface Settings {
  author: AuthorConfig
  /** Directory commands run in when a call gives no `cwd`; undefined means a private empty directory. */
  defaultCwd?: string
  /** Command processes that may run at once. */
  maxConcurrency: number
  maxOutputBytes: number
  /** Calls that may wait for a free slot before further calls are refused as busy. */
  maxQueue: number
  timeoutMs: number
}

export const DEFAULT_TIMEOUT_SECONDS = 60
export const DEFAULT_MAX_OUTPUT_BYTES = 1024 * 1024
export const DEFAULT_MAX_QUEUE = 32

/** The flags every server command shares (see src/flags.ts). */
export interface ServerFlags {
  cwd?: string
  'max-concurrency'?: number
  'max-output'?: number
  'max-queue'?: number
  timeout?: number
}

export function resolveSettings(author: AuthorConfig, flags: ServerFlags): Settings {
  return {
    author,
    defaultCwd: flags.cwd,
    maxConcurrency: flags['max-concurrency'] ?? availableParallelism(),
    maxOutputBytes: flags['max-output'] ?? author.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES,
    maxQueue: flags['max-queue'] ?? DEFAULT_MAX_QUEUE,
    timeoutMs: 1000 * (flags.timeout ?? author.timeout ?? DEFAULT_TIMEOUT_SECONDS),
  }
}

/** Command-id globs: `tasks:*` matches one level below `tasks`, `tasks:**` any depth. Spaces count as `:`. */
export function idPattern(glob: string): RegExp {
  const source = glob
    .trim()
    .replaceAll(' ', ':')
    .split(/(\*\*|\*)/)
    .map((part) => (part === '**' ? '.*' : part === '*' ? '[^:]*' : part.replaceAll(/[.+?^${}()|[\]\\]/g, '\\$&')))
    .join('')
  return new RegExp(`^${source}$`)
}
