// How well a model finds the right command through each host's OWN tool search, as the model meets it. Claude Code and
// Codex are listed every command in reach as a tool of its own and search those tools themselves: what ranks a command
// there is the host's search over our names, descriptions and hints, not our find_commands. So the real hosts
// (installed from npm in the corpus cache) are driven against the loopback stand-in for their model API
// (test/corpus/model-endpoint.ts), whose scripted model searches once per query; their answers are read back from the
// requests the host sent its model. For taskbox and each corpus CLI, for its tuned and its holdout query set
// (bench/queries/<cli>.json and <cli>-holdout.json), in a scratch HOME per CLI:
// - Claude Code (`claude -p`, its server written by `mcp config --client claude-code --write`): one turn whose model
//   calls ToolSearch {query, max_results: 5} once per query; each tool_result is the ranked list of tool names.
//   A tool Claude loads up front (anthropic/alwaysLoad) is never in ToolSearch's results: it is in the model's first
//   tool list already, so an expected command loaded up front counts as found at rank 1, and is counted apart too.
//   Claude Code sends its first request without a server still starting (init says "pending"): such a turn is
//   reported as not measured, and run again with CLAUDE_CODE_MCP_STARTUP_WAIT_MS, reported on a row of its own.
// - Codex (`codex exec`, model gpt-5.5, via test/corpus/codex-turn.ts): one turn whose model calls tool_search
//   {query, limit: 5} once per query; each tool_search_output groups its tools by namespace, Codex's own deferred
//   tools among them: a rank is among everything returned, in the order returned. Codex hands a server only a few
//   variables, so `mcp config --env NAME` passes on the scratch HOME's (the XDG dirs a linked plugin is recorded in).
// - find_commands: the same queries through our engine in-process from dist/, as bench/find-commands.mjs runs it.
// - the first tool list: what of this server the model is handed in the host's first request (Claude Code: the tools
//   it loaded up front and the lines naming its deferred tools; Codex: the namespace line), in tokens of ~4 bytes.
// Run: npm run bench:host-search [-- --smoke] [-- NAME ...], or bash bench/node22.sh bench/host-search.mjs [--smoke] [NAME ...]
// (NAME: taskbox or a corpus CLI's name; --smoke is taskbox's tuned set alone.)
// Linux only: what the run started is found afterwards by a variable in each process's /proc/<pid>/environ.
import {Config} from '@oclif/core'
import {execFile, spawn} from 'node:child_process'
import {existsSync, mkdirSync, readFileSync, realpathSync} from 'node:fs'
import {registerHooks} from 'node:module'
import {cpus} from 'node:os'
import {dirname, join} from 'node:path'
import {fileURLToPath} from 'node:url'
import {parseArgs, promisify} from 'node:util'

import {parseAuthorConfig} from '../dist/settings/author-config.js'
import {resolveSettings} from '../dist/settings/settings.js'
import {buildRegistry} from '../dist/tools/catalog/registry.js'
import {buildCommandIndex} from '../dist/tools/exposure/command-search.js'
import {CORPUS, installDir, mcpArgv, nodeOf, packageRoot, prepare, ROOT, runCli, versionOf} from '../test/corpus/clis.ts'
import {startModelEndpoint} from '../test/corpus/model-endpoint.ts'
import {isolatedHome, markedRun} from './common.mjs'

// codex-turn.ts imports its neighbours as './clis.js' (the spelling its Jest run resolves); Node's type stripping
// does not map that to the .ts file, so a specifier that fails from a .ts parent is tried again as .ts.
registerHooks({
  resolve(specifier, context, next) {
    try {
      return next(specifier, context)
    } catch (error) {
      if (context.parentURL?.endsWith('.ts') && specifier.endsWith('.js')) return next(specifier.replace(/\.js$/, '.ts'), context)
      throw error
    }
  },
})
const {CODEX_MODEL, codexTurn} = await import('../test/corpus/codex-turn.ts')

const here = dirname(fileURLToPath(import.meta.url))
const {positionals: only, values: options} = parseArgs({allowPositionals: true, options: {smoke: {type: 'boolean'}}})
const smoke = options.smoke ?? false
const names = only.length > 0 ? only : smoke ? ['taskbox'] : []
/** How many results each search returns: what a model asks for by default (ToolSearch's default is 5). */
const TOP = 5
/** Only a hung Claude Code meets this: a turn ends when it exits after the model's last answer. */
const TURN_TIMEOUT_MS = 20 * 60_000
/**
 * How long Claude Code is told to wait for a server before its first request, when it did not wait long enough by
 * itself (read from its binary; with it a slow server is connected at init and in the first request).
 */
const WAIT_VARIABLE = 'CLAUDE_CODE_MCP_STARTUP_WAIT_MS'
const WAIT_MS = 30_000
/** How long what a turn started is given to end by itself before SIGKILL. */
const STOP_GRACE_MS = 5000
const run = promisify(execFile)

// Every process this run starts carries this run's mark (common.mjs markedRun): how they are all found and stopped.
const {env: marked, killAll, ours, settle} = markedRun('BENCH_HOST_SEARCH_RUN', 'host-search', {graceMs: STOP_GRACE_MS, pollMs: 100})

const {home: scratch} = isolatedHome('bench-host-search-')
// The in-process find_commands engine loads each CLI the way bench/find-commands.mjs does: with no user config,
// data or cache of the person running the bench (the hosts get their own env, per CLI, below).
Object.assign(process.env, isolatedHome('bench-host-search-inprocess-').env)

// Node 20 CLIs (and taskbox) run on the project's Node, the first `node` on PATH, as the corpus tests run them; the
// bench itself is on the corpus's Node 22, which nodeOf() would give them.
const projectNode = (await run('bash', ['-c', 'command -v node'])).stdout.trim()
const queriesOf = (name) => {
  const sets = [
    {file: `${name}.json`, set: 'tuned'},
    {file: `${name}-holdout.json`, set: 'holdout'},
  ].filter(({file}) => existsSync(join(here, 'queries', file)))
  return (smoke ? sets.slice(0, 1) : sets).map(({file, set}) => ({queries: JSON.parse(readFileSync(join(here, 'queries', file), 'utf8')), set}))
}

const unknownNames = names.filter((name) => name !== 'taskbox' && !CORPUS.some((cli) => cli.name === name))
if (unknownNames.length > 0) throw new Error(`no CLI named ${unknownNames.join(', ')} (taskbox or one of ${CORPUS.map((cli) => cli.name).join(', ')})`)
const TASKBOX = join(ROOT, 'examples/taskbox')
const clis = [
  {
    argv: (command, args = []) => [join(TASKBOX, 'bin/run.js'), 'mcp', command, ...args],
    home: (home) => {
      const dirs = {HOME: home, XDG_CACHE_HOME: join(home, 'cache'), XDG_CONFIG_HOME: join(home, 'config'), XDG_DATA_HOME: join(home, 'data')}
      for (const dir of Object.values(dirs)) mkdirSync(dir, {recursive: true})
      return {...dirs, PATH: process.env.PATH ?? ''}
    },
    label: `taskbox@${JSON.parse(readFileSync(join(TASKBOX, 'package.json'), 'utf8')).version} (example)`,
    name: 'taskbox',
    node: projectNode,
    root: TASKBOX,
  },
  ...CORPUS.map((cli) => ({
    argv: (command, args = []) => mcpArgv(cli, command, args),
    home: (home) => prepare(cli, home),
    label: `${cli.package}@${versionOf(cli)}`,
    name: cli.name,
    node: cli.node === 20 ? projectNode : nodeOf(cli),
    root: packageRoot(cli),
  })),
].filter((cli) => names.length === 0 || names.includes(cli.name))

const claudeBin = join(installDir('claude-code'), 'node_modules/.bin/claude')
const hostVersion = (name, pkg) => JSON.parse(readFileSync(join(installDir(name), 'node_modules', pkg, 'package.json'), 'utf8')).version
const versions = {claude: hostVersion('claude-code', '@anthropic-ai/claude-code'), codex: hostVersion('codex', '@openai/codex')}

/** A command id in one spelling: oclif's, with ':' (mcp tools prints ids as the CLI displays them, maybe with spaces). */
const idOf = (id) => id.replaceAll(' ', ':')

/** Runs a CLI's `mcp` subcommand in `project`, marked, and returns its JSON output. */
async function mcpJson(cli, env, project, command, args) {
  const ran = await runCli(cli.node, cli.argv(command, [...args, '--json']), env, project)
  if (ran.code !== 0) throw new Error(`${cli.name} mcp ${command} ${args.join(' ')} failed (${ran.code}): ${ran.stderr.slice(-2000)}`)
  return JSON.parse(ran.stdout)
}

/**
 * Command id → tool name, for the commands the server has in reach for that host (`mcp tools --json --client`), and
 * the names of every tool it lists there (built-in tools too).
 */
async function toolsFor(cli, env, project, client) {
  const inventory = await mcpJson(cli, env, project, 'tools', ['--client', client])
  return {byId: new Map(inventory.commands.map((command) => [idOf(command.id), command.tool])), listed: inventory.listed}
}

/** A tool_result's content as Claude Code sends it: a list of tool_reference parts, or a text when nothing matched. */
const referenced = (content) => (Array.isArray(content) ? content.filter((part) => part.type === 'tool_reference').map((part) => part.tool_name) : [])

/**
 * Each ToolSearch call of the turn and its result, in the order the model made them. Read across every request, each
 * result from the first request that carries it: a later request may hold an older result cleared to save room.
 */
function claudeSearches(bodies) {
  const calls = []
  const results = new Map()
  const seen = new Set()
  for (const body of bodies) {
    for (const message of body.messages ?? []) {
      for (const part of Array.isArray(message.content) ? message.content : []) {
        if (part.type === 'tool_use' && part.name === 'ToolSearch' && !seen.has(part.id)) {
          seen.add(part.id)
          calls.push({id: part.id, query: part.input?.query})
        } else if (part.type === 'tool_result' && !results.has(part.tool_use_id)) {
          results.set(part.tool_use_id, {error: part.is_error === true, names: referenced(part.content)})
        }
      }
    }
  }

  return calls.map((call) => ({query: call.query, ...(results.get(call.id) ?? {error: true, names: []})}))
}

/** The texts of a request in front of the model: its system prompt and every text part of its messages. */
function textsOf(body) {
  const texts = []
  const add = (value) => {
    if (typeof value === 'string') texts.push(value)
    else if (Array.isArray(value)) for (const part of value) add(part?.text ?? part?.content)
  }

  add(body.system)
  for (const message of body.messages ?? []) add(message.content)
  for (const item of body.input ?? []) add(item.content)
  return texts
}

/** One headless Claude Code turn in `project`: the stand-in's model calls ToolSearch once per query. */
async function claudeTurn(queries, {env, project}) {
  const model = await startModelEndpoint(queries.map(({query}) => ({input: {max_results: TOP, query}, tool: 'ToolSearch'})))
  const started = performance.now()
  try {
    const claudeEnv = {...env, ANTHROPIC_API_KEY: 'sk-ant-offline', ANTHROPIC_BASE_URL: model.url, CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1', DISABLE_AUTOUPDATER: '1'}
    // Its own process group, so a hung turn is ended with everything it started; settle() below catches the rest.
    const child = spawn(claudeBin, ['-p', 'Find the commands I will need.', '--output-format', 'stream-json', '--verbose'], {cwd: project, detached: true, env: claudeEnv, stdio: ['ignore', 'pipe', 'pipe']})
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk) => (stdout += chunk))
    child.stderr.on('data', (chunk) => (stderr += chunk))
    const timer = setTimeout(() => killAll([-child.pid]), TURN_TIMEOUT_MS)
    const code = await new Promise((resolve, reject) => {
      child.on('error', reject)
      child.on('close', resolve)
    }).finally(() => clearTimeout(timer))
    const events = stdout
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line))
    return {bodies: model.bodies, code, events, ms: performance.now() - started, stderr}
  } finally {
    await model.close()
    await settle()
  }
}

/** Each tool_search call of a Codex turn and the tools it returned, flattened in the order returned, as namespace/tool. */
function codexSearches(bodies) {
  const calls = []
  const results = new Map()
  const seen = new Set()
  for (const body of bodies) {
    for (const item of body.input ?? []) {
      if (item.type === 'tool_search_call' && !seen.has(item.call_id)) {
        seen.add(item.call_id)
        calls.push({id: item.call_id, query: item.arguments?.query})
      } else if (item.type === 'tool_search_output' && !results.has(item.call_id)) {
        results.set(item.call_id, {error: false, names: codexNames(item.tools ?? [])})
      }
    }
  }

  return calls.map((call) => ({query: call.query, ...(results.get(call.id) ?? {error: true, names: []})}))
}

/** A name as Codex spells it to its model: what a function name may not hold (a hyphen) made '_' (phone-numbers_list → phone_numbers_list). */
const codexName = (name) => name.replaceAll(/\W/g, '_')

/** Tools as Codex hands them to its model: namespaces of functions, or functions alone; named namespace/tool. */
const codexNames = (tools) => tools.flatMap((tool) => (tool.type === 'namespace' ? (tool.tools ?? []).map((inner) => `${tool.name}/${inner.name}`) : [tool.name]))

/**
 * Where the first expected command is among what a search returned (1-based; null: not in the top TOP). An expected
 * command the host loaded up front is never in its search results; it counts as rank 1, and is marked to be counted apart.
 */
function rank(expected, returned, upFront) {
  if (expected.some((name) => upFront.has(name))) return {rank: 1, upFront: true}
  const at = returned.slice(0, TOP).findIndex((name) => expected.includes(name))
  return {rank: at === -1 ? null : at + 1, upFront: false}
}

/**
 * Names of this server's tools a search returned that match no tool the server lists, spelled as the host spells them:
 * a host that renamed a tool some other way than this bench expects would make its command look never found.
 */
function strangers(searches, ours, known) {
  const names = new Set(known)
  return [...new Set(searches.flatMap((search) => search.names).filter((name) => name.startsWith(ours) && !names.has(name)))]
}

/** A search's tally over one query set. */
function tally(search) {
  return {misses: [], search, top1: 0, top5: 0, total: 0, upFront: 0}
}

function count(row, query, expected, found, returned) {
  row.total++
  if (found.upFront) row.upFront++
  if (found.rank === 1) row.top1++
  if (found.rank !== null) row.top5++
  else row.misses.push(`"${query}" wants ${expected.join(' | ')}; got ${returned.slice(0, TOP).join(', ') || '(nothing)'}`)
}

/** In-process find_commands over the CLI's commands, loaded from dist/ as bench/find-commands.mjs does. */
async function engineOf(root) {
  const config = await Config.load(root)
  const registry = buildRegistry(config, resolveSettings(parseAuthorConfig({}), {}))
  return buildCommandIndex(registry.tools)
}

const bytes = (value) => Buffer.byteLength(typeof value === 'string' ? value : JSON.stringify(value))
const tokens = (n) => Math.round(n / 4)

/**
 * What of this server Claude Code's first request hands the model: the tools it loaded up front (their JSON, as
 * sent) and the names of its deferred tools ("The following deferred tools are now available via ToolSearch", one a
 * line, in the system prompt or a message: Claude Code puts the list in either). Each tool the server lists (`listed`)
 * is looked for by name, so a tool the host showed in neither way is counted too (`unseen`).
 */
function claudeFirstList(body, prefix, listed) {
  const loaded = (body.tools ?? []).filter((tool) => tool.name?.startsWith(prefix) && !tool.defer_loading)
  const loadedNames = new Set(loaded.map((tool) => tool.name))
  const words = new Set(textsOf(body).flatMap((text) => text.split(/[\s,]+/)))
  const names = listed.map((name) => `${prefix}${name}`).filter((name) => !loadedNames.has(name))
  const deferred = names.filter((name) => words.has(name))
  return {
    deferred: deferred.length,
    // A name and its line break.
    deferredBytes: deferred.reduce((sum, name) => sum + bytes(name) + 1, 0),
    loaded: [...loadedNames],
    loadedBytes: bytes(loaded),
    loadedShort: loaded.map((tool) => tool.name.slice(prefix.length)),
    unseen: names.filter((name) => !words.has(name)).map((name) => name.slice(prefix.length)),
  }
}

/** What of this server Codex's first request hands the model: its namespace line (`- mcp__x: …`) and any of its tools. */
function codexFirstList(body, namespace) {
  const lines = textsOf(body)
    .flatMap((text) => text.split('\n'))
    .filter((line) => line.startsWith(`- ${namespace}:`))
  const tools = (body.tools ?? []).filter((tool) => tool.name === namespace || tool.name?.startsWith(`${namespace}__`))
  return {lineBytes: lines.reduce((sum, line) => sum + bytes(line) + 1, 0), lines: lines.length, tools: codexNames(tools), toolBytes: tools.length > 0 ? bytes(tools) : 0}
}

/**
 * Claude Code's ranks for a query set: one turn, its ToolSearch results read back and ranked into `row`. A turn whose
 * first request does not hold this server (it was still starting) or whose searches did not all come back marks the
 * row as not measured, with why.
 */
async function claudeRanks(row, inside, {env, listed, prefix, project, server, tools}) {
  const turn = await claudeTurn(inside, {env, project})
  const init = turn.events.find((event) => event.subtype === 'init')
  const status = init?.mcp_servers?.find((entry) => entry.name === server)?.status ?? 'missing'
  const searches = claudeSearches(turn.bodies)
  const first = turn.bodies.find((body) => Array.isArray(body.tools) && Array.isArray(body.messages))
  const firstList = first && claudeFirstList(first, prefix, listed)
  const seconds = Math.round(turn.ms / 1000)
  if (!firstList || firstList.loaded.length + firstList.deferred === 0) {
    row.failed = `the server was ${status} at Claude Code's init and its first request held none of its tools (exit ${turn.code})`
    return {seconds, status}
  }

  if (searches.length !== inside.length || searches.some((search, i) => search.query !== inside[i].query || search.error)) {
    row.failed = `${searches.filter((search) => !search.error).length} of ${inside.length} searches answered (exit ${turn.code}): ${turn.stderr.slice(-500)}`
    return {firstList, seconds, status}
  }

  const upFront = new Set(firstList.loaded)
  inside.forEach(({expect, query}, i) => {
    const wanted = expect.map(idOf).filter((id) => tools.has(id)).map((id) => `${prefix}${tools.get(id)}`)
    count(row, query, wanted, rank(wanted, searches[i].names, upFront), searches[i].names)
  })
  row.unknown = strangers(searches, prefix, listed.map((name) => `${prefix}${name}`))
  return {firstList, seconds, status}
}

const measured = []
for (const cli of clis) {
  const started = performance.now()
  const home = join(scratch, cli.name)
  // Claude Code keys a local-scope server by the project's real path.
  mkdirSync(join(scratch, `${cli.name}-project`))
  const project = realpathSync(join(scratch, `${cli.name}-project`))
  const env = {...cli.home(home), ...marked}
  const result = {cli, firstList: {}, rows: []}
  measured.push(result)
  // The tool names each host gets for each command, and the servers registered the way a person does it.
  const {byId: claudeTools, listed: claudeListed} = await toolsFor(cli, env, project, 'claude-code')
  const {byId: codexTools, listed: codexListed} = await toolsFor(cli, env, project, 'codex')
  const {name: server} = await mcpJson(cli, env, project, 'config', ['--client', 'claude-code', '--write'])
  // Codex hands a server only a few variables of its own environment (HOME, PATH, …): the scratch HOME's XDG dirs
  // (where a linked plugin is recorded), the CLI's settings that keep it offline and quiet, and this run's mark are
  // passed on by name, as a person passes a variable the server needs (`--env NAME`, Codex's env_vars).
  const passed = Object.keys(env).filter((name) => name !== 'HOME' && name !== 'PATH')
  await mcpJson(cli, env, project, 'config', ['--client', 'codex', '--write', ...passed.flatMap((name) => ['--env', name])])
  await settle()
  // Claude Code names a server's tools mcp__<server>__<tool>; Codex groups them in the namespace mcp__<server>, with
  // what a name may not hold (a hyphen) made '_', in the namespace and in each tool's name.
  const prefix = `mcp__${server.replaceAll(/[^\w-]/g, '_')}__`
  const namespace = `mcp__${codexName(server)}`
  result.commands = claudeTools.size
  result.listed = claudeListed.length
  const engine = await engineOf(cli.root)

  for (const {queries, set} of queriesOf(cli.name)) {
    // A query whose commands are all outside the server's boundary (self-management commands left out since the
    // queries were written) has no right answer left: counted apart, as bench/find-commands.mjs does.
    const inside = queries.filter(({expect}) => expect.some((id) => claudeTools.has(idOf(id))))
    const row = {claude: tally('Claude Code ToolSearch'), codex: tally('Codex tool_search'), engine: tally('find_commands (ours)'), outside: queries.length - inside.length, set}
    result.rows.push(row)

    for (const {expect, query} of inside) {
      const ids = expect.map(idOf).filter((id) => claudeTools.has(id))
      const returned = engine.search(query).map((match) => idOf(match.tool.id))
      count(row.engine, query, ids, rank(ids, returned, new Set()), returned)
    }

    // Claude Code starts its first request without a server still starting (its init event says "pending"): then
    // the model never meets the server in that turn, and the turn is run again with Claude Code told to wait for it.
    const claude = await claudeRanks(row.claude, inside, {env, listed: claudeListed, prefix, project, server, tools: claudeTools})
    result.firstList.claude ??= claude.firstList
    console.error(`bench host-search: ${cli.name} ${set}: Claude Code turn ${claude.seconds} s, server ${claude.status} at init`)
    if (!claude.firstList) {
      row.claudeWaited = tally(`Claude Code ToolSearch, server waited for (${WAIT_VARIABLE}=${WAIT_MS})`)
      const waited = await claudeRanks(row.claudeWaited, inside, {env: {...env, [WAIT_VARIABLE]: String(WAIT_MS)}, listed: claudeListed, prefix, project, server, tools: claudeTools})
      if (waited.firstList) result.firstList.claudeWaited ??= waited.firstList
      console.error(`bench host-search: ${cli.name} ${set}: Claude Code turn with ${WAIT_VARIABLE}=${WAIT_MS} ${waited.seconds} s, server ${waited.status} at init`)
    }

    const codexStarted = performance.now()
    let codex
    try {
      codex = await codexTurn(
        'Find the commands I will need.',
        inside.map(({query}) => ({input: {limit: TOP, query}, tool: 'tool_search'})),
        {env: {...env, CODEX_HOME: join(home, '.codex')}, project},
      )
    } catch (error) {
      row.codex.failed = `codex turn failed: ${error.message.slice(0, 300)}`
    } finally {
      await settle()
    }

    if (codex) {
      const found = codexSearches(codex.bodies)
      const firstList = codex.bodies[0] && codexFirstList(codex.bodies[0], namespace)
      if (codex.code !== 0 || !firstList?.lines) {
        row.codex.failed = `exit ${codex.code}${firstList?.lines ? '' : `, no ${namespace} namespace in the first request`}: ${codex.stderr.slice(-500)}`
      } else if (found.length !== inside.length || found.some((search, i) => search.query !== inside[i].query || search.error)) {
        row.codex.failed = `${found.filter((search) => !search.error).length} of ${inside.length} searches answered`
      } else {
        result.firstList.codex ??= firstList
        const upFront = new Set(firstList.tools)
        inside.forEach(({expect, query}, i) => {
          const wanted = expect.map(idOf).filter((id) => codexTools.has(id)).map((id) => `${namespace}/${codexName(codexTools.get(id))}`)
          count(row.codex, query, wanted, rank(wanted, found[i].names, upFront), found[i].names)
        })
        row.codex.unknown = strangers(found, `${namespace}/`, codexListed.map((name) => `${namespace}/${codexName(name)}`))
      }

      console.error(`bench host-search: ${cli.name} ${set}: Codex turn ${Math.round((performance.now() - codexStarted) / 1000)} s, ${found.length} searches`)
    }
  }

  console.error(`bench host-search: ${cli.label} measured in ${Math.round((performance.now() - started) / 1000)} s`)
}

await settle()
const left = ours()
if (left.length > 0) throw new Error(`processes of this run still there at the end: ${left.join(', ')}`)
console.error('bench host-search: no process of this run is left (checked /proc)')

const argv = process.argv.slice(2).join(' ')
const pct = (n, total) => `${n}/${total} (${total === 0 ? '–' : ((100 * n) / total).toFixed(1)} %)`
const SEARCHES = ['claude', 'claudeWaited', 'codex', 'engine']
console.log(`# Finding a command through each host's own tool search${smoke ? ' (smoke run)' : ''}\n`)
console.log(`command: \`bash bench/node22.sh bench/host-search.mjs${argv ? ` ${argv}` : ''}\`\n`)
console.log(`machine: ${cpus().length} × ${cpus()[0]?.model}, bench on Node ${process.version} (Node 20 CLIs and taskbox on ${(await run(projectNode, ['--version'])).stdout.trim()}), ${new Date().toISOString()}\n`)
console.log(`hosts: Claude Code ${versions.claude} (\`claude -p\`, ToolSearch {query, max_results: ${TOP}}), Codex ${versions.codex} (\`codex exec\`, model ${CODEX_MODEL}, tool_search {query, limit: ${TOP}}), each against a loopback stand-in for its model API whose scripted model searches once per query, all queries of a set in one turn; servers registered by \`mcp config --client <host> --write\`\n`)
console.log(`CLIs: ${clis.map((cli) => cli.label).join(', ')}\n`)
console.log(`Rank: the position of the first expected command among the ${TOP} tools the search returned (the host's own tools among them, in the order returned); top-1 and top-5 count queries with rank 1 and rank ≤ ${TOP}. "Loaded up front": queries whose expected command Claude Code loads before any search (anthropic/alwaysLoad): ToolSearch never returns it, the model has it in its first tool list already, and it is counted as found at rank 1 (top-1 and top-5 include these queries; "the rest, by search" is the other queries, found by ToolSearch alone). Queries whose expected commands are all outside the server's boundary are left out (column "left out").\n`)
console.log('## Finding the right command\n')
console.log('| CLI | set | search | queries | top-1 | top-5 | loaded up front | the rest, by search: top-1 | the rest, by search: top-5 | left out |')
console.log('| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |')
for (const {cli, rows} of measured) {
  for (const row of rows) {
    for (const key of SEARCHES.filter((name) => row[name])) {
      const t = row[key]
      const cells = t.failed
        ? [cli.name, row.set, t.search, 'not measured', '', '', '', '', '', row.outside]
        : [
            cli.name,
            row.set,
            t.search,
            t.total,
            pct(t.top1, t.total),
            pct(t.top5, t.total),
            ...(key.startsWith('claude') ? [t.upFront, pct(t.top1 - t.upFront, t.total - t.upFront), pct(t.top5 - t.upFront, t.total - t.upFront)] : ['', '', '']),
            row.outside,
          ]
      console.log(`| ${cells.join(' | ')} |`)
    }
  }
}

const failures = measured.flatMap(({cli, rows}) => rows.flatMap((row) => SEARCHES.filter((key) => row[key]?.failed).map((key) => `- ${cli.name} ${row.set}, ${row[key].search}: ${row[key].failed}`)))
if (failures.length > 0) console.log(`\nNot measured:\n\n${failures.join('\n')}`)
const unknown = measured.flatMap(({cli, rows}) => rows.flatMap((row) => SEARCHES.filter((key) => row[key]?.unknown?.length > 0).map((key) => `- ${cli.name} ${row.set}, ${row[key].search}: ${row[key].unknown.join(', ')}`)))
if (unknown.length > 0) console.log(`\nNames returned that match no tool the server lists (their commands may be undercounted):\n\n${unknown.join('\n')}`)
if (measured.some(({rows}) => rows.some((row) => row.claudeWaited))) {
  console.log(`\nA row "server waited for" is the same turn run again with ${WAIT_VARIABLE}=${WAIT_MS} in Claude Code's environment, after its default turn went to the model without the server: what the search finds once the server is there, not what a person gets by default.`)
}

console.log(`\n## The first tool list: what of this server the model gets in the host's first request (tokens ≈ bytes / 4)\n`)
console.log('Claude Code: the JSON of the tools it loaded up front (named mcp__<server>__…) and the lines naming this server\'s deferred tools ("The following deferred tools are now available via ToolSearch…", a name and a line break each); "named nowhere": tools the server lists that the first request neither loaded nor named. Codex: its namespace line in the developer message ("- mcp__<server>: …"), and any tool of the server (none when they are deferred).\n')
console.log('| CLI | commands | tools listed | Claude Code: tools loaded up front | their bytes | deferred names | their bytes | named nowhere | Claude Code tokens | Codex: namespace line bytes | Codex tools | Codex tokens |')
console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |')
for (const {cli, commands, firstList, listed} of measured) {
  const {codex} = firstList
  const claude = firstList.claude ?? firstList.claudeWaited
  const waited = firstList.claude ? '' : ` (with ${WAIT_VARIABLE})`
  const cells = [
    cli.name,
    commands,
    listed,
    ...(claude
      ? [
          `${claude.loaded.length} (${claude.loadedShort.join(', ')})${waited}`,
          claude.loadedBytes,
          claude.deferred,
          claude.deferredBytes,
          claude.unseen.length > 0 ? `${claude.unseen.length} (${claude.unseen.join(', ')})` : 0,
          tokens(claude.loadedBytes + claude.deferredBytes),
        ]
      : ['not measured', '', '', '', '', '']),
    ...(codex ? [codex.lineBytes, codex.tools.length, tokens(codex.lineBytes + codex.toolBytes)] : ['not measured', '', '']),
  ]
  console.log(`| ${cells.join(' | ')} |`)
}

console.log('\n## Misses (expected command not in the top 5)\n')
for (const {cli, rows} of measured) {
  for (const row of rows) {
    for (const key of SEARCHES.filter((name) => row[name])) {
      const t = row[key]
      if (t.failed || t.misses.length === 0) continue
      console.log(`${cli.name} ${row.set}, ${t.search}:`)
      for (const miss of t.misses) console.log(`  - ${miss}`)
    }
  }
}
