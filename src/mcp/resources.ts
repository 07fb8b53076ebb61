import {type ListResourcesResult, type McpServer, ProtocolError, ProtocolErrorCode, type Resource, ResourceNotFoundError, ResourceTemplate, type ServerContext} from '@modelcontextprotocol/server'


import type {AgentHost} from '../settings/agent-hosts.js'
import type {CallEnvironment} from '../tools/execution/call-environment.js'
import type {ServerPlan} from './plan.js'

import {uriScheme} from '../host/spelling.js'
import {commandReference} from '../tools/catalog/command-reference.js'
import {readDocText} from '../tools/builtins/docs-index.js'
import {findExecutable, visibleRun} from '../tools/exposure/projection.js'
import {closeMatches} from '../tools/exposure/suggest.js'
import {principalOf} from './principal.js'

// The server's resources: the agent instructions, the CLI's docs (the set search_docs serves), a reference page per
// command inside the boundary, and the whole outputs kept for cut results and jobs. resources/list is paginated and
// lists the first three kinds; outputs are named by the results that need them.

/** Entries per resources/list page. */
export const RESOURCES_PAGE = 100
/** Docs and command references are fixed for a version of the CLI: clients may keep them for a day. */
const FIXED = {cacheScope: 'public' as const, ttlMs: 24 * 60 * 60 * 1000}
/** How many completions one completion/complete answer holds (the protocol's own limit). */
const MAX_COMPLETIONS = 100

/** An opaque resources/list cursor: the offset of the next page. */
const cursorOf = (offset: number) => Buffer.from(String(offset)).toString('base64url')
function offsetOf(cursor: string | undefined): number | undefined {
  if (cursor === undefined) return 0
  const offset = Number(Buffer.from(cursor, 'base64url').toString())
  return Number.isSafeInteger(offset) && offset >= 0 ? offset : undefined
}

/** Ids that begin with what was typed first, then close matches (typos), at most MAX_COMPLETIONS. */
function complete(value: string, candidates: readonly string[]): string[] {
  const typed = value.toLowerCase()
  const starting = candidates.filter((candidate) => candidate.toLowerCase().startsWith(typed))
  const close = typed.length >= 3 ? closeMatches(typed, candidates).filter((c) => !starting.includes(c)) : []
  return [...starting, ...close].slice(0, MAX_COMPLETIONS)
}

const listings = new WeakMap<ServerPlan, Promise<Resource[]>>()

/** Everything resources/list pages through: fixed for the plan, so worked out once per process (HTTP builds a server per request). */
function listedResources(plan: ServerPlan): Promise<Resource[]> {
  let listing = listings.get(plan)
  if (!listing) {
    const {bin} = plan.config
    const scheme = uriScheme(bin)
    const {uri} = plan.instructions
    listing = plan.docs().then((docs) => [
      {description: `How to use ${plan.info.name} through this server`, mimeType: 'text/markdown', name: 'agent-instructions', title: 'Agent instructions', uri},
      ...[...docs.values()].map((doc) => ({mimeType: 'text/markdown', name: doc.path, title: doc.title, uri: `${scheme}://docs/${doc.path}`})),
      ...[...plan.projection.executable.values()].map((tool) => ({description: tool.summary || undefined, mimeType: 'text/markdown', name: `${bin} ${tool.displayId}`, uri: `${scheme}://commands/${tool.id}`})),
    ])
    listings.set(plan, listing)
  }

  return listing
}

export function registerResources(server: McpServer, plan: ServerPlan, env: CallEnvironment, hostOf: (ctx: ServerContext) => AgentHost | undefined = () => undefined): void {
  const {config} = plan
  const {outputs} = env
  const scheme = uriScheme(config.bin)
  const {markdown, uri: instructionsUri} = plan.instructions
  const ids = [...plan.projection.executable.keys()]

  server.registerResource(
    'agent-instructions',
    instructionsUri,
    {description: `How to use ${plan.info.name} through this server`, mimeType: 'text/markdown', title: 'Agent instructions'},
    (href) => ({contents: [{mimeType: 'text/markdown', text: markdown, uri: href.href}]}),
  )

  const docs = new ResourceTemplate(`${scheme}://docs/{+path}`, {complete: {path: async (value) => complete(value, [...(await plan.docs()).keys()])}, list: undefined})
  server.registerResource('docs', docs, {cacheHint: FIXED, description: `The Markdown docs of ${config.bin} and its plugins`, mimeType: 'text/markdown', title: 'Docs'}, async (href, variables) => {
    const doc = (await plan.docs()).get(decodeURIComponent(String(variables.path)))
    const text = doc && (await readDocText(doc))
    if (text === undefined) throw new ResourceNotFoundError(href.href, `No document at ${href.href}; resources/list names every one.`)
    return {contents: [{mimeType: 'text/markdown', text, uri: href.href}]}
  })

  // Only commands inside the boundary: one outside it reads like one that does not exist, as everywhere else.
  const reference = new ResourceTemplate(`${scheme}://commands/{id}`, {complete: {id: (value) => complete(value, ids)}, list: undefined})
  server.registerResource('command-reference', reference, {cacheHint: FIXED, description: `A ${config.bin} command's reference: usage, flags, args, examples, how to call it here`, mimeType: 'text/markdown', title: 'Command reference'}, (href, variables, ctx) => {
    const tool = findExecutable(plan.projection, decodeURIComponent(String(variables.id)))
    if (!tool) throw new ResourceNotFoundError(href.href, `No command at ${href.href}; resources/list names every one.`)
    // How to call it depends on whether the reader's host lists it as a tool.
    return {contents: [{mimeType: 'text/markdown', text: commandReference(tool, config, plan.commandsFor(hostOf(ctx))), uri: href.href}]}
  })

  const output = new ResourceTemplate(`${scheme}://output/{id}/{stream}`, {list: undefined})
  server.registerResource('command-output', output, {description: 'The whole output of a command run whose result was cut, or of a job', mimeType: 'text/plain', title: 'Command output'}, async (href, variables, ctx) => {
    const kept = await outputs.find(String(variables.id), principalOf(ctx))
    const stream = String(variables.stream)
    if (!kept || (stream !== 'stdout' && stream !== 'stderr') || !visibleRun(env.boundary, plan.projection.readOnly, kept.command)) {
      throw new ResourceNotFoundError(href.href, `No kept output at ${href.href}: it was never kept, has been evicted for newer ones, or belonged to a server process that has stopped.`)
    }

    return {contents: [{mimeType: 'text/plain', text: kept.text(stream), uri: href.href}]}
  })

  // Paginated, which the SDK's own handler is not: a CLI can have hundreds of commands and docs.
  server.server.setRequestHandler('resources/list', async (request): Promise<ListResourcesResult> => {
    const offset = offsetOf(request.params?.cursor)
    if (offset === undefined) {
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'Invalid cursor: pass the nextCursor of an earlier resources/list answer.')
    }

    const all = await listedResources(plan)
    const page = all.slice(offset, offset + RESOURCES_PAGE)
    const next = offset + RESOURCES_PAGE
    return {resources: page, ...(next < all.length ? {nextCursor: cursorOf(next)} : {})}
  })
}
