// Published CLIs' own prompts reach the person: five commands of five CLIs that ask (a wizard, choices from a list,
// confirmations), each driven through its CLI's real `mcp stdio` (one over `mcp serve`) by the official client, which
// answers the elicitations; the command goes on with the answers, or is ended by a decline. All offline.
import {afterAll, describe, expect, it} from '@jest/globals'
import {Client, StreamableHTTPClientTransport} from '@modelcontextprotocol/client'
import {StdioClientTransport} from '@modelcontextprotocol/client/stdio'
import {spawn} from 'node:child_process'
import {mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {dirname, join} from 'node:path'

import {waitForBanner} from '../helpers/serve.js'
import {CORPUS, type CorpusCli, mcpArgv, nodeOf, prepare} from './clis.js'

const space = realpathSync(mkdtempSync(join(tmpdir(), 'mcp-questions-corpus-')))
afterAll(() => rmSync(space, {force: true, recursive: true}))

const cli = (name: string) => CORPUS.find((c) => c.name === name)!
type Answer = 'decline' | {value: unknown}

interface Asked {
  message: string
  schema: Record<string, unknown>
}

function answering(client: Client, answers: Answer[]): Asked[] {
  const asked: Asked[] = []
  client.setRequestHandler('elicitation/create', async (request) => {
    const params = request.params as {message: string; mode?: string; requestedSchema?: {properties: Record<string, Record<string, unknown>>}; url?: string}
    asked.push({message: params.message, schema: params.mode === 'url' ? {url: params.url} : params.requestedSchema!.properties.answer})
    const next = answers.shift()
    return next === undefined || next === 'decline' ? {action: 'decline'} : {action: 'accept', content: {answer: next.value as string}}
  })
  return asked
}

let homes = 0
function project(target: CorpusCli, files: Record<string, string> = {}): {env: Record<string, string>; home: string; work: string} {
  const home = join(space, `${target.name}-${++homes}`)
  const env = prepare(target, home)
  const work = join(home, 'work')
  mkdirSync(work, {recursive: true})
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(home, path)), {recursive: true})
    writeFileSync(join(home, path), text)
  }

  return {env, home, work}
}

const ranWarm = (result: unknown) => Boolean((result as {_meta?: Record<string, {warm?: boolean}>})._meta?.['oclif-plugin-mcp/run']?.warm)
const structured = (result: unknown) => (result as {structuredContent?: Record<string, unknown>}).structuredContent ?? {}

async function overStdio(target: CorpusCli, tool: string, args: Record<string, unknown>, answers: Answer[], options: {era?: 'modern'; files?: Record<string, string>; warm?: boolean} = {}) {
  const {env, home, work} = project(target, options.files)
  const transport = new StdioClientTransport({args: mcpArgv(target, 'stdio', ['--cwd', work, '--workers', options.warm ? '1' : '0']), command: nodeOf(target), cwd: work, env, stderr: 'pipe'})
  const client = new Client({name: 'questions-corpus', version: '1'}, {capabilities: {elicitation: {form: {}, url: {}}}, ...(options.era === 'modern' ? {versionNegotiation: {mode: {pin: '2026-07-28' as const}}} : {})})
  const asked = answering(client, answers)
  try {
    await client.connect(transport)
    const first = [...answers]
    let result = await client.callTool({arguments: args, name: tool}, {timeout: 300_000})
    // Warm: workers start after a first call, so the call is made again, with the same answers, until a worker ran it.
    for (let i = 0; options.warm && !ranWarm(result) && i < 10; i++) {
      asked.length = 0
      answers.push(...first)
      result = await client.callTool({arguments: args, name: tool}, {timeout: 300_000})
    }

    return {asked, home, result, work}
  } finally {
    await client.close().catch(() => {})
  }
}

describe('published CLIs that ask', () => {
  it.each(['legacy', 'modern'] as const)('oclif generate (@inquirer, an ES module): a nine-question wizard, answered in turn (%s era)', async (era) => {
    const answers: Answer[] = [{value: 'ESM'}, {value: 'mycli'}, {value: 'mybin'}, {value: 'A CLI'}, {value: 'Ada'}, {value: 'ISC'}, {value: 'ada'}, {value: 'mycli'}, {value: 'pnpm'}]
    const {asked, result} = await overStdio(cli('oclif'), 'generate', {'dry-run': true, name_arg: 'mycli'}, answers, {era: era === 'modern' ? 'modern' : undefined})
    expect(asked).toHaveLength(9)
    expect(asked[0]).toMatchObject({message: '"oclif generate" asks: Select a module type', schema: {enum: ['CommonJS', 'ESM'], type: 'string'}})
    expect(asked[8].schema).toMatchObject({enum: ['npm', 'yarn', 'pnpm']})
    expect(result.isError).toBeFalsy()
    expect(String(structured(result).stdout)).toContain('Generating mycli')
  })

  it('rdme openapi validate (prompts): which of the definitions found to validate, cold and warm over stdio, and over 2026-07-28 HTTP', async () => {
    const spec = JSON.stringify({info: {title: 'T', version: '1'}, openapi: '3.0.0', paths: {}})
    const files = {'work/a.json': spec, 'work/b.json': spec}
    const {asked, result} = await overStdio(cli('rdme'), 'openapi_validate', {}, [{value: 'b.json'}], {files})
    expect(asked[0].schema).toMatchObject({enum: ['a.json', 'b.json']})
    expect(String(structured(result).stdout)).toContain('b.json is a valid OpenAPI API definition')
    // The same through a warm worker (its modules, prompts among them, loaded before the call).
    const warm = await overStdio(cli('rdme'), 'openapi_validate', {}, [{value: 'a.json'}], {files, warm: true})
    expect(ranWarm(warm.result)).toBe(true)
    expect(warm.asked).toHaveLength(1)
    expect(String(structured(warm.result).stdout)).toContain('a.json is a valid OpenAPI API definition')

    const {env, work} = project(cli('rdme'), files)
    const child = spawn(nodeOf(cli('rdme')), mcpArgv(cli('rdme'), 'serve', ['--port', '0', '--cwd', work, '--workers', '0']), {cwd: work, env, stdio: ['ignore', 'pipe', 'pipe']})
    const exited = new Promise<null | number>((resolve) => child.once('exit', resolve))
    try {
      const {url} = await waitForBanner(child, exited)
      const client = new Client({name: 'questions-corpus-http', version: '1'}, {capabilities: {elicitation: {form: {}}}, versionNegotiation: {mode: {pin: '2026-07-28' as const}}})
      const overHttp = answering(client, [{value: 'a.json'}])
      await client.connect(new StreamableHTTPClientTransport(new URL(url)))
      const answered = await client.callTool({arguments: {}, name: 'openapi_validate'}, {timeout: 300_000})
      await client.close()
      expect(overHttp).toHaveLength(1)
      expect(String(structured(answered).stdout)).toContain('a.json is a valid OpenAPI API definition')
    } finally {
      child.kill('SIGTERM')
      await exited
    }
  })

  it('sf alias unset --all (@inquirer confirm, Node 22): yes unsets every alias', async () => {
    const files = {'.sfdx/alias.json': JSON.stringify({orgs: {dev: 'me@example.com'}})}
    const {asked, home, result} = await overStdio(cli('sf'), 'alias_unset', {all: true}, [{value: true}], {files})
    expect(asked).toEqual([{message: '"sf alias unset" asks: Are you sure you want to unset all aliases?', schema: {default: false, title: 'Yes', type: 'boolean'}}])
    expect(result.isError).toBeFalsy()
    expect(JSON.parse(readFileSync(join(home, '.sfdx/alias.json'), 'utf8'))).toEqual({orgs: {}})
  })

  it('vonage numberinsight (oclif 1 ux.confirm): a decline ends the command before it charges anything', async () => {
    const target = {...cli('vonage'), env: (home: string) => ({...cli('vonage').env?.(home), VONAGE_API_KEY: 'abc12345', VONAGE_API_SECRET: 'notarealsecret1'})}
    const {asked, result} = await overStdio(target, 'numberinsight', {level: 'standard', number: '447700900000'}, ['decline'])
    expect(asked[0]).toMatchObject({message: '"vonage numberinsight" asks: This operation will charge your account. Proceed?', schema: {type: 'boolean'}})
    expect(structured(result)).toMatchObject({code: 'QUESTION_DECLINED', question: {ended: 'declined', kind: 'confirm'}})
  })

  it('vtex init (enquirer): where to start from, a choice from a list (offline its list holds only "Cancel")', async () => {
    const {asked, result} = await overStdio(cli('vtex'), 'init', {}, [{value: 'Cancel'}])
    expect(asked[0]).toMatchObject({message: '"vtex init" asks: Choose where do you want to start from', schema: {type: 'string'}})
    expect((asked[0].schema.enum as string[]).includes('Cancel')).toBe(true)
    // The person's "Cancel" reached vtex, which ended on its own: not ended by a question.
    expect(structured(result).code).toBeUndefined()
    expect(structured(result).exitCode).toBe(0)
  })

  it('balena login --web (the open package, required): the login page goes to the person as a page to open; a decline ends the login', async () => {
    const {asked, result} = await overStdio(cli('balena'), 'login', {web: true}, ['decline'])
    expect(asked).toHaveLength(1)
    expect(asked[0].message).toBe('"balena login" opens a page for you: Open this page in a browser to continue')
    // The dashboard's login page, carrying the callback the command listens on (on loopback) for the token.
    expect(String(asked[0].schema.url)).toMatch(/^https:\/\/dashboard\.balena-cloud\.com\/login\/cli\/http.*127\.0\.0\.1/)
    expect(structured(result)).toMatchObject({code: 'QUESTION_DECLINED', question: {ended: 'declined', kind: 'url'}})
  })
})
