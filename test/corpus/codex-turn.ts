// One whole `codex exec` turn against the stand-in model (model-endpoint.ts), so a test reads what Codex puts in front
// of its model: the tools it offers, the server instructions it quotes, each tool result as the model gets it.
// Codex needs no login for this: a model provider of our own (`model_providers.stand-in`, Responses API on loopback,
// its key from an environment variable) replaces OpenAI's, set with `-c` so the config.toml that
// `mcp config --client codex --write` wrote is read as the person's own and never edited here.
import {type ChildProcess, spawn} from 'node:child_process'
import {readdirSync, readFileSync} from 'node:fs'
import {join} from 'node:path'

import {installDir, runCli} from './clis.js'
import {type ScriptedCall, sentText, startModelEndpoint} from './model-endpoint.js'

export const codexBin = (): string => join(installDir('codex'), 'node_modules/.bin/codex')

/**
 * The model the turn asks for. The model decides how Codex offers tools (its bundled catalog says so per model):
 * gpt-5.5 gets them as functions, a server's behind Codex's `tool_search`; the default model (gpt-6.2-sol) is
 * "code_mode_only", every tool reached from JavaScript in one freeform `exec` tool; a name the catalog lacks gets
 * fallback metadata and every server tool at once. Another is chosen with `extraConfig: {model: '"…"'}`.
 */
export const CODEX_MODEL = 'gpt-5.5'

export type CodexTurn = {
  /** Every request body Codex sent its model, in order. */
  bodies: Record<string, unknown>[]
  code: null | number
  /** Every text Codex put in front of the model, in one string. */
  sent: string
  stderr: string
  /** `codex exec --json`: one event a line (thread.started, item.started/completed, turn.completed). */
  stdout: string
}

export type CodexTurnOptions = {
  /** The scratch environment: HOME, and CODEX_HOME (default $HOME/.codex) holding the config.toml with the servers. */
  env: Record<string, string>
  /** More `-c` overrides, by dotted key, each value in TOML (`{model: '"gpt-6.2-sol"'}`); they win over the helper's. */
  extraConfig?: Record<string, string>
  project: string
  /**
   * Make every enabled server required (the default). A plugin's server cannot be: `-c mcp_servers.<name>…` names a
   * server of config.toml, and one the plugin brings is not there ("invalid transport").
   */
  requireServers?: boolean
}

/**
 * Runs one `codex exec` turn in `project`: the stand-in answers from `script` (model-endpoint.ts), Codex runs every
 * call without asking (approval policy "never" alone refuses a tool that is not read-only), and is killed, with
 * everything it started, however the turn ends.
 */
export async function codexTurn(prompt: string, script: ScriptedCall[], {env, extraConfig = {}, project, requireServers = true}: CodexTurnOptions): Promise<CodexTurn> {
  const codexEnv = {CODEX_HOME: join(env.HOME, '.codex'), ...env, CODEX_STAND_IN_KEY: 'offline'}
  // Codex starts MCP servers alongside the turn and waits for them only a short grace: a server still starting is
  // missing from the first request. A required server is waited for (or fails the run), so each is made required.
  const listed = await runCli(codexBin(), ['mcp', 'list', '--json'], codexEnv, project)
  if (listed.code !== 0) throw new Error(`codex mcp list failed: ${listed.stderr}`)
  const servers = (JSON.parse(listed.stdout) as {enabled: boolean; name: string}[]).filter((server) => server.enabled).map((server) => server.name)
  const model = await startModelEndpoint(script)
  const config: Record<string, string> = {
    model: JSON.stringify(CODEX_MODEL),
    model_provider: '"stand-in"',
    // No retries: a request the stand-in cannot answer fails the turn at once instead of being sent again.
    'model_providers.stand-in': `{name = "stand-in", base_url = "${model.url}/v1", wire_api = "responses", env_key = "CODEX_STAND_IN_KEY", request_max_retries = 0, stream_max_retries = 0}`,
    ...(requireServers ? Object.fromEntries(servers.map((name) => [`mcp_servers.${name}.required`, 'true'])) : {}),
    ...extraConfig,
  }
  const args = ['exec', '--json', '--skip-git-repo-check', '--dangerously-bypass-approvals-and-sandbox', ...Object.entries(config).flatMap(([key, value]) => ['-c', `${key}=${value}`]), prompt]
  // Its own process group: the wrapper, the native binary and the shell commands it runs end with one signal.
  const child = spawn(codexBin(), args, {cwd: project, detached: true, env: codexEnv, stdio: ['ignore', 'pipe', 'pipe']})
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk))
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk))
  // Only a hung Codex meets this: a turn ends when Codex exits after the model's last answer.
  const timer = setTimeout(() => stop(child), 240_000)
  try {
    const code = await new Promise<null | number>((resolve, reject) => {
      child.on('error', reject)
      child.on('close', resolve)
    })
    return {bodies: model.bodies, code, sent: sentText(model), stderr, stdout}
  } finally {
    clearTimeout(timer)
    stop(child)
    await model.close()
  }
}

/**
 * Ends Codex and what it started. Its MCP servers lead process groups of their own, which the signal to Codex's group
 * misses: while Codex runs, they are found as its descendants and each is ended by id. A Codex that exited by itself
 * has ended its servers; the signal to its group still reaches a command it left running.
 */
function stop(child: ChildProcess): void {
  if (!child.pid) return
  const running = child.exitCode === null && child.signalCode === null
  for (const pid of [-child.pid, ...(running ? descendants(child.pid) : [])]) {
    try {
      process.kill(pid, 'SIGKILL')
    } catch {
      // Already gone.
    }
  }
}

/** The processes below `root`, from /proc (Linux, where the corpus runs; elsewhere none are found). */
function descendants(root: number): number[] {
  const children = new Map<number, number[]>()
  let entries: string[] = []
  try {
    entries = readdirSync('/proc').filter((entry) => /^\d+$/.test(entry))
  } catch {
    return []
  }

  for (const entry of entries) {
    try {
      // /proc/<pid>/stat: "pid (name) state ppid ...", the name may hold spaces and parentheses.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)])
    } catch {
      // Exited while we looked.
    }
  }

  const found: number[] = []
  for (let queue = [root]; queue.length > 0; ) {
    const next = children.get(queue.shift()!) ?? []
    found.push(...next)
    queue.push(...next)
  }

  return found
}
