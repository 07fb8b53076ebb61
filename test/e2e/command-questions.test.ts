// A running command's questions reach the person through the client, over real stdio and HTTP, with the official
// client answering the elicitations: each prompt library oclif CLIs use (test/fixtures/asking-cli), cold and warm,
// in both eras; a decline, a secret, a client that cannot be asked, and the audit record.
import {afterAll, describe, expect, it} from '@jest/globals'
import {Client, type ClientCapabilities} from '@modelcontextprotocol/client'
import {StreamableHTTPClientTransport} from '@modelcontextprotocol/client'
import {existsSync, readFileSync} from 'node:fs'
import {join, resolve} from 'node:path'

import {serveTaskbox} from '../helpers/serve.js'
import {atTerminal} from '../helpers/terminal.js'
import {connectTaskbox, type Era, isolatedEnv, ROOT, scratch} from '../helpers/taskbox.js'

const BIN = resolve(ROOT, 'test/fixtures/asking-cli/bin/run.js')
const space = scratch('mcp-questions-')
afterAll(() => space.cleanup())

type Answer = 'cancel' | 'decline' | {value: unknown}

let homes = 0
function home(): {dir: string; env: Record<string, string>} {
  const dir = join(space.dir, `home-${++homes}`)
  return {dir, env: isolatedEnv(dir, 'asking-cli', [{name: 'oclif-plugin-mcp', root: ROOT}])}
}

/** A client that answers each elicitation with the next answer, and records the forms it was shown. */
function answering(answers: Answer[], urls = false): {asked: {message: string; schema: Record<string, unknown>}[]; capabilities: ClientCapabilities; queue: Answer[]; setup: (client: Client) => void} {
  const asked: {message: string; schema: Record<string, unknown>}[] = []
  return {
    asked,
    capabilities: {elicitation: urls ? {form: {}, url: {}} : {form: {}}},
    queue: answers,
    setup(client) {
      client.setRequestHandler('elicitation/create', async (request) => {
        const params = request.params as {message: string; mode?: string; requestedSchema?: {properties: Record<string, unknown>}; url?: string}
        asked.push({message: params.message, schema: params.mode === 'url' ? {url: params.url} : (params.requestedSchema!.properties.answer as Record<string, unknown>)})
        const next = answers.shift()
        if (next === undefined || next === 'decline') return {action: 'decline'}
        if (next === 'cancel') return {action: 'cancel'}
        return {action: 'accept', content: {answer: next.value as string}}
      })
    },
  }
}

const ranWarm = (result: unknown) => Boolean((result as {_meta?: Record<string, {warm?: boolean}>})._meta?.['oclif-plugin-mcp/run']?.warm)
const structured = (result: unknown) => (result as {structuredContent?: Record<string, unknown>}).structuredContent ?? {}
const stdoutJson = (result: unknown) => JSON.parse(String(structured(result).stdout).trim()) as Record<string, unknown>

async function overStdio(era: Era, tool: string, answers: Answer[], options: {args?: Record<string, unknown>; capabilities?: false; urls?: boolean; warm?: boolean} = {}) {
  const {dir, env} = home()
  const answers0 = [...answers]
  const answer = answering(answers, options.urls)
  const connected = await connectTaskbox({
    args: ['--workers', options.warm ? '1' : '0'],
    bin: BIN,
    ...(options.capabilities === false ? {} : {capabilities: answer.capabilities, setup: answer.setup}),
    cwd: space.dir,
    env,
    era,
  })
  try {
    // Warm: workers start after a first call, so the call is made again (with the same answers, each run checked by
    // the test) until one runs in a worker; at most 10 times.
    let result = await connected.client.callTool({arguments: options.args ?? {}, name: tool}, {timeout: 120_000})
    for (let i = 0; options.warm && !ranWarm(result) && i < 10; i++) {
      answer.asked.length = 0
      answer.queue.push(...answers0)
      result = await connected.client.callTool({arguments: options.args ?? {}, name: tool}, {timeout: 120_000})
    }

    return {asked: answer.asked, home: dir, result}
  } finally {
    await connected.close()
  }
}

describe.each<Era>(['legacy', 'modern'])('a command\'s questions over stdio (%s era)', (era) => {
  it('@inquirer/prompts (an ES module): a list, a yes/no and a text, each the form of its kind, answered in turn', async () => {
    const {asked, result} = await overStdio(era, 'deploy', [{value: 'Production'}, {value: true}, {value: 'ship it'}])
    expect(asked.map((a) => a.message)).toEqual(['"asking deploy" asks: Which environment?', '"asking deploy" asks: Deploy to production?', '"asking deploy" asks: A note for the log'])
    expect(asked[0].schema).toMatchObject({default: 'Staging', enum: ['Staging', 'Production'], type: 'string'})
    expect(asked[1].schema).toMatchObject({default: false, type: 'boolean'})
    expect(asked[2].schema).toMatchObject({default: 'none', type: 'string'})
    expect(stdoutJson(result)).toEqual({deployed: true, environment: 'production', note: 'ship it'})
  })

  it('inquirer 8 (CommonJS): a separator left out, several of a list, its own check asking again, a number', async () => {
    const {asked, result} = await overStdio(era, 'wizard', [{value: 'Full stack'}, {value: ['lint', 'docs']}, {value: 'Bad1'}, {value: 'good'}, {value: 8080}], {warm: era === 'modern'})
    expect(asked[0].schema).toMatchObject({enum: ['basic', 'Full stack']})
    expect(asked[1].schema).toMatchObject({default: ['lint'], items: {enum: ['lint', 'tests', 'docs']}, type: 'array'})
    expect(asked[3].message).toContain('Lower-case letters only.')
    expect(asked[4].schema).toMatchObject({default: 3000, type: 'number'})
    expect(stdoutJson(result)).toEqual({features: ['lint', 'docs'], name: 'good', port: 8080, template: 'full'})
    if (era === 'modern') expect(ranWarm(result)).toBe(true)
  })
})

describe('each prompt library, cold and warm (2025 era, stdio)', () => {
  it.each([false, true])('prompts, enquirer and a bare readline question (warm worker: %s)', async (warm) => {
    const picked = await overStdio('legacy', 'pick', [{value: 'Pear'}, {value: 3}, {value: true}], {warm})
    expect(stdoutJson(picked.result)).toEqual({count: 3, fruit: 1, wrap: true})
    const surveyed = await overStdio('legacy', 'survey', [{value: 'Deep blue'}, {value: ''}], {warm})
    expect(surveyed.asked[1].schema).toMatchObject({default: 'anon'})
    expect(stdoutJson(surveyed.result)).toEqual({colour: 'blue', name: 'anon'})
    const greeted = await overStdio('legacy', 'greet', [{value: 'Ada'}], {warm})
    expect(String(structured(greeted.result).stdout)).toBe('Hello, Ada!\n')
    if (warm) expect([picked, surveyed, greeted].map((r) => ranWarm(r.result))).toEqual([true, true, true])
  })
})

describe('a search that lists nothing until a term is typed, and a list with nothing in it', () => {
  it('asks for the term first, then offers what the search found', async () => {
    const {asked, result} = await overStdio('legacy', 'find', [{value: 'alph'}, {value: 'alphabet'}])
    expect(asked.map((a) => a.message)).toEqual(['"asking find" asks: Which package? (type what to search for)', '"asking find" asks: Which package?'])
    expect(asked[1].schema).toMatchObject({enum: ['alpha', 'alphabet']})
    expect(stdoutJson(result)).toEqual({pick: 'alphabet'})
  })

  it('ends the command at a list with nothing to choose from, saying so', async () => {
    const {asked, result} = await overStdio('legacy', 'find', [], {args: {nothing: true}})
    expect(asked).toEqual([])
    expect(structured(result)).toMatchObject({code: 'QUESTION_UNANSWERED', question: {ended: 'nobody', message: 'Pick from nothing'}})
    expect(String(structured(result).message)).toContain('its question could not be read')
  })
})

describe('the command\'s own check of an answer', () => {
  it('asks again with the reason, and after four refusals ends the command: a refused answer never reaches it', async () => {
    const {asked, result} = await overStdio('legacy', 'wizard', [{value: 'basic'}, {value: []}, {value: 'B1'}, {value: 'B2'}, {value: 'B3'}, {value: 'B4'}])
    expect(asked.slice(3).map((a) => a.message)).toEqual(Array.from({length: 3}, () => '"asking wizard" asks: Lower-case letters only.\nProject name?'))
    expect(structured(result)).toMatchObject({exitCode: 75})
    expect(String(structured(result).stderr)).toContain('the command refused 4 answers in a row; it was ended')
    expect(structured(result).stdout).toBeUndefined()
  })
})

describe('a cold command given a secret argument (read from its own pipe before the CLI runs)', () => {
  it('still has its ES-module prompts caught, and gets the secret whole', async () => {
    const {result} = await overStdio('legacy', 'deploy', [{value: 'Staging'}, {value: true}, {value: 'n'}], {args: {'api-key': 'k3y-with-9'}})
    expect(stdoutJson(result)).toEqual({deployed: true, environment: 'staging', keyLength: 10, note: 'n'})
  })
})

describe('a page the command opens (the open package, imported)', () => {
  it.each<Era>(['legacy', 'modern'])('goes to a client that can open pages as a URL elicitation, and the command goes on (%s era)', async (era) => {
    const {asked, result} = await overStdio(era, 'weblogin', [{value: true}], {urls: true})
    expect(asked).toEqual([{message: '"asking weblogin" opens a page for you: Open this page in a browser to continue', schema: {url: 'https://login.example.com/authorize?client=asking'}}])
    expect(stdoutJson(result)).toEqual({loggedIn: true, with: 'browser'})
  })

  it('ends the command where the client cannot open pages, naming the flag and variable that log in without one', async () => {
    const {asked, result} = await overStdio('legacy', 'weblogin', [])
    expect(asked).toEqual([])
    expect(structured(result)).toMatchObject({code: 'QUESTION_UNANSWERED', question: {avoidWith: ['--token or the environment variable ASKING_TOKEN'], ended: 'nobody', kind: 'url'}})
  })
})

describe('where the command does not go on', () => {
  it('a declined question ends the command: nothing after it runs, the result says so, the audit records it', async () => {
    const {home: dir, result} = await overStdio('legacy', 'deploy', [{value: 'Staging'}, 'decline'])
    expect(result.isError).toBe(true)
    expect(structured(result)).toMatchObject({code: 'QUESTION_DECLINED', question: {ended: 'declined', kind: 'confirm', message: 'Deploy to staging?'}})
    expect(structured(result).stdout).toBeUndefined()
    const audit = join(dir, 'data', 'asking-cli', 'mcp-audit.jsonl')
    expect(existsSync(audit)).toBe(true)
    const record = JSON.parse(readFileSync(audit, 'utf8').trim().split('\n').at(-1)!) as {questions: unknown[]}
    expect(record.questions).toEqual([
      {answered: true, kind: 'select', message: 'Which environment?'},
      {answered: false, kind: 'confirm', message: 'Deploy to staging?'},
    ])
  })

  it('a password is never asked through a form: the result names the flag and variable that supply it', async () => {
    const {asked, result} = await overStdio('legacy', 'login', [])
    expect(asked).toEqual([])
    expect(structured(result)).toMatchObject({code: 'QUESTION_SECRET', question: {avoidWith: ['--token or the environment variable ASKING_TOKEN'], kind: 'secret'}})
  })

  it.each<Era>(['legacy', 'modern'])('a client that cannot be asked (%s): ended at the first question, naming the flags that avoid it', async (era) => {
    const {result} = await overStdio(era, 'deploy', [], {capabilities: false})
    expect(structured(result)).toMatchObject({code: 'QUESTION_UNANSWERED', question: {avoidWith: ['--environment'], ended: 'nobody', message: 'Which environment?'}})
    const confirmed = await overStdio(era, 'deploy', [], {args: {environment: 'staging'}, capabilities: false})
    expect(structured(confirmed.result)).toMatchObject({question: {avoidWith: ['--yes'], kind: 'confirm'}})
  })
})

describe('over HTTP', () => {
  async function overHttp(era: Era, answers: Answer[]) {
    const {env} = home()
    const served = await serveTaskbox({args: ['--workers', '0'], bin: BIN, cwd: space.dir, env})
    const answer = answering(answers)
    const client = new Client({name: 'questions-http', version: '1'}, {capabilities: answer.capabilities, ...(era === 'modern' ? {versionNegotiation: {mode: {pin: '2026-07-28' as const}}} : {})})
    answer.setup(client)
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(served.url)))
      return {asked: answer.asked, result: await client.callTool({arguments: {}, name: 'deploy'}, {timeout: 120_000})}
    } finally {
      await client.close().catch(() => {})
      expect(await served.stop()).toBe(0)
    }
  }

  it('2026-07-28: one input_required round per question, the command waiting between rounds', async () => {
    const {asked, result} = await overHttp('modern', [{value: 'Production'}, {value: true}, {value: 'from http'}])
    expect(asked).toHaveLength(3)
    expect(stdoutJson(result)).toEqual({deployed: true, environment: 'production', note: 'from http'})
  })

  it('stateless 2025 HTTP cannot ask: the command ends at its first question, saying so', async () => {
    const {asked, result} = await overHttp('legacy', [])
    expect(asked).toEqual([])
    expect(structured(result)).toMatchObject({code: 'QUESTION_UNANSWERED', question: {ended: 'nobody'}})
  })
})

/** `asking mcp call TOOL` at a pseudo-terminal whose keyboard types `typed`, a line as each of `prompts` shows. */
const callAtTerminal = (tool: string, prompts: string[], typed: string[], env: Record<string, string>) => atTerminal([process.execPath, BIN, 'mcp', 'call', tool, '--args', '{}'], prompts, typed, env, space.dir)

describe('mcp call at a terminal', () => {
  it('asks the command\'s questions there: a choice by its number, yes/no, a line of text', async () => {
    const {env} = home()
    const {code, output} = await callAtTerminal('deploy', ['Which environment?', 'Deploy to production?', 'A note for the log'], ['2', 'y', 'typed here'], env)
    expect(output).toContain('  1. Staging\r\n  2. Production')
    expect(output).toContain('{"deployed":true,"environment":"production","note":"typed here"}')
    expect(code).toBe(0)
  })

  it('a page to open is shown, and "n" stops the command', async () => {
    const {env} = home()
    const {code, output} = await callAtTerminal('weblogin', ['Open it in your browser'], ['n'], env)
    expect(output).toContain('https://login.example.com/authorize?client=asking')
    expect(output).toContain('the person declined to answer')
    expect(code).toBe(1)
  })
})

