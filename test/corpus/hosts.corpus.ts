// Real MCP hosts from the npm registry, in the cache the corpus uses: each gets the example CLI's server the way
// `mcp config --write` registers it for that host, and must connect to it through its own client.
// Claude Code: `claude mcp get NAME` starts the server and reports whether it connected (no model login needed).
// Gemini CLI: `gemini mcp list` connects to each configured server and reports it (no login), in a folder Gemini trusts.
// `mcp config --env NAME`: each host is checked to hand that variable of its own environment to the server (Codex
// and Gemini CLI filter what a server gets), by calling faulty-cli's `env` tool, which lists what its command saw.
// Resources and prompts are seen the way a person meets them: each host runs one whole turn against a stand-in for
// its model API on loopback (model-endpoint.ts), and the test reads what the host put in front of the model.
// Codex: `codex app-server` (JSON-RPC on stdio) lists each MCP server's tools (`mcpServerStatus/list`) and calls
// them (`mcpServer/tool/call` in a thread), also without a login.
import {afterAll, beforeAll, describe, expect, it} from '@jest/globals'
import {spawn} from 'node:child_process'
import {chmodSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

import {type Served, serveTaskbox} from '../helpers/serve.js'
import {CORPUS, installDir, mcpArgv, nodeOf, prepare, ROOT, runCli} from './clis.js'
import {codexTurn} from './codex-turn.js'
import {hostScratch} from './host-home.js'
import {type ScriptedCall, sentText, startModelEndpoint} from './model-endpoint.js'

const TASKBOX = join(ROOT, 'examples/taskbox/bin/run.js')
const FAULTY = join(ROOT, 'test/fixtures/faulty-cli/bin/run.js')
/** A variable named like a secret, which Codex and Gemini CLI keep from a server unless told to pass it on. */
const PASSED = 'DEPLOY_API_KEY'
const names = (result: {structuredContent?: unknown}) => ((result.structuredContent as {data: {names: string[]}}).data ?? {names: []}).names
const space = realpathSync(mkdtempSync(join(tmpdir(), 'mcp-hosts-')))
afterAll(() => rmSync(space, {force: true, recursive: true}))

let scratchCount = 0
/** A project directory and a HOME of its own (host-home.ts). */
const scratch = () => hostScratch(join(space, `s${++scratchCount}`))

describe('Claude Code', () => {
  const claude = () => join(installDir('claude-code'), 'node_modules/.bin/claude')
  /**
   * A headless turn (`claude -p`) goes to the model without a server that is still starting (a person at the prompt
   * waits for it instead): on a loaded machine taskbox may take longer than Claude's own short wait, so the turn is told
   * to wait for it. What is checked is what the model is handed once the server is there.
   */
  const headless = (model: {url: string}) => ({ANTHROPIC_API_KEY: 'sk-ant-offline', ANTHROPIC_BASE_URL: model.url, CLAUDE_CODE_MCP_STARTUP_WAIT_MS: '120000'})

  it('connects, without asking, to the server mcp config --client claude-code --write registers', async () => {
    const {env, project} = scratch()
    const written = await runCli(process.execPath, [TASKBOX, 'mcp', 'config', '--client', 'claude-code', '--write'], env, project)
    expect(written.code).toBe(0)
    const got = await runCli(claude(), ['mcp', 'get', 'taskbox'], env, project)
    expect(got.stdout).toContain('Local config')
    expect(got.stdout).toMatch(/Status: ✔ Connected/)
  })

  it('reads the variables --env passes on as its own expansions', async () => {
    const {env, project} = scratch()
    const written = await runCli(process.execPath, [TASKBOX, 'mcp', 'config', '--client', 'claude-code', '--write', '--env', PASSED], env, project)
    expect(written.code).toBe(0)
    const got = await runCli(claude(), ['mcp', 'get', 'taskbox'], {...env, [PASSED]: 'k-123'}, project)
    expect(got.stdout).toMatch(/Status: ✔ Connected/)
    expect(got.stdout).toMatch(new RegExp(`Environment:[\\s\\S]*${PASSED}=`))
  })

  it('takes the claude mcp add line mcp config prints with --env, as a shell runs it', async () => {
    const {env, project} = scratch()
    const printed = await runCli(process.execPath, [TASKBOX, 'mcp', 'config', '--client', 'claude-code', '--env', PASSED, '--name', 'tb-added', '--json'], env, project)
    const {addCommand} = (JSON.parse(printed.stdout) as {clients: {addCommand: string}[]}).clients[0]
    const added = await runCli('/bin/sh', ['-c', addCommand], {...env, PATH: `${join(installDir('claude-code'), 'node_modules/.bin')}:${env.PATH}`}, project)
    expect([added.code, added.stdout]).toEqual([0, expect.stringContaining('Added stdio MCP server tb-added')])
    const got = await runCli(claude(), ['mcp', 'get', 'tb-added'], {...env, [PASSED]: 'k-123'}, project)
    expect(got.stdout).toMatch(/Status: ✔ Connected/)
    expect(got.stdout).toMatch(new RegExp(`Environment:[\\s\\S]*${PASSED}=`))
  })

  /**
   * One headless turn of Claude Code in a project where `mcp config --client claude-code --write` registered taskbox (or
   * `bin`, with `config`'s server flags); `prepare` fills the project first.
   */
  async function turn(prompt: string, script: ScriptedCall[] = [], extra: string[] = [], {bin = TASKBOX, config = [], prepare}: {bin?: string; config?: string[]; prepare?: (project: string) => void} = {}) {
    const {env, project} = scratch()
    prepare?.(project)
    const written = await runCli(process.execPath, [bin, 'mcp', 'config', '--client', 'claude-code', '--write', ...config], env, project)
    expect(written.code).toBe(0)
    const model = await startModelEndpoint(script)
    try {
      const ran = await runCli(claude(), ['-p', prompt, '--output-format', 'stream-json', '--verbose', ...extra], {...env, ...headless(model)}, project)
      const events = ran.stdout.split('\n').filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as Record<string, unknown>)
      return {bodies: model.bodies, events, project, sent: sentText(model)}
    } finally {
      await model.close()
    }
  }

  it('offers an author prompt as a slash command, expanded by prompts/get with its arguments', async () => {
    const {events, sent} = await turn('/mcp__taskbox__plan-week /srv/app high')
    const init = events.find((event) => event.subtype === 'init') as {mcp_servers: {name: string; status: string}[]; slash_commands: string[]}
    expect(init.mcp_servers).toContainEqual({name: 'taskbox', source: expect.any(String), status: 'connected'})
    expect(init.slash_commands).toContain('mcp__taskbox__plan-week')
    // The model gets the template rendered with project=/srv/app and focus=high, tools named as this server has them.
    expect(sent).toContain('In /srv/app, list the open tasks with the `tasks_list` tool')
    expect(sent).toContain('high-priority tasks first')
  })

  it('offers the model the skill mcp skill --write installs in the project', async () => {
    const {env, project} = scratch()
    expect((await runCli(process.execPath, [TASKBOX, 'mcp', 'skill', '--write'], env, project)).code).toBe(0)
    const model = await startModelEndpoint()
    try {
      const ran = await runCli(claude(), ['-p', 'hi', '--output-format', 'stream-json', '--verbose'], {...env, ...headless(model)}, project)
      const init = ran.stdout.split('\n').filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as {skills?: string[]; subtype?: string}).find((event) => event.subtype === 'init')
      expect(init?.skills).toContain('taskbox')
      // What the model reads up front is the frontmatter's description; the rest waits until the skill is used.
      expect(sentText(model)).toContain('- taskbox: A small task tracker that keeps its tasks in the directory you run it in')
    } finally {
      await model.close()
    }
  })

  it('reads a command reference through its MCP resource tool', async () => {
    // Claude Code defers MCP tools behind its tool search: the scripted model loads the resource reader, then calls it.
    const {sent} = await turn('Read the reference of tasks add.', [
      {input: {max_results: 1, query: 'select:ReadMcpResourceTool'}, tool: 'ToolSearch'},
      {input: {server: 'taskbox', uri: 'taskbox://commands/tasks:add'}, tool: 'ReadMcpResourceTool'},
    ], ['--allowedTools', 'ReadMcpResourceTool'])
    expect(sent).toContain('# taskbox tasks add')
    expect(sent).toContain('## Usage')
    expect(sent).toContain('Call the tool `tasks_add`.')
  })

  /**
   * What the model was handed as the result of its `n`th tool call (the tool_result parts of the last request): its
   * text, or, when Claude Code sent several blocks (a resource link's line, then the JSON of structuredContent), each.
   */
  function toolResult(bodies: Record<string, unknown>[], n: number): string[] {
    const messages = (bodies.at(-1)?.messages ?? []) as {content: unknown}[]
    const parts = messages.flatMap((m) => (Array.isArray(m.content) ? (m.content as {content?: unknown; type: string}[]) : [])).filter((part) => part.type === 'tool_result')
    const content = parts[n]?.content
    if (typeof content === 'string') return [content]
    return ((content ?? []) as {text?: string}[]).map((block) => block.text ?? JSON.stringify(block))
  }

  it('keeps a cut result in front of the model, its notice and the call that reads on first', async () => {
    // 2 MiB of output: the server cuts it to its budget for Claude Code (60,000 characters), past the 50,000 Claude
    // keeps inline by default, and says so in the tool's _meta (anthropic/maxResultSizeChars).
    const {bodies} = await turn('Show me the lines.', [
      {input: {max_results: 1, query: 'select:mcp__faulty__lines'}, tool: 'ToolSearch'},
      {input: {kib: 2048}, tool: 'mcp__faulty__lines'},
    ], ['--allowedTools', 'mcp__faulty__lines'], {bin: FAULTY})
    const [link, result] = toolResult(bodies, 1)
    // First the whole output's resource, then the JSON of structuredContent, where what was cut and the exact calls
    // that read on come first…
    expect(link).toMatch(/^\[Resource link: stdout of \S+\] faulty:\/\/output\/\S+\/stdout/)
    expect(result).toMatch(/^\{"cut":\{"message":"Cut to fit what the host shows: only the head and the tail of stdout are shown; the whole output is kept/)
    expect(result).toMatch(/"read":\[\{"arguments":\{"output":"[^"]+","stream":"stdout","offset":\d+\},"tool":"read_output"\}\]/)
    // …and the whole cut result stayed inline (a result saved to a file would leave the model a 2,000-character preview).
    expect(result.length).toBeGreaterThan(50_000)
    expect(result).toContain('out line 0032768 ')
  })

  it('shows the model the call that follows a job', async () => {
    const {bodies} = await turn('Make the weekly report.', [{input: {delay: 30}, tool: 'mcp__taskbox__report_weekly'}], ['--allowedTools', 'mcp__taskbox__report_weekly'], {
      config: ['--foreground', '1', '--cwd', '.'],
      prepare: (dir) => writeFileSync(join(dir, '.taskbox.json'), JSON.stringify({name: 'p', nextId: 1, tasks: []})),
    })
    const [result] = toolResult(bodies, 0)
    expect(result).toMatch(/^\{"message":"Job \S+ is running .* Follow it with job_status \{\\"job\\": /)
    expect(result).toMatch(/"next":\{"arguments":\{"job":"[^"]+","cursor":"[\d.]+","wait":50\},"tool":"job_status"\}/)
    expect(result).toMatch(/"cancel":\{"arguments":\{"job":"[^"]+"\},"tool":"cancel_job"\}/)
  })

  it('asks before a destructive tool even under an allow rule for the whole server', async () => {
    const tasks = JSON.stringify({name: 'p', nextId: 2, tasks: [{done: true, id: 1, title: 'old'}]})
    const {bodies, project} = await turn('Clear the done tasks.', [{input: {yes: true}, tool: 'mcp__taskbox__tasks_clear'}], ['--allowedTools', 'mcp__taskbox'], {
      prepare: (dir) => writeFileSync(join(dir, '.taskbox.json'), tasks),
    })
    // Headless, nobody can say yes: the call is refused and the command never ran.
    expect(toolResult(bodies, 0)).toEqual([expect.stringContaining('requires permission')])
    expect(JSON.parse(readFileSync(join(project, '.taskbox.json'), 'utf8')).tasks).toHaveLength(1)
  })

  it('finds a deferred command with its own search from a natural query, and loads the gateway up front', async () => {
    const {bodies} = await turn('Get set up.', [
      {input: {max_results: 3, query: 'upload the tasks to the team server'}, tool: 'ToolSearch'},
      {input: {max_results: 3, query: 'start a task list in this folder'}, tool: 'ToolSearch'},
    ])
    expect(toolResult(bodies, 0)).toContain('{"type":"tool_reference","tool_name":"mcp__taskbox__sync"}')
    expect(toolResult(bodies, 1)[0]).toBe('{"type":"tool_reference","tool_name":"mcp__taskbox__init"}')
    // Loaded before any search: the calls every answer may name (find, describe, run; follow, stop, read on).
    const first = (bodies[0].tools as {name: string}[]).map((tool) => tool.name)
    for (const name of ['find_commands', 'describe_command', 'run_command', 'job_status', 'cancel_job', 'read_output']) expect(first).toContain(`mcp__taskbox__${name}`)
    // The first tool list stays small: every tool of the server the model gets up front, in tokens of about 4 bytes.
    const ours = (bodies[0].tools as {name: string}[]).filter((tool) => tool.name.startsWith('mcp__taskbox__'))
    expect(Buffer.byteLength(JSON.stringify(ours)) / 4).toBeLessThan(8000)
  })

  it('is listed every command, the band\'s and the others, so its own search finds one the band leaves out', async () => {
    // A band of 3 commands: the host that puts every tool before its model (Gemini CLI, below) is listed those 3;
    // Claude Code, which defers them all behind its search, every command.
    const {bodies} = await turn('Upload my tasks.', [{input: {max_results: 5, query: 'upload the tasks to the team server'}, tool: 'ToolSearch'}], [], {config: ['--max-tools', '3']})
    const first = JSON.stringify(bodies[0])
    for (const name of ['init', 'sync', 'tasks_add', 'tasks_remove', 'report_weekly']) expect(first).toContain(`mcp__taskbox__${name}`)
    expect(toolResult(bodies, 0)).toContain('{"type":"tool_reference","tool_name":"mcp__taskbox__sync"}')
  })

  it('holds a --scope project server for approval, as the command says it will', async () => {
    const {env, project} = scratch()
    const written = await runCli(process.execPath, [TASKBOX, 'mcp', 'config', '--client', 'claude-code', '--scope', 'project', '--write'], env, project)
    expect(written.stdout).toContain('pending approval')
    const got = await runCli(claude(), ['mcp', 'get', 'taskbox'], env, project)
    expect(got.stdout).toContain('Project config')
    expect(got.stdout).toMatch(/Pending approval/)
  })
})

/** `codex app-server` over stdio: requests answered by id; notifications kept. */
function appServer(env: Record<string, string>, cwd: string) {
  const child = spawn(join(installDir('codex'), 'node_modules/.bin/codex'), ['app-server'], {cwd, env, stdio: ['pipe', 'pipe', 'pipe']})
  const waiting = new Map<number, (message: Record<string, unknown>) => void>()
  let buffered = ''
  child.stdout.on('data', (chunk: Buffer) => {
    buffered += chunk
    for (let at = buffered.indexOf('\n'); at >= 0; at = buffered.indexOf('\n')) {
      const line = buffered.slice(0, at)
      buffered = buffered.slice(at + 1)
      try {
        const message = JSON.parse(line) as Record<string, unknown>
        if (typeof message.id === 'number') waiting.get(message.id)?.(message)
      } catch {
        // Not a message of ours.
      }
    }
  })
  child.stdin.on('error', () => {})
  let ids = 0
  return {
    close: () => child.kill('SIGKILL'),
    request(method: string, params: unknown): Promise<Record<string, unknown>> {
      const id = ++ids
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`codex app-server did not answer ${method}`)), 90_000)
        waiting.set(id, (message) => {
          clearTimeout(timer)
          resolve(message)
        })
        child.stdin.write(`${JSON.stringify({id, jsonrpc: '2.0', method, params})}\n`)
      })
    },
  }
}

describe('Codex', () => {
  it('lists the skill mcp skill --client codex --write installs', async () => {
    const {env, project} = scratch()
    const codexEnv = {...env, CODEX_HOME: join(env.HOME, '.codex')}
    expect((await runCli(process.execPath, [TASKBOX, 'mcp', 'skill', '--client', 'codex', '--write'], codexEnv, project)).code).toBe(0)
    const codex = appServer(codexEnv, project)
    try {
      await codex.request('initialize', {clientInfo: {name: 'oclif-plugin-mcp-tests', version: '1'}})
      const listed = JSON.stringify((await codex.request('skills/list', {cwds: [project]})).result)
      expect(listed).toContain('"name":"taskbox"')
      expect(listed).toContain('A small task tracker')
    } finally {
      codex.close()
    }
  })

  it('hands a server only the variables mcp config --env names', async () => {
    const {env, project} = scratch()
    const codexEnv = {...env, CODEX_HOME: join(env.HOME, '.codex'), [PASSED]: 'k-123'}
    for (const [name, extra] of [['plain', []], ['passed', ['--env', PASSED]]] as const) {
      const written = await runCli(process.execPath, [FAULTY, 'mcp', 'config', '--client', 'codex', '--write', '--name', name, ...extra], codexEnv, project)
      expect(written.code).toBe(0)
    }

    const listed = await runCli(join(installDir('codex'), 'node_modules/.bin/codex'), ['mcp', 'list', '--json'], codexEnv, project)
    expect(JSON.parse(listed.stdout)).toEqual(expect.arrayContaining([expect.objectContaining({name: 'passed'})]))
    const codex = appServer(codexEnv, project)
    try {
      await codex.request('initialize', {clientInfo: {name: 'oclif-plugin-mcp-tests', version: '1'}})
      await codex.request('mcpServerStatus/list', {})
      const thread = ((await codex.request('thread/start', {})).result as {thread: {id: string}}).thread.id
      const seen = async (server: string) => names((await codex.request('mcpServer/tool/call', {arguments: {}, server, threadId: thread, tool: 'env'})).result as {structuredContent?: unknown})
      expect(await seen('plain')).not.toContain(PASSED)
      expect(await seen('passed')).toContain(PASSED)
    } finally {
      codex.close()
    }
  })

  it('lists every tool of the server mcp config --client codex --write registers, and calls a read-only and a failing one', async () => {
    const {env, project} = scratch()
    const codexEnv = {...env, CODEX_HOME: join(env.HOME, '.codex')}
    const written = await runCli(process.execPath, [TASKBOX, 'mcp', 'config', '--client', 'codex', '--write', '--cwd', project], codexEnv, project)
    expect(written.code).toBe(0)
    const codex = appServer(codexEnv, project)
    try {
      await codex.request('initialize', {clientInfo: {name: 'oclif-plugin-mcp-tests', version: '1'}})
      const status = (await codex.request('mcpServerStatus/list', {})).result as {
        data: {name: string; resources?: {uri: string}[]; resourceTemplates?: {uriTemplate: string}[]; tools: Record<string, unknown>}[]
      }
      const taskbox = status.data.find((server) => server.name === 'taskbox')
      expect(Object.keys(taskbox?.tools ?? {})).toEqual(expect.arrayContaining(['cli_info', 'run_command', 'status', 'sync', 'tasks_add', 'job_status', 'read_output']))
      // Codex reads the resources and templates too: the docs, a reference per command, the kept outputs.
      expect(taskbox?.resources?.map((r) => r.uri)).toEqual(expect.arrayContaining(['taskbox://setup/agent-instructions', 'taskbox://docs/taskbox/README.md', 'taskbox://commands/tasks:add']))
      expect(taskbox?.resourceTemplates?.map((t) => t.uriTemplate)).toEqual(['taskbox://docs/{+path}', 'taskbox://commands/{id}', 'taskbox://output/{id}/{stream}'])
      const thread = ((await codex.request('thread/start', {})).result as {thread: {id: string}}).thread.id
      const call = (tool: string) => codex.request('mcpServer/tool/call', {arguments: {}, server: 'taskbox', threadId: thread, tool})
      const status2 = (await call('status')).result as {isError?: boolean; structuredContent: {data: {directory: string}}}
      expect(status2.isError).toBeFalsy()
      expect(status2.structuredContent.data.directory).toBe(project)
      const failed = (await call('sync')).result as {content: {text: string}[]; isError?: boolean}
      expect(failed.isError).toBe(true)
      expect(failed.content[0].text).toContain('No sync server configured')
    } finally {
      codex.close()
    }
  })

  it('starts the server of a CLI whose plugin is linked under a moved data folder (XDG_DATA_HOME, which Codex does not pass on)', async () => {
    const {env, project} = scratch()
    // The oclif CLI finds oclif-plugin-mcp only as a user plugin recorded in $XDG_DATA_HOME/oclif (what `plugins link` writes).
    const cli = CORPUS.find((c) => c.name === 'oclif')!
    const cliEnv = {...prepare(cli, env.HOME), CODEX_HOME: join(env.HOME, '.codex')}
    const written = await runCli(nodeOf(cli), mcpArgv(cli, 'config', ['--client', 'codex', '--write']), cliEnv, project)
    expect(written.code).toBe(0)
    const codex = appServer(cliEnv, project)
    try {
      await codex.request('initialize', {clientInfo: {name: 'oclif-plugin-mcp-tests', version: '1'}})
      const status = (await codex.request('mcpServerStatus/list', {})).result as {data: {name: string; tools: Record<string, unknown>}[]}
      expect(Object.keys(status.data.find((server) => server.name === 'oclif')?.tools ?? {})).toEqual(expect.arrayContaining(['cli_info', 'run_command']))
      expect(readFileSync(join(env.HOME, '.codex/config.toml'), 'utf8')).toMatch(/env_vars = \[.*"XDG_DATA_HOME"/)
    } finally {
      codex.close()
    }
  })
})

describe('Gemini CLI', () => {
  const gemini = () => join(installDir('gemini-cli'), 'node_modules/.bin/gemini')

  /**
   * A project Gemini trusts (it starts no server of an untrusted folder), with the server added to the user's
   * settings by `mcp config --client gemini --write`, next to settings of the person's own (kept: the file is edited).
   */
  async function geminiProject(bin = TASKBOX, extra: readonly string[] = []) {
    const {env, project} = scratch()
    mkdirSync(join(env.HOME, '.gemini'), {recursive: true})
    writeFileSync(join(env.HOME, '.gemini', 'trustedFolders.json'), JSON.stringify({[project]: 'TRUST_FOLDER'}))
    // A base URL alone would select Gemini's "gateway" sign-in, which headless mode refuses: the key sign-in is named.
    writeFileSync(join(env.HOME, '.gemini', 'settings.json'), '{\n  // mine\n  "security": {"auth": {"selectedType": "gemini-api-key"}}\n}\n')
    const written = await runCli(process.execPath, [bin, 'mcp', 'config', '--client', 'gemini', '--write', ...extra], env, project)
    expect(written.code).toBe(0)
    return {env, project}
  }

  /** One headless turn, with an API key that only the loopback endpoint ever sees. */
  async function turn(prompt: string, script: ScriptedCall[] = [], bin = TASKBOX) {
    const {env, project} = await geminiProject(bin)
    const model = await startModelEndpoint(script)
    try {
      // Headless, Gemini CLI offers only tools that need no confirmation: a script that calls one runs in yolo mode.
      const mode = script.length > 0 ? ['--approval-mode', 'yolo'] : []
      const ran = await runCli(gemini(), ['-p', prompt, '-o', 'json', ...mode], {...env, GEMINI_API_KEY: 'offline', GOOGLE_GEMINI_BASE_URL: model.url}, project)
      expect(ran.stdout).toContain('"response": "done"')
      return sentText(model)
    } finally {
      await model.close()
    }
  }

  it('shows the model a cut result whole, within what it keeps, the notice first', async () => {
    const sent = await turn('Show me the lines.', [{input: {kib: 2048}, tool: 'mcp_faulty_lines'}], FAULTY)
    // Gemini CLI shows the text: the notice and the call that reads the rest right after the header…
    expect(sent).toMatch(/\(exit 0, \d+ ms, in [^)]+\)\\n\[Cut to fit what the host shows: the head and the tail of the output are shown below; .* Read the rest with read_output \{\\"output\\": /)
    // …and nothing was cut by Gemini (it keeps the first 8,000 and the last 32,000 characters of a longer text): the
    // server's own notice in the middle and the last line are both there.
    expect(sent).toMatch(/\[… \d+ characters not shown\. The whole output is kept/)
    expect(sent).toContain('out line 0032768 ')
  })

  it('is declared the band alone (the other commands through find_commands and run_command), as it puts every tool before its model', async () => {
    const {env, project} = await geminiProject(TASKBOX, ['--max-tools', '3'])
    const model = await startModelEndpoint()
    try {
      const ran = await runCli(gemini(), ['-p', 'hi', '-o', 'json', '--approval-mode', 'yolo'], {...env, GEMINI_API_KEY: 'offline', GOOGLE_GEMINI_BASE_URL: model.url}, project)
      expect(ran.code).toBe(0)
      const declared = model.bodies
        .flatMap((body) => ((body.tools ?? []) as {functionDeclarations?: {name: string}[]}[]).flatMap((tool) => tool.functionDeclarations ?? []))
        .map((declaration) => declaration.name)
        .filter((name) => name.startsWith('mcp_taskbox_'))
      const commands = new Set(declared.filter((name) => !/_(?:cli_info|list_commands|describe_command|search_docs|read_doc|describe_capabilities|find_commands|run_command|job_status|cancel_job|read_output)$/.test(name)))
      expect(commands.size).toBe(3)
      expect(declared).toContain('mcp_taskbox_find_commands')
    } finally {
      await model.close()
    }
  })

  it('connects in the folder mcp config --write --trust records as trusted, and shows the server Disabled without it', async () => {
    for (const trust of [false, true]) {
      const {env, project} = scratch()
      const written = await runCli(process.execPath, [TASKBOX, 'mcp', 'config', '--client', 'gemini', '--write', ...(trust ? ['--trust'] : [])], env, project)
      expect(written.code).toBe(0)
      const listed = await runCli(gemini(), ['mcp', 'list'], env, project)
      expect([trust, listed.stdout + listed.stderr]).toEqual([trust, expect.stringMatching(trust ? /taskbox: .* - Connected/ : /taskbox: .*Disabled/)])
    }
  })

  it('connects to the server mcp config --client gemini --write registers', async () => {
    const {env, project} = await geminiProject()
    const listed = await runCli(gemini(), ['mcp', 'list'], env, project)
    expect(listed.stdout + listed.stderr).toMatch(/taskbox: .* - Connected/)
  })

  it('hands the server a variable named like a secret only when mcp config --env names it', async () => {
    const seen: Record<string, boolean> = {}
    for (const [label, extra] of [['plain', []], ['passed', ['--env', PASSED]]] as const) {
      const {env, project} = await geminiProject(FAULTY, extra)
      // Gemini CLI names a server's tools mcp_<server>_<tool>.
      const model = await startModelEndpoint([{input: {}, tool: 'mcp_faulty_env'}])
      try {
        const ran = await runCli(gemini(), ['-p', 'What does the environment hold?', '-o', 'json', '--approval-mode', 'yolo'], {...env, GEMINI_API_KEY: 'offline', GOOGLE_GEMINI_BASE_URL: model.url, [PASSED]: 'k-123'}, project)
        expect(ran.code).toBe(0)
        const sent = sentText(model)
        // The tool's answer went back to the model: the names of the variables the command saw.
        expect(sent).toContain('PATH')
        seen[label] = sent.includes(PASSED)
      } finally {
        await model.close()
      }
    }

    expect(seen).toEqual({passed: true, plain: false})
  })

  it('offers the model the skill mcp skill --client gemini --write installs', async () => {
    const {env, project} = await geminiProject()
    expect((await runCli(process.execPath, [TASKBOX, 'mcp', 'skill', '--client', 'gemini', '--write'], env, project)).code).toBe(0)
    const model = await startModelEndpoint()
    try {
      // Headless, Gemini CLI offers only tools that need no confirmation, activate_skill not among them: yolo offers it.
      const ran = await runCli(gemini(), ['-p', 'hi', '-o', 'json', '--approval-mode', 'yolo'], {...env, GEMINI_API_KEY: 'offline', GOOGLE_GEMINI_BASE_URL: model.url}, project)
      expect(ran.code).toBe(0)
      // Gemini's activate_skill tool names the skills it found, and the model is told each one's description.
      expect(sentText(model)).toMatch(/Available: [^)]*'taskbox'/)
      expect(sentText(model)).toContain('A small task tracker that keeps its tasks in the directory you run it in')
    } finally {
      await model.close()
    }
  })

  it('offers an author prompt as a slash command, expanded by prompts/get with its named arguments', async () => {
    const sent = await turn('/plan-week --project=/srv/app --focus=high')
    expect(sent).toContain('In /srv/app, list the open tasks with the `tasks_list` tool')
    expect(sent).toContain('high-priority tasks first')
  })

  it('attaches a command reference named with @server:uri', async () => {
    const sent = await turn('Summarise @taskbox:taskbox://commands/tasks:add')
    expect(sent).toContain('Content from @taskbox://commands/tasks:add')
    expect(sent).toContain('# taskbox tasks add')
    expect(sent).toContain('## Usage')
  })
})

// The same through `mcp serve`: each host set up by `mcp config --client X --write --url … --token-env …`, which
// names the host in the URL (stateless 2025 requests carry no clientInfo, and Gemini CLI sends no protocol header),
// and hands the bearer token over from a variable of the host's own environment.
describe('over HTTP, as mcp config --url sets each host up', () => {
  const TOKEN = 'tok-hosts-http-4f1c'
  let served: Served
  const tokenFile = join(space, 'http-token')

  beforeAll(async () => {
    writeFileSync(tokenFile, `${TOKEN}\n`)
    chmodSync(tokenFile, 0o600)
    served = await serveTaskbox({args: ['--token-file', tokenFile], bin: FAULTY, cwd: space, env: {HOME: join(space, 'http-server-home'), PATH: process.env.PATH ?? ''}})
  })
  afterAll(async () => {
    await served?.stop()
  })

  /** A scratch project with the server written into the host's config file, and the token in the environment. */
  async function setUp(client: string, extra: string[] = []) {
    const {env, project} = scratch()
    const written = await runCli(process.execPath, [FAULTY, 'mcp', 'config', '--client', client, '--write', '--url', served.url, '--token-env', 'FAULTY_TOKEN', '--name', 'faulty', ...extra], env, project)
    expect(written.code).toBe(0)
    const withToken: Record<string, string> = {...env, FAULTY_TOKEN: TOKEN}
    return {env: withToken, project}
  }

  it('Claude Code connects with the token from its environment', async () => {
    const {env, project} = await setUp('claude-code')
    const got = await runCli(join(installDir('claude-code'), 'node_modules/.bin/claude'), ['mcp', 'get', 'faulty'], env, project)
    expect(got.stdout).toMatch(/Status: ✔ Connected/)
    expect(got.stdout).toContain(`${served.url}?client=claude-code`)
  })

  it('Codex hands its model a cut result whole, within what it keeps, the notice first', async () => {
    const {env, project} = await setUp('codex')
    const turn = await codexTurn('Show me the lines.', [{input: {kib: 2048}, namespace: 'mcp__faulty', tool: 'lines'}], {env: {...env, CODEX_HOME: join(env.HOME, '.codex')}, project})
    expect(turn.code).toBe(0)
    const output = JSON.stringify(turn.bodies.at(-1))
    expect(output).toMatch(/Output:\\n\{\\"cut\\":\{\\"message\\":\\"Cut to fit what the host shows/)
    expect(output).not.toMatch(/tokens truncated/)
    expect(output).toContain('out line 0032768 ')
  })

  it('Gemini CLI, which says neither who it is nor its revision over HTTP, is served within what it keeps', async () => {
    const {env, project} = await setUp('gemini', ['--trust'])
    writeFileSync(join(env.HOME, '.gemini', 'settings.json'), readFileSync(join(env.HOME, '.gemini', 'settings.json'), 'utf8').replace(/^\{/, '{\n  "security": {"auth": {"selectedType": "gemini-api-key"}},'))
    const listed = await runCli(join(installDir('gemini-cli'), 'node_modules/.bin/gemini'), ['mcp', 'list'], env, project)
    expect(listed.stdout + listed.stderr).toMatch(/faulty: .* - Connected/)
    const model = await startModelEndpoint([{input: {kib: 2048}, tool: 'mcp_faulty_lines'}])
    try {
      const ran = await runCli(join(installDir('gemini-cli'), 'node_modules/.bin/gemini'), ['-p', 'Show me the lines.', '-o', 'json', '--approval-mode', 'yolo'], {...env, GEMINI_API_KEY: 'offline', GOOGLE_GEMINI_BASE_URL: model.url}, project)
      expect(ran.stdout).toContain('"response": "done"')
      const sent = sentText(model)
      // The text fits the 40,000 characters it keeps: the server's own middle notice and the last line are both there
      // (Gemini keeps only the first 8,000 and the last 32,000 of a longer one), and the whole output is linked.
      expect(sent).toMatch(/\[Cut to fit what the host shows: the head and the tail of the output are shown below/)
      expect(sent).toMatch(/\[… \d+ characters not shown\. The whole output is kept/)
      expect(sent).toContain('out line 0032768 ')
      expect(sent).toContain('faulty://output/')
    } finally {
      await model.close()
    }
  })
})
