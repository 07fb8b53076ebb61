import type {Config} from '@oclif/core'

import yazl from 'yazl'

import {createWriteStream, existsSync, readFileSync, renameSync, rmSync, statSync} from 'node:fs'
import {relative, sep} from 'node:path'
import {pipeline} from 'node:stream/promises'

import type {PackPlan} from './pack-plan.js'

import {hostBinScript} from '../host/bin-script.js'
import {AGENT_HOSTS} from '../settings/agent-hosts.js'
import {type Carried, carry, ownRoot} from './carry.js'
import {PackError} from './pack-plan.js'
import {summaryOf} from './host-plugins.js'

// A Claude Desktop bundle (.mcpb: a zip with manifest.json, manifest 0.3, as @anthropic-ai/mcpb validates it). Two
// kinds: `carry` holds the CLI and its node_modules and runs them with the Node Claude Desktop ships (nothing needs to
// be installed, at the price of its size, and it runs the version packed); `launch` holds only the manifest and starts
// the CLI installed on the person's PATH (small, always their own install, but Claude Desktop starts servers with a
// minimal PATH: a CLI installed under nvm or Homebrew is not found). Credentials are asked for in Claude Desktop's
// settings form (user_config, kept in the OS keychain) and given to the server as its environment.

export const BUNDLE_KINDS = ['carry', 'launch'] as const
export type BundleKind = (typeof BUNDLE_KINDS)[number]

export const MCPB_MANIFEST_VERSION = '0.3'

/** Where a carried CLI lies inside the bundle. */
const SERVER_FOLDER = 'server'

export interface Bundle {
  /** Carried files (none for `launch`). */
  carried?: Carried
  kind: BundleKind
  manifest: Record<string, unknown>
}

/** user_config keys are the credential variables' own names: `${user_config.HEROKU_API_KEY}`. */
function userConfig(plan: PackPlan): Record<string, unknown> | undefined {
  if (plan.credentials.length === 0) return undefined
  return Object.fromEntries(
    plan.credentials.map((c) => [c.name, {description: c.description, required: false, sensitive: true, title: c.name, type: 'string'}]),
  )
}

export function planBundle(plan: PackPlan, kind: BundleKind): Bundle {
  const {config} = plan.base
  const desktop = plan.hosts.find((pack) => pack.host === 'claude-desktop')
  if (!desktop) throw new Error('no Claude Desktop package planned')
  const {facts} = plan
  const env = Object.fromEntries(plan.credentials.map((c) => [c.name, `\${user_config.${c.name}}`]))
  let carried: Carried | undefined
  let server: Record<string, unknown>
  if (kind === 'carry') {
    carried = carryCli(config)
    const inBundle = relative(config.root, hostBinScript(config)).split(sep).join('/')
    if (!carried.files.some((file) => file.to === inBundle)) throw new PackError(`Cannot carry ${config.bin} in the bundle: its bin script ${inBundle} is not among the files its package publishes.`)
    const script = `${SERVER_FOLDER}/${inBundle}`
    server = {entry_point: script, mcp_config: {args: [`\${__dirname}/${script}`, ...desktop.launch.args], command: 'node', env}, type: 'node'}
  } else {
    server = {entry_point: desktop.launch.command, mcp_config: {args: desktop.launch.args, command: desktop.launch.command, env}, type: 'binary'}
  }

  const view = desktop.plan.viewFor(AGENT_HOSTS['claude-desktop'])
  const tools = view.tools.map((entry) => ({description: entry.tool.description.split('\n')[0], name: entry.tool.name}))
  const settingsForm = userConfig(plan)
  const manifest: Record<string, unknown> = {
    manifest_version: MCPB_MANIFEST_VERSION,
    name: plan.name,
    ...(plan.title ? {display_name: plan.title} : {}),
    version: facts.version,
    description: summaryOf(plan),
    author: facts.author ?? {name: facts.name},
    ...(facts.repository ? {repository: {type: 'git', url: facts.repository}} : {}),
    ...(facts.homepage ? {homepage: facts.homepage} : {}),
    server,
    tools,
    // The gateway (find_commands, run_command) reaches commands that are not listed one by one.
    tools_generated: view.notListed.length > 0,
    ...(plan.base.prompts.length > 0 ? {prompts_generated: true} : {}),
    ...(facts.keywords.length > 0 ? {keywords: facts.keywords} : {}),
    ...(facts.license ? {license: facts.license} : {}),
    compatibility: {
      platforms: facts.platforms ?? ['darwin', 'linux', 'win32'],
      ...(facts.node ? {runtimes: {node: facts.node}} : {}),
    },
    ...(settingsForm ? {user_config: settingsForm} : {}),
  }
  return {carried, kind, manifest}
}

function carryCli(config: Config): Carried {
  let carried: Carried
  try {
    carried = carry(config.root)
  } catch (error) {
    throw new PackError(`Cannot carry ${config.bin} in the bundle: ${(error as Error).message}. Install its dependencies, or make a bundle that launches the installed CLI (--bundle launch).`)
  }

  // A carried CLI must contain this plugin, or its server would have no `mcp stdio`.
  if (!carried.packages.includes(ownRoot()))
    throw new PackError(
      `${config.bin} does not depend on oclif-plugin-mcp (it was added with "plugins install" or "plugins link"), so a bundle carrying ${config.bin} would have no "mcp stdio". Add the plugin to the CLI's dependencies and oclif.plugins, or make a bundle that launches the installed CLI (--bundle launch).`,
    )
  return carried
}

/**
 * Writes the .mcpb: manifest.json first, then the carried files under server/ (modes kept, times fixed, so the same
 * input makes the same bytes). An existing bundle with the same bytes is left as it is.
 */
export async function writeBundle(bundle: Bundle, file: string): Promise<{bytes: number; status: 'added' | 'unchanged' | 'updated'}> {
  const zip = new yazl.ZipFile()
  const fixed = new Date('2000-01-01T00:00:00Z')
  zip.addBuffer(Buffer.from(`${JSON.stringify(bundle.manifest, null, 2)}\n`), 'manifest.json', {mode: 0o100644, mtime: fixed})
  for (const entry of bundle.carried?.files ?? []) zip.addFile(entry.from, `${SERVER_FOLDER}/${entry.to}`, {mtime: fixed})
  zip.end()
  const partial = `${file}.partial`
  const out = createWriteStream(partial)
  await pipeline(zip.outputStream, out)
  const bytes = out.bytesWritten
  if (!existsSync(file)) {
    renameSync(partial, file)
    return {bytes, status: 'added'}
  }

  const same = statSync(file).size === bytes && readFileSync(file).equals(readFileSync(partial))
  if (same) rmSync(partial)
  else renameSync(partial, file)
  return {bytes, status: same ? 'unchanged' : 'updated'}
}
