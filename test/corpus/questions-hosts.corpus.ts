// A running command's questions through the real hosts, each driven the way a program drives it, with the loopback
// stand-in for its model API making the tool call: the host forwards our elicitations to its driver, which answers
// them as the person would, and the test reads what the model was handed. The command is the asking-cli fixture's
// `deploy` (a choice, a yes/no, a line of text through @inquirer/prompts), registered by `mcp config --write`.
// Claude Code (2.1.332): `claude -p` in stream-json mode with `--permission-prompt-tool stdio`, where a tool call
// and each elicitation come to the driver as control requests (Claude speaks 2026-07-28: each question is an
// input_required round its client fulfils through the same request). Codex (0.171.0): `codex app-server`, where each
// elicitation comes as `mcpServer/elicitation/request` (Codex's own approval of the tool call first). Gemini CLI
// (0.61.0) declares no elicitation: the command ends at its question and the model reads the flags that avoid it.
import {afterAll, describe, expect, it} from '@jest/globals'
import {spawn} from 'node:child_process'
import {mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

import {installDir, ROOT, runCli} from './clis.js'
import {hostScratch} from './host-home.js'
import {sentText, startModelEndpoint} from './model-endpoint.js'

const ASKING = join(ROOT, 'test/fixtures/asking-cli/bin/run.js')
const space = realpathSync(mkdtempSync(join(tmpdir(), 'mcp-questions-hosts-')))
afterAll(() => rmSync(space, {force: true, recursive: true}))

/** The answers the driver gives, by the question's text (what the person would type). */
const ANSWERS: [RegExp, unknown][] = [
  [/Which environment\?$/, 'Production'],
  [/Deploy to production\?$/, true],
  [/A note for the log$/, 'from the host'],
]
const answerTo = (message: string) => ANSWERS.find(([pattern]) => pattern.test(message))?.[1]
/** The command's output, as the model was handed it (JSON inside JSON: quoted at whatever depth the host put it). */
const DEPLOYED = /\{\\*"deployed\\*":true,\\*"environment\\*":\\*"production\\*",\\*"note\\*":\\*"from the host\\*"\}/

let count = 0
const scratch = () => hostScratch(join(space, `s${++count}`))

/** A child that speaks JSON lines on stdio: each line it writes goes to `onLine`; it is killed after `ms` at most. */
function jsonLines(command: string, args: string[], env: Record<string, string>, cwd: string, onLine: (message: Record<string, unknown>, write: (m: unknown) => void) => void) {
  const child = spawn(command, args, {cwd, detached: true, env, stdio: ['pipe', 'pipe', 'pipe']})
  const write = (message: unknown) => child.stdin.write(`${JSON.stringify(message)}\n`)
  let buffered = ''
  let stderr = ''
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk))
  child.stdout.on('data', (chunk: Buffer) => {
    buffered += chunk
    for (let at = buffered.indexOf('\n'); at >= 0; at = buffered.indexOf('\n')) {
      const line = buffered.slice(0, at)
      buffered = buffered.slice(at + 1)
      let message: Record<string, unknown>
      try {
        message = JSON.parse(line) as Record<string, unknown>
      } catch {
        continue
      }

      onLine(message, write)
    }
  })
  child.stdin.on('error', () => {})
  const closed = new Promise<null | number>((resolve) => child.on('close', resolve))
  return {
    closed,
    stderr: () => stderr,
    stop() {
      try {
        process.kill(-child.pid!, 'SIGKILL')
      } catch {
        // Already gone.
      }
    },
    write,
  }
}

describe('Claude Code', () => {
  it('forwards each question to its driver, whose answers reach the command; the model reads the result', async () => {
    const {env, project} = scratch()
    const written = await runCli(process.execPath, [ASKING, 'mcp', 'config', '--client', 'claude-code', '--write'], env, project)
    expect(written.code).toBe(0)
    const model = await startModelEndpoint([
      {input: {max_results: 1, query: 'select:mcp__asking__deploy'}, tool: 'ToolSearch'},
      {input: {}, tool: 'mcp__asking__deploy'},
    ])
    const asked: {message: string; schema: unknown}[] = []
    const permissions: string[] = []
    const claude = jsonLines(
      join(installDir('claude-code'), 'node_modules/.bin/claude'),
      ['-p', '--input-format', 'stream-json', '--output-format', 'stream-json', '--verbose', '--permission-prompt-tool', 'stdio'],
      {...env, ANTHROPIC_API_KEY: 'sk-ant-offline', ANTHROPIC_BASE_URL: model.url, CLAUDE_CODE_MCP_STARTUP_WAIT_MS: '120000'},
      project,
      (message, write) => {
        const request = message.request as {input?: unknown; message?: string; requested_schema?: {properties?: {answer?: unknown}}; subtype?: string; tool_name?: string} | undefined
        const reply = (response: unknown) => write({response: {request_id: message.request_id, response, subtype: 'success'}, type: 'control_response'})
        if (message.type === 'control_request' && request?.subtype === 'can_use_tool') {
          permissions.push(String(request.tool_name))
          reply({behavior: 'allow', updatedInput: request.input})
        } else if (message.type === 'control_request' && request?.subtype === 'elicitation') {
          asked.push({message: String(request.message), schema: request.requested_schema?.properties?.answer})
          const answer = answerTo(String(request.message))
          reply(answer === undefined ? {action: 'decline'} : {action: 'accept', content: {answer}})
        }
      },
    )
    try {
      claude.write({message: {content: 'Deploy it.', role: 'user'}, type: 'user'})
      const timer = setTimeout(() => claude.stop(), 240_000)
      // Until the model has been handed the tool's result (or Claude ends): Claude itself waits for more input.
      await new Promise<void>((resolve) => {
        const poll = setInterval(() => {
          if (sentText(model).includes('from the host') || model.bodies.length > 3) {
            clearInterval(poll)
            resolve()
          }
        }, 200)
        void claude.closed.then(() => {
          clearInterval(poll)
          resolve()
        })
      })
      clearTimeout(timer)
    } finally {
      claude.stop()
      await model.close()
    }

    expect(permissions).toContain('mcp__asking__deploy')
    expect(asked.map((a) => a.message)).toEqual(['"asking deploy" asks: Which environment?', '"asking deploy" asks: Deploy to production?', '"asking deploy" asks: A note for the log'])
    expect(asked[0].schema).toMatchObject({enum: ['Staging', 'Production'], type: 'string'})
    expect(sentText(model)).toMatch(DEPLOYED)
  })
})

describe('Codex', () => {
  it('forwards each question to its app-server client, after its own approval of the call; the model reads the result', async () => {
    const {env, project} = scratch()
    const codexHome = join(env.HOME, '.codex')
    const codexEnv = {...env, CODEX_HOME: codexHome, CODEX_STAND_IN_KEY: 'offline'}
    const written = await runCli(process.execPath, [ASKING, 'mcp', 'config', '--client', 'codex', '--write', '--cwd', project], codexEnv, project)
    expect(written.code).toBe(0)
    const model = await startModelEndpoint([{input: {}, namespace: 'mcp__asking', tool: 'deploy'}])
    // The stand-in as Codex's model provider: root keys first, then the table, around what mcp config wrote.
    const config = readFileSync(join(codexHome, 'config.toml'), 'utf8')
    const provider = ['[model_providers.stand-in]', 'name = "stand-in"', `base_url = "${model.url}/v1"`, 'wire_api = "responses"', 'env_key = "CODEX_STAND_IN_KEY"', 'request_max_retries = 0', 'stream_max_retries = 0']
    writeFileSync(join(codexHome, 'config.toml'), ['model = "gpt-5.5"', 'model_provider = "stand-in"', config, ...provider, ''].join('\n'))

    const asked: {approval: boolean; message: string}[] = []
    const waiting = new Map<number, (message: Record<string, unknown>) => void>()
    let completed: () => void = () => {}
    const turnDone = new Promise<void>((resolve) => (completed = resolve))
    const codex = jsonLines(join(installDir('codex'), 'node_modules/.bin/codex'), ['app-server'], codexEnv, project, (message, write) => {
      if (typeof message.method === 'string' && message.id !== undefined) {
        const params = message.params as {_meta?: {codex_approval_kind?: string}; message?: string} | undefined
        if (message.method !== 'mcpServer/elicitation/request') return write({error: {code: -32_601, message: 'not handled'}, id: message.id, jsonrpc: '2.0'})
        // Codex's own approval of the tool call comes the same way, as a form with no fields.
        const approval = params?._meta?.codex_approval_kind === 'mcp_tool_call'
        asked.push({approval, message: String(params?.message)})
        const answer = approval ? undefined : answerTo(String(params?.message))
        const result = approval ? {action: 'accept', content: {}} : answer === undefined ? {action: 'decline'} : {action: 'accept', content: {answer}}
        return write({id: message.id, jsonrpc: '2.0', result})
      }

      if (message.method === 'turn/completed') completed()
      if (typeof message.id === 'number') waiting.get(message.id)?.(message)
    })
    let ids = 0
    const request = (method: string, params: unknown) =>
      new Promise<Record<string, unknown>>((resolve) => {
        const id = ++ids
        waiting.set(id, resolve)
        codex.write({id, jsonrpc: '2.0', method, params})
      })
    try {
      await request('initialize', {clientInfo: {name: 'oclif-plugin-mcp-tests', version: '1'}})
      codex.write({jsonrpc: '2.0', method: 'initialized'})
      const thread = ((await request('thread/start', {approvalPolicy: 'on-request', cwd: project})).result as {thread: {id: string}}).thread.id
      await request('turn/start', {input: [{text: 'Deploy it.', text_elements: [], type: 'text'}], threadId: thread})
      const timer = setTimeout(() => completed(), 240_000)
      await turnDone
      clearTimeout(timer)
    } finally {
      codex.stop()
      await model.close()
    }

    expect(asked[0]).toMatchObject({approval: true})
    expect(asked.filter((a) => !a.approval).map((a) => a.message)).toEqual(['"asking deploy" asks: Which environment?', '"asking deploy" asks: Deploy to production?', '"asking deploy" asks: A note for the log'])
    expect(sentText(model)).toMatch(DEPLOYED)
  })
})

describe('Gemini CLI', () => {
  it('cannot be asked: the command ends at its first question, and the model reads the flag that avoids it', async () => {
    const {env, project} = scratch()
    mkdirSync(join(env.HOME, '.gemini'), {recursive: true})
    writeFileSync(join(env.HOME, '.gemini', 'trustedFolders.json'), JSON.stringify({[project]: 'TRUST_FOLDER'}))
    writeFileSync(join(env.HOME, '.gemini', 'settings.json'), JSON.stringify({security: {auth: {selectedType: 'gemini-api-key'}}}))
    const written = await runCli(process.execPath, [ASKING, 'mcp', 'config', '--client', 'gemini', '--write'], env, project)
    expect(written.code).toBe(0)
    const model = await startModelEndpoint([{input: {}, tool: 'mcp_asking_deploy'}])
    try {
      const ran = await runCli(join(installDir('gemini-cli'), 'node_modules/.bin/gemini'), ['-p', 'Deploy it.', '-o', 'json', '--approval-mode', 'yolo'], {...env, GEMINI_API_KEY: 'offline', GOOGLE_GEMINI_BASE_URL: model.url}, project)
      expect(ran.stdout).toContain('"response": "done"')
      const sent = sentText(model)
      expect(sent).toMatch(/asking deploy\\*" asked: \\*"Which environment\?\\*" — and nobody can be asked here/)
      expect(sent).toContain('To run it without the question, give --environment.')
    } finally {
      await model.close()
    }
  })
})
