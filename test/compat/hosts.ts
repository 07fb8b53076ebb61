// The hosts of the compatibility matrix: oclif CLIs that carry oclif-plugin-mcp, each with the Node it runs on and
// the way it finds the plugin. Every host runs with its own scratch HOME/XDG dirs, so no user config leaks in.
import {readFileSync} from 'node:fs'
import {join, resolve} from 'node:path'

import {installDir} from '../corpus/clis.js'
import {isolatedEnv} from '../helpers/taskbox.js'

export const ROOT = resolve(import.meta.dirname, '../..')
/** Node 22 from the npm package `node`, installed by run.sh into test/compat/node22 (the project stays on Node 20). */
export const NODE22 = join(ROOT, 'test/compat/node22/node_modules/.bin/node')
export const NODE20 = process.execPath

export interface Host {
  /** `host4`, `heroku`, … (the CLI's bin, and the scoped env prefix `HOST4_…`). */
  bin: string
  /** Extra environment the CLI needs to stay offline and quiet. */
  extraEnv?: Record<string, string>
  /** Plugin roots to link as user plugins (what `<cli> plugins link` writes into the data dir). */
  linked?: string[]
  /** The Node executable the CLI runs on. */
  node: string
  /** Its bin script. */
  script: string
  /** The separator between `mcp` and `stdio`: oclif's topicSeparator. */
  separator: ' ' | ':'
}

/** The version field of a package.json. */
export function versionOf(packageJson: string): string {
  return (JSON.parse(readFileSync(packageJson, 'utf8')) as {version: string}).version
}

export const HOST4: Host = {
  bin: 'host4',
  node: NODE20,
  script: join(ROOT, 'test/fixtures/host-core4/bin/run.js'),
  separator: ' ',
}

/** Fixture hosts on older @oclif/core majors, on Node 20, each with its own node_modules; the plugin is linked in. */
export const HOST2: Host = {
  bin: 'host2',
  linked: [ROOT],
  node: NODE20,
  script: join(ROOT, 'test/fixtures/host-core2/bin/run.js'),
  separator: ' ',
}

export const HOST3: Host = {
  bin: 'host3',
  linked: [ROOT],
  node: NODE20,
  script: join(ROOT, 'test/fixtures/host-core3/bin/run.js'),
  separator: ' ',
}

/** Node 20.18 (the npm package `node`, installed by run.sh into test/compat/node20-18): it cannot require() ES modules. */
export const NODE20_18 = join(ROOT, 'test/compat/node20-18/node_modules/.bin/node')

/** A CommonJS CLI of the oclif v1 era (@oclif/command, @oclif/config 1), with its own node_modules; the plugin is linked. */
export const HOSTV1: Host = {
  bin: 'hostv1',
  linked: [ROOT],
  node: NODE20,
  script: join(ROOT, 'test/fixtures/host-v1/bin/run'),
  separator: ':',
}

export const HOST5: Host = {
  bin: 'host5',
  linked: [ROOT],
  node: NODE22,
  script: join(ROOT, 'test/fixtures/host-core5/bin/run.js'),
  separator: ' ',
}

export const TASKBOX: Host = {
  bin: 'taskbox',
  node: NODE20,
  script: join(ROOT, 'examples/taskbox/bin/run.js'),
  separator: ' ',
}

/** The published heroku CLI: the corpus's pinned install (test/corpus/heroku, installed by run.sh through install.sh). */
export const HEROKU_ROOT = join(installDir('heroku'), 'node_modules/heroku')

export const HEROKU: Host = {
  bin: 'heroku',
  // No auto-update child, no telemetry or analytics workers, no update or release-notes banners.
  extraEnv: {
    DISABLE_TELEMETRY: 'true',
    HEROKU_DISABLE_AUTOUPDATE: '1',
    HEROKU_SKIP_ANALYTICS: '1',
    HEROKU_SKIP_NEW_VERSION_CHECK: 'true',
    HIDE_HEROKU_RELEASE_NOTES: 'true',
  },
  node: NODE20,
  script: join(HEROKU_ROOT, 'bin/run.js'),
  separator: ':',
}

/** Versions the matrix runs with, read from what is installed. */
export const VERSIONS = {
  core4: versionOf(join(ROOT, 'node_modules/@oclif/core/package.json')),
  core2: versionOf(join(ROOT, 'test/fixtures/host-core2/node_modules/@oclif/core/package.json')),
  core3: versionOf(join(ROOT, 'test/fixtures/host-core3/node_modules/@oclif/core/package.json')),
  core5: versionOf(join(ROOT, 'test/fixtures/host-core5/node_modules/@oclif/core/package.json')),
  configV1: versionOf(join(ROOT, 'test/fixtures/host-v1/node_modules/@oclif/config/package.json')),
  heroku: versionOf(join(HEROKU_ROOT, 'package.json')),
  herokuCore: versionOf(join(HEROKU_ROOT, '../@oclif/core/package.json')),
  plugin: versionOf(join(ROOT, 'package.json')),
  inspector: versionOf(join(ROOT, 'test/compat/inspector/node_modules/@modelcontextprotocol/inspector/package.json')),
  sdkV1: versionOf(join(ROOT, 'node_modules/@modelcontextprotocol/sdk/package.json')),
  sdkV2: versionOf(join(ROOT, 'node_modules/@modelcontextprotocol/client/package.json')),
}

/** `mcp stdio` / `mcp:stdio` and the like, for this host. */
export function mcpArgv(host: Host, verb: 'serve' | 'stdio', args: string[] = []): string[] {
  return [host.script, ...(host.separator === ':' ? [`mcp:${verb}`] : ['mcp', verb]), ...args]
}

/** A clean environment for `host` with HOME and the XDG dirs under `home`, and its linked plugins registered. */
export function hostEnv(host: Host, home: string): Record<string, string> {
  const linked = (host.linked ?? []).map((root) => ({name: packageName(root), root}))
  return isolatedEnv(home, host.bin, linked, host.extraEnv)
}

function packageName(root: string): string {
  return (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {name: string}).name
}
