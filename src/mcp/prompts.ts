import type {Config} from '@oclif/core'

import {completable, type McpServer, ProtocolError, ProtocolErrorCode, type ServerContext} from '@modelcontextprotocol/server'
import {createRequire} from 'node:module'
import * as z from 'zod'

import type {CommandTool} from '../tools/catalog/registry.js'
import type {Projection} from '../tools/exposure/projection.js'

import {ConfigError, type PromptSettings} from '../settings/author-config.js'
import {findExecutable} from '../tools/exposure/projection.js'

// The author's prompts (`oclif.mcp.prompts`): hosts offer them as slash commands. Each is an ejs template (as oclif
// renders its own help) given the arguments, the CLI's config and `command(id)`, which says how to reach a command
// through this server. Templates are compiled when the server starts, so a broken one stops it with its name.

/** A prompt ready to serve: its settings and how to render it. */
export interface PlannedPrompt {
  /** What its arguments accept; built once, as HTTP registers the prompts on a fresh server per request. */
  argsSchema: z.ZodObject
  name: string
  /** The text, naming each command as the reader's host can call it (`listed`: the commands it lists as tools). */
  render: (args: Record<string, string | undefined>, listed: ReadonlySet<CommandTool>) => string
  settings: PromptSettings
}

/** A template asked about a command this server does not expose. */
class UnreachableCommand extends Error {}

const requireHere = createRequire(import.meta.url)

/** How a prompt names a command: the tool that runs it, or run_command for one its reader's host does not list. */
function commandPhrase(projection: Projection, listed: ReadonlySet<CommandTool>, id: string, prompt: string): string {
  const tool = findExecutable(projection, id)
  if (!tool) throw new UnreachableCommand(`The prompt "${prompt}" names the command "${id}", which this server does not expose (it is unknown, excluded, or outside --read-only).`)
  if (listed.has(tool)) return `the \`${tool.name}\` tool`
  return `\`run_command\` with {"command": "${tool.displayId}"} (describe_command gives its definitionHash)`
}

/**
 * Compiles the author's prompts; throws ConfigError naming a prompt whose template does not compile. A prompt whose
 * template names a command this server does not expose (unknown, excluded, outside --read-only or a read scope's
 * plan) is not served at all: a client is answered as for a prompt that does not exist, and learns neither its text
 * nor the commands it names. Which commands a template names is found by rendering it once with each argument's
 * first declared value (or an empty string); the server's own stderr says which prompts were left out.
 */
export function planPrompts(config: Config, prompts: Record<string, PromptSettings> | undefined, projection: Projection): PlannedPrompt[] {
  const entries = Object.entries(prompts ?? {})
  if (entries.length === 0) return []
  const ejs = requireHere('ejs') as typeof import('ejs')
  return entries.flatMap(([name, settings]) => {
    let template: (data: Record<string, unknown>) => string
    try {
      template = ejs.compile(settings.template, {escape: (text: unknown) => String(text)}) as (data: Record<string, unknown>) => string
    } catch (error) {
      throw new ConfigError(`Invalid MCP settings in package.json oclif.mcp.prompts.${name}.template: ${(error as Error).message.split('\n')[0]}`)
    }

    const render = (args: Record<string, string | undefined>, listed: ReadonlySet<CommandTool>) => template({args, command: (id: string) => commandPhrase(projection, listed, id, name), config})
    const unreachable = namedOutside(template, settings, projection, config)
    if (unreachable) {
      process.stderr.write(`[mcp] prompt "${name}" is not served: it names the command "${unreachable}", which this server does not expose (unknown, excluded, or outside --read-only).\n`)
      return []
    }

    return [{argsSchema: argumentsSchema(settings), name, render, settings}]
  })
}

/** The first command a trial render of the template names that the projection does not expose, if any. */
function namedOutside(template: (data: Record<string, unknown>) => string, settings: PromptSettings, projection: Projection, config: Config): string | undefined {
  const args = Object.fromEntries((settings.arguments ?? []).map((argument) => [argument.name, argument.values?.[0] ?? '']))
  let outside: string | undefined
  try {
    template({args, command: (id: string) => ((outside ??= findExecutable(projection, id) ? undefined : id), ''), config})
  } catch {
    // A template that fails on the trial values is judged when it is asked for, with real ones.
  }

  return outside
}

/** What a prompt's arguments accept: strings, or one of the declared values (offered by completion/complete). */
function argumentsSchema(settings: PromptSettings): z.ZodObject {
  const shape: Record<string, z.ZodType> = {}
  for (const argument of settings.arguments ?? []) {
    const {values} = argument
    let schema: z.ZodType = values ? z.enum(values as [string, ...string[]]) : z.string()
    if (argument.description) schema = schema.describe(argument.description)
    if (values) schema = completable(schema, (typed: unknown) => values.filter((value) => value.startsWith(String(typed ?? '')))) as unknown as z.ZodType
    shape[argument.name] = argument.required ? schema : schema.optional()
  }

  return z.object(shape)
}

/** The prompts, each naming commands as the asking host can call them (`listedOf`: what it lists as tools). */
export function registerPrompts(server: McpServer, prompts: readonly PlannedPrompt[], listedOf: (ctx: ServerContext) => ReadonlySet<CommandTool>): void {
  for (const prompt of prompts) {
    const {settings} = prompt
    server.registerPrompt(prompt.name, {argsSchema: prompt.argsSchema, description: settings.description, title: settings.title}, (args, ctx) => {
      let text: string
      try {
        text = prompt.render(args as Record<string, string | undefined>, listedOf(ctx))
      } catch (error) {
        // Named a command outside the boundary with these arguments: the answer for a prompt that does not exist (the
        // SDK's own words), so nothing of the template or the command shows.
        if (error instanceof UnreachableCommand) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Prompt ${prompt.name} not found`)
        // ejs puts the template's lines around the place that failed into its message: only the failure itself is said.
        const message = (error as Error).message.split('\n\n').at(-1)
        throw new ProtocolError(ProtocolErrorCode.InternalError, `The prompt "${prompt.name}" could not be rendered: ${message}`)
      }

      return {...(settings.description ? {description: settings.description} : {}), messages: [{content: {text, type: 'text'}, role: 'user'}]}
    })
  }
}
