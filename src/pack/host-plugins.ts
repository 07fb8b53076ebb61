import type {Credential} from './credentials.js'
import type {HostPack, PackPlan} from './pack-plan.js'
import type {PackHost} from './names.js'

// The folder each agent host installs, as files (path → text): its manifest, the MCP server entry that launches the
// CLI's `mcp stdio` for that host, the Agent Skill, and a marketplace entry where the host installs from one. Each
// host's own validator and installer accept them (test/e2e/pack-hosts.test.ts and the corpus's pack suite).

export type Files = Map<string, string>

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`

/** Drops the keys whose value is undefined, so a manifest carries only what the package says. */
function defined<T extends Record<string, unknown>>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined && !(Array.isArray(v) && v.length === 0))) as T
}

/** One line about the CLI, the way manifests and marketplaces show it. */
export function summaryOf(plan: PackPlan): string {
  return plan.facts.description ?? `${plan.base.config.bin}: its commands as MCP tools and an Agent Skill.`
}

/** How a person installs each host's package, from the pack's folder. */
export function installSteps(plan: PackPlan, host: PackHost): string[] {
  const market = marketplaceName(plan)
  const steps: Record<PackHost, string[]> = {
    'claude-code': ['```sh', 'claude plugin marketplace add ./claude-code', `claude plugin install ${plan.name}@${market}`, '```'],
    'claude-desktop': [`Open \`${plan.name}.mcpb\` with Claude Desktop (Settings → Extensions → Install Extension) and fill in the settings it asks for.`],
    codex: ['```sh', 'codex plugin marketplace add ./codex', `codex plugin add ${plan.name}@${market}`, '```'],
    cursor: [`Copy \`cursor/\` to \`~/.cursor/plugins/local/${plan.name}/\` and reload Cursor.`],
    gemini: ['```sh', 'gemini extensions install ./gemini', '```'],
  }
  return steps[host]
}

export const HOST_LABEL: Record<PackHost, string> = {'claude-code': 'Claude Code', 'claude-desktop': 'Claude Desktop', codex: 'Codex', cursor: 'Cursor', gemini: 'Gemini CLI'}

/** What the CLI needs on the person's machine: installed, on PATH, with this plugin. */
export function requirement(plan: PackPlan): string {
  const {bin} = plan.base.config
  const plugin = plan.pluginIsDependency ? '' : ` with the MCP plugin added (\`${bin} plugins install oclif-plugin-mcp\`)`
  return `\`${bin}\` installed and on PATH (\`npm install -g ${plan.facts.name}\`)${plugin}`
}

/** The README of a host's folder: what it gives the agent, what it needs, how to install it. */
function folderReadme(plan: PackPlan, host: PackHost): string {
  const {bin} = plan.base.config
  const credentials = plan.credentials.map((c) => c.name)
  const lines = [
    `# ${plan.title ?? bin} for ${HOST_LABEL[host]}`,
    '',
    `${summaryOf(plan)}`,
    '',
    `This ${host === 'gemini' ? 'extension' : 'plugin'} gives ${HOST_LABEL[host]} the commands of \`${bin}\` ${plan.facts.version} as MCP tools (the server \`${bin} mcp stdio\`) and an Agent Skill on running \`${bin}\` from a shell. It needs ${requirement(plan)}.`,
    '',
    '## Install',
    '',
    ...installSteps(plan, host),
    '',
  ]
  if (credentials.length > 0) lines.push('## Credentials', '', `The server reads ${credentials.map((name) => `\`${name}\``).join(', ')} from the environment ${HOST_LABEL[host]} starts it with; their values are never written here.`, '')
  return lines.join('\n')
}

/** What Claude Code's and Cursor's manifests both say of the plugin, from package.json. */
function listing(plan: PackPlan, author: PackPlan['facts']['author']): Record<string, unknown> {
  const {facts} = plan
  return defined({
    name: plan.name,
    displayName: plan.title,
    version: facts.version,
    description: summaryOf(plan),
    author,
    homepage: facts.homepage,
    repository: facts.repository,
    license: facts.license,
    keywords: facts.keywords,
  })
}

function skillFiles(plan: PackPlan): Files {
  return new Map(plan.skill.files.map((file) => [`skills/${plan.skill.name}/${file.path}`, file.text]))
}

function pack(plan: PackPlan, host: PackHost): HostPack {
  const found = plan.hosts.find((entry) => entry.host === host)
  if (!found) throw new Error(`no ${host} package planned`)
  return found
}

/** Where a server launched by the host finds the CLI's own data and config folders when they were moved. */
function locationNames(plan: PackPlan): string[] {
  const scoped = (name: string) => plan.base.config.scopedEnvVarKey(name)
  return ['XDG_CACHE_HOME', 'XDG_CONFIG_HOME', 'XDG_DATA_HOME', scoped('CACHE_DIR'), scoped('CONFIG_DIR'), scoped('DATA_DIR')]
}

/**
 * Claude Code: `.claude-plugin/plugin.json`, `.mcp.json`, `skills/`, and `.claude-plugin/marketplace.json` listing
 * the folder itself, so `claude plugin marketplace add <folder>` then `claude plugin install <name>@<market>` installs
 * it. Claude Code starts plugin servers with its own environment, credentials included.
 */
export function claudeCodePlugin(plan: PackPlan): Files {
  const {facts} = plan
  const {launch, server} = pack(plan, 'claude-code')
  const manifest = listing(plan, facts.author)
  const market = {
    name: marketplaceName(plan),
    owner: facts.author ?? {name: facts.name},
    description: `${plan.title ?? plan.base.config.bin} for Claude Code: its commands as MCP tools, and an Agent Skill.`,
    plugins: [defined({name: plan.name, source: './', description: summaryOf(plan), version: facts.version})],
  }
  return new Map([
    ['.claude-plugin/plugin.json', json(manifest)],
    ['.claude-plugin/marketplace.json', json(market)],
    ['.mcp.json', json({mcpServers: {[server]: {command: launch.command, args: launch.args}}})],
    ['README.md', folderReadme(plan, 'claude-code')],
    ...skillFiles(plan),
  ])
}

/** The marketplace a folder makes of itself (Claude Code and Codex): not a name the hosts keep for themselves. */
export function marketplaceName(plan: PackPlan): string {
  return `${plan.name}-mcp`
}

/**
 * Codex: `.codex-plugin/plugin.json`, `.mcp.json` (Codex passes a server only HOME, PATH and a few more: the
 * credential and location variables are named in `env_vars`, so their values come from the person's environment),
 * `skills/`, and `.agents/plugins/marketplace.json` listing the folder itself.
 */
export function codexPlugin(plan: PackPlan): Files {
  const {facts} = plan
  const {launch} = pack(plan, 'codex')
  const manifest = defined({
    name: plan.name,
    version: facts.version,
    description: summaryOf(plan),
    keywords: facts.keywords,
    skills: './skills/',
    mcpServers: './.mcp.json',
    interface: defined({
      displayName: plan.title ?? plan.base.config.bin,
      shortDescription: summaryOf(plan),
      developerName: facts.author?.name,
      category: 'Developer Tools',
      websiteURL: facts.homepage ?? facts.repository,
    }),
  })
  const market = {
    name: marketplaceName(plan),
    interface: {displayName: plan.title ?? plan.base.config.bin},
    plugins: [{name: plan.name, source: {source: 'local', path: './'}, policy: {installation: 'AVAILABLE', authentication: 'ON_INSTALL'}, category: 'Developer Tools'}],
  }
  const envVars = [...plan.credentials.map((c) => c.name), ...locationNames(plan)]
  return new Map([
    ['.codex-plugin/plugin.json', json(manifest)],
    ['.agents/plugins/marketplace.json', json(market)],
    ['.mcp.json', json({mcpServers: {[plan.name]: {command: launch.command, args: launch.args, env_vars: envVars}}})],
    ['README.md', folderReadme(plan, 'codex')],
    ...skillFiles(plan),
  ])
}

/**
 * Gemini CLI: `gemini-extension.json` and `skills/`. Gemini CLI gives an extension's server only the variables it
 * declares as settings (asked for at install, sensitive ones kept in the keychain): one per credential.
 */
export function geminiExtension(plan: PackPlan): Files {
  const {launch} = pack(plan, 'gemini')
  const manifest = defined({
    name: plan.name,
    version: plan.facts.version,
    description: summaryOf(plan),
    mcpServers: {[plan.name]: {command: launch.command, args: launch.args}},
    settings: plan.credentials.map((credential: Credential) => ({name: credential.name, description: credential.description, envVar: credential.name, sensitive: true})),
  })
  return new Map([['gemini-extension.json', json(manifest)], ['README.md', folderReadme(plan, 'gemini')], ...skillFiles(plan)])
}

/** Cursor: `.cursor-plugin/plugin.json` (its schema takes no other keys), `mcp.json` and `skills/`. */
export function cursorPlugin(plan: PackPlan): Files {
  const {facts} = plan
  const {launch} = pack(plan, 'cursor')
  // Cursor's author takes no url.
  const author = facts.author && defined({name: facts.author.name, email: facts.author.email})
  const manifest = {...listing(plan, author), skills: './skills/', mcpServers: './mcp.json'}
  return new Map([
    ['.cursor-plugin/plugin.json', json(manifest)],
    ['mcp.json', json({mcpServers: {[plan.name]: {command: launch.command, args: launch.args}}})],
    ['README.md', folderReadme(plan, 'cursor')],
    ...skillFiles(plan),
  ])
}

/** Each host's folder under the pack's output folder, and its files. */
export const HOST_FOLDERS = {
  'claude-code': claudeCodePlugin,
  codex: codexPlugin,
  cursor: cursorPlugin,
  gemini: geminiExtension,
} as const satisfies Partial<Record<PackHost, (plan: PackPlan) => Files>>
