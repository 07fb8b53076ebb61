import * as z from 'zod'

import type {NotListedReason, Projection} from '../exposure/projection.js'

import {type BuiltinScope, type BuiltinTool, builtinTool, type HostListing, jsonResult} from './builtin-tool.js'

/**
 * describe_capabilities: always listed, never filtered. Everything it reports is read off the projection and the
 * tool names the caller's host is listed (`listed`), never recomputed.
 */
export function describeCapabilitiesTool({listingOf, projection}: BuiltinScope): BuiltinTool {
  const answers = new Map<string, ReturnType<typeof jsonResult>>()
  return builtinTool({
    description:
      'What this server exposes and why: the tools listed, profile, limits, read-only mode, and why each unlisted command is left out (and whether run_command reaches it).',
    handler(_input, context) {
      // Nothing in it changes while the server runs: worked out on a host's first call (as cli_info is).
      const key = context.host?.id ?? 'unknown'
      const answer = answers.get(key) ?? answers.set(key, capabilitiesResult(projection, listingOf(context.host))).get(key)!
      return {...answer, content: [...answer.content]}
    },
    name: 'describe_capabilities',
    schema: z.strictObject({}),
    title: 'Describe capabilities',
  })
}

/**
 * Left out by the CLI's author (hidden, excluded, just-in-time stubs): counted, never named, so the model cannot use
 * this diagnostic to learn what the author kept out of sight. Everything else is named with its reason.
 */
const UNNAMED: ReadonlySet<NotListedReason> = new Set(['excluded by author config', 'hidden', 'just-in-time plugin stub'])

/** What this host is listed and why the other commands are not, for the host's view (src/mcp/plan.ts). */
function capabilitiesResult(projection: Projection, view: HostListing) {
  const tools = view.tools.map((entry) => entry.tool.name)
  const names = new Set(tools)
  const unlisted = [...projection.executable.values()].filter((tool) => !names.has(tool.name)).length
  const unnamed: Partial<Record<NotListedReason, number>> = {}
  for (const {reason} of view.notListed) if (UNNAMED.has(reason)) unnamed[reason] = (unnamed[reason] ?? 0) + 1
  const data = {
    gateway: {count: unlisted, runWith: 'run_command'},
    limits: projection.limits,
    notListed: view.notListed.filter((n) => !UNNAMED.has(n.reason)).map(({detail, id, reason}) => ({command: id, reason, ...(detail ? {detail} : {})})),
    notNamed: unnamed,
    profile: {name: projection.profile, source: projection.bandSource},
    readOnly: projection.readOnly,
    tools,
    typedBand: {bytes: projection.bandBytes, count: projection.band.length},
  }
  const summary = `${tools.length} tools listed (${projection.executable.size - unlisted} of them commands); ${unlisted} more commands through run_command; ${projection.readOnly ? 'read-only' : 'read-write'}`
  return jsonResult(summary, data)
}
