import type {PackPlan} from './pack-plan.js'

import {clip} from '../skill/agent-skill.js'

// The MCP Registry's server.json (schema 2025-12-11) for the CLI's npm package: `npx <package> mcp stdio` with the
// server flags given, the credential variables as secret environment variables, and a remote entry for an `mcp serve`
// URL. Nothing is published: `publishProblems` says what the registry would refuse and what is missing.

export const SERVER_SCHEMA = 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json'
const NPM_REGISTRY = 'https://registry.npmjs.org'
/** The registry's limits (server.schema.json 2025-12-11 and its semantic checks). */
const NAME = /^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/
const DESCRIPTION_MAX = 100
const TITLE_MAX = 100
const VERSION_RANGE = /^[\^~<>=]|\s-\s|\|\||(?:^|\.)[x*](?:\.|$)|^latest$/i

/** The owner of a GitHub repository URL, as the registry namespaces it (`io.github.<owner>`). */
function githubOwner(repository: string | undefined): string | undefined {
  return repository ? /^https:\/\/github\.com\/([^/]+)\//.exec(`${repository}/`)?.[1] : undefined
}

/** The name the package claims (`mcpName`), else one under the repository's GitHub owner. */
export function registryName(plan: PackPlan): string | undefined {
  if (plan.facts.mcpName) return plan.facts.mcpName
  const owner = githubOwner(plan.facts.repository)
  return owner ? `io.github.${owner}/${plan.name}` : undefined
}

/** The launch arguments (`mcp stdio --read-only …`) as the registry's positional and named arguments. */
function packageArguments(args: readonly string[]): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = []
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]
    if (!arg.startsWith('--')) {
      out.push({type: 'positional', value: arg})
      continue
    }

    const [name, inline] = arg.split(/=(.*)/s, 2)
    const next = args[i + 1]
    if (inline !== undefined) out.push({name, type: 'named', value: inline})
    else if (next !== undefined && !next.startsWith('--')) {
      out.push({name, type: 'named', value: next})
      i++
    } else out.push({name, type: 'named'})
  }

  return out
}

export function serverJson(plan: PackPlan, remote?: string): Record<string, unknown> {
  const {facts} = plan
  const name = registryName(plan) ?? `io.github.OWNER/${plan.name}`
  const environmentVariables = plan.credentials.map((c) => ({description: c.description, format: 'string', isRequired: false, isSecret: true, name: c.name}))
  return {
    $schema: SERVER_SCHEMA,
    name,
    ...(plan.title ? {title: clip(plan.title, TITLE_MAX)} : {}),
    description: clip(facts.description ?? `${plan.base.config.bin} commands as MCP tools`, DESCRIPTION_MAX),
    version: facts.version,
    ...(facts.repository && /^https:\/\/github\.com\//.test(facts.repository) ? {repository: {source: 'github', url: facts.repository}} : {}),
    ...(facts.homepage?.startsWith('https://') ? {websiteUrl: facts.homepage} : {}),
    packages: [
      {
        registryType: 'npm',
        registryBaseUrl: NPM_REGISTRY,
        identifier: facts.name,
        version: facts.version,
        runtimeHint: 'npx',
        transport: {type: 'stdio'},
        packageArguments: packageArguments(plan.args),
        ...(environmentVariables.length > 0 ? {environmentVariables} : {}),
      },
    ],
    ...(remote
      ? {
          remotes: [
            {
              type: 'streamable-http',
              url: remote,
              headers: [{description: "The server's bearer token", isRequired: true, isSecret: true, name: 'Authorization', value: 'Bearer {token}', variables: {token: {isRequired: true, isSecret: true}}}],
            },
          ],
        }
      : {}),
  }
}

export interface PublishCheck {
  /** What the registry would refuse, or what is missing to publish: each a sentence saying what to do. */
  missing: string[]
  /** What publishing will ask for (the namespace's proof), and what is shown shortened. */
  notes: string[]
}

export function publishCheck(plan: PackPlan, json: Record<string, unknown>, remote?: string): PublishCheck {
  const problems: string[] = []
  const notes: string[] = []
  const {facts} = plan
  const name = String(json.name)
  if (!registryName(plan))
    problems.push(
      'No registry name: add "mcpName" to package.json (io.github.<your GitHub user or org>/<name>, or a reverse-DNS name such as com.example/<name> for a domain you can prove), or a GitHub "repository", and pack again.',
    )
  else if (!NAME.test(name) || name.split('/').some((part) => !/^[a-zA-Z0-9].*[a-zA-Z0-9]$|^[a-zA-Z0-9]$/.test(part)))
    problems.push(`"${name}" is not a registry name: <namespace>/<name>, letters, digits, "." and "-" (and "_" after the slash), each part starting and ending with a letter or digit.`)
  if (facts.private) problems.push(`package.json says "private": true: ${facts.name} cannot be published to npm, so the registry cannot list it.`)
  if (facts.mcpName === undefined && registryName(plan))
    problems.push(`package.json has no "mcpName": add "mcpName": "${name}" and publish ${facts.name}@${facts.version} with it; the registry checks that the published version claims this name.`)
  const namespace = name.split('/')[0]
  if (namespace.startsWith('io.github.'))
    notes.push(`The namespace ${namespace} is granted by signing in as GitHub user or organisation "${namespace.slice('io.github.'.length)}" (mcp-publisher login github).`)
  else if (registryName(plan))
    notes.push(`The namespace ${namespace} is granted by proving the domain ${namespace.split('.').reverse().join('.')} (mcp-publisher login dns or http).`)
  if (VERSION_RANGE.test(facts.version)) problems.push(`The version "${facts.version}" is a range; the registry takes one exact version.`)
  if ((facts.description ?? '').length > DESCRIPTION_MAX) notes.push(`package.json's description is cut to ${DESCRIPTION_MAX} characters, the registry's limit.`)
  if (!facts.description) problems.push('package.json has no "description": the registry shows one line about the server.')
  if (remote !== undefined && !/^https:\/\//.test(remote)) problems.push(`The remote URL ${remote} is not https: the registry lists only https remotes.`)
  return {missing: problems, notes}
}
