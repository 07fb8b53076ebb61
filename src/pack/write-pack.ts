import {existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {dirname, join} from 'node:path'

import type {BundleKind} from './mcpb.js'
import type {PackHost} from './names.js'
import type {PackPlan} from './pack-plan.js'

import {definitionHash} from '../tools/catalog/definition-hash.js'
import {type Files, HOST_FOLDERS, HOST_LABEL, installSteps, requirement} from './host-plugins.js'
import {planBundle, writeBundle} from './mcpb.js'
import {PackError} from './pack-plan.js'
import {publishCheck, type PublishCheck, serverJson} from './server-json.js'

// Writes what `mcp pack` makes into one folder, in place: each host's folder, the bundle, server.json, a README on
// installing them, and pack.json, the record of what was written and which tools it served. A second run after the CLI
// changed rewrites what differs, removes the files it wrote before and no longer makes, and says how the tools changed.

export const RECORD_FILE = 'pack.json'

interface ToolRecord {
  hash: string
  name: string
}

interface PackRecord {
  cli: string
  files: string[]
  tools: Record<string, ToolRecord>
  version: string
}

export type FileStatus = 'added' | 'removed' | 'unchanged' | 'updated'

export interface PackReport {
  bundle?: {bytes: number; file: string; kind: BundleKind; tools: number}
  files: {path: string; status: FileStatus}[]
  hosts: {folder: string; host: PackHost; longestTool: number; maxToolName: number; prefix: string; server: string}[]
  out: string
  registry?: {check: PublishCheck; file: string}
  tools: {added: string[]; changed: string[]; removed: string[]; total: number}
  version: {before?: string; now: string}
}

export interface PackOptions {
  bundle?: BundleKind
  remote?: string
  withRegistry: boolean
}

function readRecord(out: string): PackRecord | undefined {
  const file = join(out, RECORD_FILE)
  if (!existsSync(file)) {
    if (existsSync(out) && readdirSync(out).length > 0)
      throw new PackError(`${out} has files but no ${RECORD_FILE}: it was not written by mcp pack, and nothing in it is replaced. Give an empty or new folder with --out.`)
    return undefined
  }

  try {
    return JSON.parse(readFileSync(file, 'utf8')) as PackRecord
  } catch (error) {
    throw new PackError(`${file} cannot be read (${(error as Error).message}): remove it, or give another --out.`)
  }
}

/** Writes `text` at `path` unless it already holds it; says which. */
function put(out: string, path: string, text: string): FileStatus {
  const file = join(out, path)
  const before = existsSync(file) ? readFileSync(file, 'utf8') : undefined
  if (before === text) return 'unchanged'
  mkdirSync(dirname(file), {recursive: true})
  writeFileSync(file, text)
  return before === undefined ? 'added' : 'updated'
}

function toolRecords(plan: PackPlan): Record<string, ToolRecord> {
  const tools = [...plan.base.projection.executable.values()].sort((a, b) => (a.id < b.id ? -1 : 1))
  return Object.fromEntries(tools.map((tool) => [tool.id, {hash: definitionHash(tool), name: tool.name}]))
}

function installGuide(plan: PackPlan, hosts: readonly PackHost[], bundled: boolean): string {
  const {bin} = plan.base.config
  const lines = [`# ${plan.title ?? bin} for agent hosts`, '', `The commands of \`${bin}\` ${plan.facts.version} as an MCP server and an Agent Skill, one package per host. Each needs ${requirement(plan)}.`, '']
  for (const host of hosts) if (host !== 'claude-desktop' || bundled) lines.push(`## ${HOST_LABEL[host]}`, '', ...installSteps(plan, host), '')
  lines.push(`Without a host package: \`${bin} mcp config --client <host> --write\` and \`${bin} mcp skill --write\`.`, '')
  return lines.join('\n')
}

export async function writePack(out: string, plan: PackPlan, options: PackOptions): Promise<PackReport> {
  const record = readRecord(out)
  mkdirSync(out, {recursive: true})
  const written = new Map<string, FileStatus>()
  const hosts = plan.hosts.map((pack) => pack.host)
  const folders: PackReport['hosts'] = []
  for (const pack of plan.hosts) {
    if (pack.host === 'claude-desktop') continue
    const files: Files = HOST_FOLDERS[pack.host](plan)
    for (const [path, text] of files) written.set(`${pack.host}/${path}`, put(out, `${pack.host}/${path}`, text))
    const longestTool = Math.max(...pack.plan.callable.map((entry) => entry.tool.name.length))
    folders.push({folder: join(out, pack.host), host: pack.host, longestTool, maxToolName: pack.maxToolName, prefix: pack.prefix, server: pack.server})
  }

  let bundle: PackReport['bundle']
  if (options.bundle && hosts.includes('claude-desktop')) {
    const planned = planBundle(plan, options.bundle)
    const file = `${plan.name}.mcpb`
    const {bytes, status} = await writeBundle(planned, join(out, file))
    written.set(file, status)
    bundle = {bytes, file: join(out, file), kind: options.bundle, tools: (planned.manifest.tools as unknown[]).length}
  }

  let registry: PackReport['registry']
  if (options.withRegistry) {
    const json = serverJson(plan, options.remote)
    written.set('server.json', put(out, 'server.json', `${JSON.stringify(json, null, 2)}\n`))
    registry = {check: publishCheck(plan, json, options.remote), file: join(out, 'server.json')}
  }

  written.set('README.md', put(out, 'README.md', installGuide(plan, hosts, bundle !== undefined)))
  const removed = (record?.files ?? []).filter((path) => !written.has(path) && path !== RECORD_FILE)
  for (const path of removed) rmSync(join(out, path), {force: true})

  const tools = toolRecords(plan)
  const before = record?.tools ?? {}
  const report: PackReport['tools'] = {
    added: Object.keys(tools).filter((id) => record && !(id in before)),
    changed: Object.keys(tools).filter((id) => id in before && (before[id].hash !== tools[id].hash || before[id].name !== tools[id].name)),
    removed: Object.keys(before).filter((id) => !(id in tools)),
    total: Object.keys(tools).length,
  }
  const next: PackRecord = {cli: plan.base.config.bin, files: [...written.keys()].sort(), tools, version: plan.facts.version}
  put(out, RECORD_FILE, `${JSON.stringify(next, null, 2)}\n`)
  return {
    bundle,
    files: [...[...written].map(([path, status]) => ({path, status})), ...removed.map((path) => ({path, status: 'removed' as const}))],
    hosts: folders,
    out,
    registry,
    tools: report,
    version: {before: record?.version, now: plan.facts.version},
  }
}
