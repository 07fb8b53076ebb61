// The corpus: published oclif CLIs from the npm registry, pinned in test/corpus/<name>/package-lock.json and
// installed by test/corpus/install.sh into a cache outside the repository. Each one gets the plugin the way its users
// or authors would add it, in a scratch HOME of its own.
import {spawn} from 'node:child_process'
import {createHash} from 'node:crypto'
import {existsSync, lstatSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync} from 'node:fs'
import {homedir} from 'node:os'
import {join, resolve} from 'node:path'

export const ROOT = resolve(import.meta.dirname, '../..')
const HERE = join(ROOT, 'test/corpus')

/** A call to make through the server: a tool and its arguments (cwd is the test's project directory). */
export interface Call {
  arguments?: Record<string, unknown>
  tool: string
}

export interface CorpusCli {
  /** How the plugin is added: as a linked user plugin in the CLI's data dir (what `<cli> plugins link` writes), or,
   * for a CLI without plugin-plugins, listed in the CLI's own package.json the way its author would. */
  add: 'author' | 'link'
  bin: string
  /** The CLI's data dir under a scratch HOME (where its user plugins are recorded). */
  dataDir: (home: string) => string
  /** More environment the CLI needs to stay offline, quiet and inside the scratch HOME. */
  env?: (home: string) => Record<string, string>
  /** Files the CLI needs in the scratch HOME (by path under it) to stay offline and quiet. */
  files?: Record<string, string>
  /** A call that fails offline, and what its message must say. */
  failing: Call & {says: RegExp}
  /** Calls that work offline and answer the same every time: a warm worker's result must equal a cold run's. */
  offline: Call[]
  /** The directory of test/corpus/<name> and of its cached install. */
  name: string
  /** Which Node runs it: the project's (20), or the corpus's Node 22. */
  node: 20 | 22
  package: string
  /** Its bin script, relative to the package. */
  script: string
  separator: ' ' | ':'
}

const xdgData = (dir: string) => (home: string) => join(home, 'data', dir)

export const CORPUS: readonly CorpusCli[] = [
  {
    add: 'link',
    bin: 'heroku',
    dataDir: xdgData('heroku'),
    env: () => ({HEROKU_DISABLE_AUTOUPDATE: '1', HEROKU_SKIP_ANALYTICS: '1', HIDE_HEROKU_RELEASE_NOTES: 'true'}),
    failing: {arguments: {extra_args: ['no:such:command']}, says: /command no:such:command not found/, tool: 'which'},
    name: 'heroku',
    node: 20,
    offline: [{tool: 'version'}, {arguments: {extra_args: ['apps:info']}, tool: 'which'}],
    package: 'heroku',
    script: 'bin/run.js',
    separator: ':',
  },
  {
    add: 'link',
    bin: 'sf',
    dataDir: xdgData('sf'),
    env: () => ({SF_AUTOUPDATE_DISABLE: 'true', SF_DISABLE_TELEMETRY: 'true', SF_HIDE_RELEASE_NOTES: 'true'}),
    failing: {arguments: {extra_args: ['no:such:command']}, says: /no:such:command/, tool: 'which'},
    name: 'sf',
    node: 22,
    offline: [{tool: 'version'}, {arguments: {extra_args: ['org:list']}, tool: 'which'}, {tool: 'alias_list'}],
    package: '@salesforce/cli',
    script: 'bin/run.js',
    separator: ' ',
  },
  {
    add: 'link',
    bin: 'shopify',
    dataDir: xdgData('@shopify/cli'),
    env: () => ({SHOPIFY_CLI_NO_ANALYTICS: '1'}),
    failing: {arguments: {path: '/nonexistent/theme'}, says: /nonexistent/, tool: 'theme_check'},
    name: 'shopify',
    node: 22,
    offline: [{tool: 'version'}, {tool: 'config_autocorrect_status'}],
    package: '@shopify/cli',
    script: 'bin/run.js',
    separator: ' ',
  },
  {
    add: 'author',
    bin: 'asyncapi',
    dataDir: xdgData('@asyncapi/cli'),
    // Its telemetry is off only by its own analytics file (what `asyncapi config analytics --disable` writes): without
    // it every command waits for a metrics host's DNS answer, seconds in a sandbox with no network.
    env: (home) => ({ASYNCAPI_METRICS_CONFIG_PATH: join(home, '.asyncapi-analytics')}),
    files: {'.asyncapi-analytics': JSON.stringify({analyticsEnabled: 'false', infoMessageShown: 'true', userID: 'corpus'})},
    failing: {arguments: {'spec-file': '/nonexistent/asyncapi.yaml'}, says: /error locating AsyncAPI document/, tool: 'validate'},
    name: 'asyncapi',
    node: 22,
    offline: [{tool: 'config_context_list'}],
    package: '@asyncapi/cli',
    script: 'bin/run_bin',
    separator: ' ',
  },
  {
    add: 'link',
    bin: 'twilio',
    // twilio-cli keeps its data in ~/.twilio-cli unless told otherwise (@twilio/cli-core's configureEnv).
    dataDir: (home) => join(home, '.twilio-cli'),
    failing: {arguments: {profile: 'no-such-profile'}, says: /no-such-profile/, tool: 'profiles_use'},
    name: 'twilio',
    node: 20,
    offline: [{tool: 'version'}, {tool: 'profiles_list'}],
    package: 'twilio-cli',
    script: 'bin/run',
    separator: ' ',
  },
  {
    // No plugin-plugins: added the author's way. Its init hook refuses any Node before 22.
    add: 'author',
    bin: 'zapier-platform',
    dataDir: xdgData('zapier-platform'),
    env: () => ({NO_UPDATE_NOTIFIER: '1'}),
    failing: {says: /package\.json/, tool: 'describe'},
    name: 'zapier',
    node: 22,
    offline: [{tool: 'help'}],
    package: 'zapier-platform-cli',
    script: 'src/bin/run',
    separator: ':',
  },
  {
    add: 'link',
    bin: 'oclif',
    dataDir: xdgData('oclif'),
    failing: {arguments: {command: 'no-such-command'}, says: /no-such-command/, tool: 'help'},
    name: 'oclif',
    node: 20,
    offline: [{tool: 'help'}, {arguments: {command: 'readme'}, tool: 'help'}],
    package: 'oclif',
    script: 'bin/run.js',
    separator: ' ',
  },
  // Remote-API CLIs: almost every command needs a login and the network, so offline they must fail readably.
  {
    // No plugin-plugins: added the author's way.
    add: 'author',
    bin: 'prism',
    dataDir: xdgData('prism'),
    failing: {arguments: {path: '/nonexistent/integration.yml'}, says: /Cannot find definition file/, tool: 'integrations_validate-yaml'},
    name: 'prism',
    node: 20,
    offline: [{tool: 'help'}],
    package: '@prismatic-io/prism',
    script: 'lib/run.js',
    separator: ':',
  },
  {
    // @oclif/core 1.
    add: 'link',
    bin: 'vonage',
    dataDir: xdgData('@vonage/cli'),
    failing: {says: /ENOTFOUND|EAI_AGAIN|getaddrinfo|fetch failed|401|credentials/i, tool: 'balance'},
    name: 'vonage',
    node: 20,
    // Not `help`: its topic list comes out in a different order from run to run, with or without the plugin.
    offline: [{tool: 'config'}],
    package: '@vonage/cli',
    script: 'bin/run.cjs',
    separator: ':',
  },
  {
    add: 'link',
    bin: 'rdme',
    dataDir: xdgData('rdme'),
    failing: {arguments: {spec: '/nonexistent/openapi.json'}, says: /ENOENT: no such file or directory/, tool: 'openapi_validate'},
    name: 'rdme',
    node: 20,
    offline: [{tool: 'help'}],
    package: 'rdme',
    script: 'bin/run.js',
    separator: ' ',
  },
  {
    // @oclif/core 3, three bins; it refuses plugins it does not know, so only a link adds one.
    add: 'link',
    bin: 'commercelayer',
    dataDir: xdgData('@commercelayer/cli'),
    failing: {arguments: {alias: 'no-such-application'}, says: /Unable to find configuration file for application/, tool: 'applications_info'},
    name: 'commercelayer',
    node: 20,
    offline: [{tool: 'cli_version'}],
    package: '@commercelayer/cli',
    script: 'bin/run.js',
    separator: ':',
  },
  {
    // @oclif/core 1, 225 commands in topics nested up to four deep, from eleven plugins.
    add: 'link',
    bin: 'anypoint-cli-v4',
    dataDir: xdgData('anypoint-cli-v4'),
    failing: {says: /No authentication mechanism was provided/, tool: 'runtime-mgr_application_list'},
    name: 'anypoint',
    node: 20,
    offline: [{tool: 'version'}],
    package: 'anypoint-cli-v4',
    script: 'bin/run',
    separator: ' ',
  },
  {
    // No plugin-plugins: added the author's way. Its package asks for Node 24; it runs on 22.
    add: 'author',
    bin: 'balena',
    dataDir: xdgData('balena'),
    env: () => ({BALENARC_NO_ANALYTICS: '1', BALENA_DISABLE_AUTOUPDATE: '1'}),
    failing: {says: /fetch failed|ENOTFOUND|EAI_AGAIN|Unauthorized|login/i, tool: 'whoami'},
    name: 'balena',
    node: 22,
    offline: [{tool: 'version'}],
    package: 'balena-cli',
    script: 'bin/run.js',
    separator: ' ',
  },
  {
    // oclif v1 (@oclif/config and @oclif/command): its bin requires v8-compile-cache first thing, and its commands are
    // found by words only (@tiagonapoli/oclif-plugin-spaced-commands). Its own init hook fails to load on Node 20 and
    // warns so on every run, with or without the plugin.
    add: 'link',
    bin: 'vtex',
    dataDir: xdgData('vtex'),
    failing: {says: /Error trying to call client before login/, tool: 'deps_list'},
    name: 'vtex',
    node: 20,
    offline: [{tool: 'help'}],
    package: 'vtex',
    script: 'bin/run',
    separator: ' ',
  },
]

/** The cache test/corpus/install.sh installs into (keep the two in step). */
export const CACHE = join(process.env.OCLIF_PLUGIN_MCP_CACHE ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'oclif-plugin-mcp'), 'corpus')

/** Where install.sh put test/corpus/<name>: named by a hash of its package.json and lockfile. */
export function installDir(name: string): string {
  const hash = createHash('sha256')
  for (const file of ['package.json', 'package-lock.json']) hash.update(readFileSync(join(HERE, name, file)))
  const dir = join(CACHE, `${name}-${hash.digest('hex').slice(0, 16)}`)
  if (!existsSync(join(dir, '.installed'))) throw new Error(`${name} is not installed in ${dir}: run bash test/corpus/install.sh`)
  return dir
}

export const NODE22 = (): string => join(installDir('node22'), 'node_modules/.bin/node')

export function nodeOf(cli: CorpusCli): string {
  return cli.node === 22 ? NODE22() : process.execPath
}

export function packageRoot(cli: CorpusCli): string {
  return join(installDir(cli.name), 'node_modules', cli.package)
}

export function scriptOf(cli: CorpusCli): string {
  return join(packageRoot(cli), cli.script)
}

export function versionOf(cli: CorpusCli): string {
  return (JSON.parse(readFileSync(join(packageRoot(cli), 'package.json'), 'utf8')) as {version: string}).version
}

/** `mcp stdio` as the CLI spells it. */
export function mcpArgv(cli: CorpusCli, command: string, args: string[] = []): string[] {
  return [scriptOf(cli), ...(cli.separator === ' ' ? ['mcp', command] : [`mcp:${command}`]), ...args]
}

/**
 * The plugin added to the CLI for a scratch HOME, and the environment that keeps the CLI inside it: a link in the
 * data dir, or (author style) an entry in the CLI's package.json and its node_modules, pointing at this checkout.
 */
export function prepare(cli: CorpusCli, home: string): Record<string, string> {
  mkdirSync(home, {recursive: true})
  for (const [path, text] of Object.entries(cli.files ?? {})) writeFileSync(join(home, path), text)
  if (cli.add === 'link') {
    const dataDir = cli.dataDir(home)
    mkdirSync(dataDir, {recursive: true})
    const plugins = [{name: 'oclif-plugin-mcp', root: ROOT, type: 'link'}]
    writeFileSync(join(dataDir, 'package.json'), JSON.stringify({oclif: {plugins, schema: 1}, private: true}))
  } else {
    addAsAuthor(packageRoot(cli))
  }

  return {
    HOME: home,
    NO_COLOR: '1',
    OCLIF_DISABLE_LINKED_ESM_WARNING: 'true',
    PATH: process.env.PATH ?? '',
    TWILIO_DATA_DIR: join(home, '.twilio-cli'),
    XDG_CACHE_HOME: join(home, 'cache'),
    XDG_CONFIG_HOME: join(home, 'config'),
    XDG_DATA_HOME: join(home, 'data'),
    ...cli.env?.(home),
  }
}

/** What an author does: the plugin in `dependencies` and `oclif.plugins`, and installed in node_modules. */
function addAsAuthor(root: string): void {
  const file = join(root, 'package.json')
  const pjson = JSON.parse(readFileSync(file, 'utf8')) as {dependencies?: Record<string, string>; oclif: {plugins?: string[]}}
  if (!pjson.oclif.plugins?.includes('oclif-plugin-mcp')) {
    pjson.oclif.plugins = [...(pjson.oclif.plugins ?? []), 'oclif-plugin-mcp']
    pjson.dependencies = {...pjson.dependencies, 'oclif-plugin-mcp': `file:${ROOT}`}
    writeFileSync(file, `${JSON.stringify(pjson, null, 2)}\n`)
  }

  // The cache outlives checkouts: point the installed plugin at this one.
  const link = join(root, 'node_modules', 'oclif-plugin-mcp')
  if (existsSync(link) || isSymlink(link)) rmSync(link, {force: true, recursive: true})
  mkdirSync(join(root, 'node_modules'), {recursive: true})
  symlinkSync(ROOT, link)
}

function isSymlink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink()
  } catch {
    return false
  }
}

/** Runs a CLI to completion (killed as hung after two minutes, or `hungAfterMs`) and returns what it printed. */
export function runCli(command: string, args: string[], env: Record<string, string>, cwd: string, hungAfterMs = 120_000): Promise<{code: null | number; stderr: string; stdout: string}> {
  const child = spawn(command, args, {cwd, env, stdio: ['ignore', 'pipe', 'pipe']})
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk))
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk))
  const timer = setTimeout(() => child.kill('SIGKILL'), hungAfterMs)
  return new Promise((resolve, reject) => {
    child.on('error', reject)
    child.on('close', (code) => {
      clearTimeout(timer)
      resolve({code, stderr, stdout})
    })
  })
}
