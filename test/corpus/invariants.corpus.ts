// The same invariants over every command of every CLI of the corpus, through the real server on its CLI's own
// spelling (`mcp stdio` or `mcp:stdio`), driven with raw JSON-RPC lines so that every line it writes is checked:
// stdout carries JSON-RPC only; tool names are valid and unique; input schemas are objects without the keywords
// major clients reject; no template is left raw in a description or in describe_command; a failing command is an
// isError result that says why; a warm worker answers exactly as a cold run. It prints start-up and call figures.
import {afterAll, beforeAll, describe, expect, it} from '@jest/globals'
import {existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {performance} from 'node:perf_hooks'

import {malformation, type Message, RawStdio} from '../helpers/raw-stdio.js'
import {badPropertyNames, rejectedKeywords} from '../helpers/schema-keywords.js'
import {type Call, CORPUS, type CorpusCli, installDir, nodeOf, packageRoot, prepare, ROOT, runCli, scriptOf, versionOf} from './clis.js'

const NAME = /^[A-Za-z0-9_-]{1,45}$/

const space = realpathSync(mkdtempSync(join(tmpdir(), 'mcp-invariants-')))
const figures: string[] = []
/** One row a CLI of the corpus table (docs/compatibility.md), filled in as its tests run. */
const rows = new Map<string, {commands?: number; startupMs?: number; warmMs?: number}>()
afterAll(() => {
  rmSync(space, {force: true, recursive: true})
  if (figures.length > 0) process.stdout.write(`\ncorpus figures (this machine, one run each):\n${figures.join('\n')}\n`)
  if (process.env.CORPUS_UPDATE === '1' && rows.size === CORPUS.length) writeReadmeTable()
})

/** The corpus table of docs/compatibility.md, between its markers, from this run. */
function writeReadmeTable(): void {
  const file = join(ROOT, 'docs', 'compatibility.md')
  const text = readFileSync(file, 'utf8')
  const [begin, end] = ['<!-- corpus-table -->', '<!-- corpus-table-end -->']
  if (!text.includes(begin) || !text.includes(end)) return
  const lines = [
    '| CLI | its oclif | runtime | commands served | how it gets the plugin | start-up (to the initialize answer) | warm call |',
    '| --- | --- | --- | ---: | --- | ---: | ---: |',
    ...CORPUS.map((cli) => {
      const row = rows.get(cli.name)!
      const how = cli.add === 'link' ? 'linked user plugin' : 'its own package.json (author)'
      return `| ${cli.package} ${versionOf(cli)} | ${coreOf(cli)} | Node ${cli.node} | ${row.commands} | ${how} | ${Math.round(row.startupMs!)} ms | ${Math.round(row.warmMs!)} ms (${cli.offline[0].tool}) |`
    }),
  ]
  writeFileSync(file, `${text.slice(0, text.indexOf(begin) + begin.length)}\n${lines.join('\n')}\n${text.slice(text.indexOf(end))}`)
}

function coreOf(cli: CorpusCli): string {
  for (const [name, shown] of [['@oclif/core', '@oclif/core'], ['@oclif/config', 'oclif v1, @oclif/config']]) {
    for (const candidate of [join(packageRoot(cli), `node_modules/${name}/package.json`), join(installDir(cli.name), `node_modules/${name}/package.json`)]) {
      if (existsSync(candidate)) return `${shown} ${(JSON.parse(readFileSync(candidate, 'utf8')) as {version: string}).version}`
    }
  }

  return '@oclif/core, bundled'
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]

interface Server {
  call(name: string, args?: Record<string, unknown>): Promise<Message>
  raw: RawStdio
  startupMs: number
}

let ids = 0
async function start(cli: CorpusCli, home: string, project: string, args: string[]): Promise<Server> {
  const env = prepare(cli, home)
  const began = performance.now()
  const raw = new RawStdio(scriptOf(cli), ['--cwd', project, ...args], {command: cli.separator === ' ' ? ['mcp', 'stdio'] : ['mcp:stdio'], cwd: project, env, node: nodeOf(cli)})
  const init = await raw.request({id: ++ids, jsonrpc: '2.0', method: 'initialize', params: {capabilities: {}, clientInfo: {name: 'corpus', version: '1'}, protocolVersion: '2025-11-25'}}, 120_000)
  if (!init || 'error' in init) throw new Error(`${cli.bin} did not answer initialize: ${JSON.stringify(init)}; stderr: ${raw.stderr().tail}`)
  const startupMs = performance.now() - began
  raw.write(JSON.stringify({jsonrpc: '2.0', method: 'notifications/initialized'}))
  return {
    async call(name, callArgs = {}) {
      const answer = await raw.request({id: ++ids, jsonrpc: '2.0', method: 'tools/call', params: {arguments: callArgs, name}}, 120_000)
      if (!answer) throw new Error(`${cli.bin}: no answer to ${name}; stderr: ${raw.stderr().tail}`)
      return answer
    },
    raw,
    startupMs,
  }
}

type Result = {_meta?: Record<string, {warm?: boolean}>; content: {text: string}[]; isError?: boolean; structuredContent?: {exitCode?: number}}
const resultOf = (answer: Message) => answer.result as Result
/** A result's text without what differs between two runs of the same command: how long it took. */
const comparable = (result: Result) => ({exitCode: result.structuredContent?.exitCode, isError: Boolean(result.isError), text: result.content[0].text.replace(/^\((exit [^,]+), \d+ ms,/m, '($1,')})

describe.each(CORPUS.map((cli) => [cli.name, cli] as const))('%s', (name, cli) => {
  const project = join(space, name, 'project')
  let server: Server
  let tools: {annotations?: Record<string, unknown>; description?: string; inputSchema: Record<string, unknown>; name: string}[]

  beforeAll(async () => {
    mkdirSync(project, {recursive: true})
    // Every command listed, so every name and schema is checked; no worker, so calls here run cold.
    server = await start(cli, join(space, name, 'home'), project, ['--workers', '0', '--max-tools', '100000', '--max-bytes', '1000000000'])
    const list = await server.raw.request({id: ++ids, jsonrpc: '2.0', method: 'tools/list'}, 120_000)
    tools = (list!.result as {tools: typeof tools}).tools
    const info = resultOf(await server.call('cli_info')).structuredContent as unknown as {commands: number}
    rows.set(name, {...rows.get(name), commands: info.commands})
  })

  afterAll(async () => {
    await server?.raw.stop()
  })

  it(`answers on its own spelling (${cli.separator === ' ' ? 'mcp stdio' : 'mcp:stdio'})`, () => {
    expect(tools.length).toBeGreaterThan(8)
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['cli_info', 'describe_command', 'run_command']))
  })

  it('gives every tool a valid, unique name and an object schema without keywords clients reject', () => {
    const names = tools.map((t) => t.name)
    expect(names.filter((n) => !NAME.test(n))).toEqual([])
    expect(names.length).toBe(new Set(names).size)
    for (const tool of tools) {
      expect([tool.name, tool.inputSchema.type]).toEqual([tool.name, 'object'])
      expect([tool.name, rejectedKeywords(tool.inputSchema)]).toEqual([tool.name, []])
      expect([tool.name, badPropertyNames(tool.inputSchema)]).toEqual([tool.name, []])
      for (const combinator of ['oneOf', 'anyOf', 'allOf']) expect([tool.name, combinator in tool.inputSchema]).toEqual([tool.name, false])
    }
  })

  it('requires no flag or arg that has a default (a required --target-org with one from the CLI\'s configuration)', () => {
    const requiring = tools.filter((t) => ((t.inputSchema.required as string[] | undefined) ?? []).some((p) => /^target-(org|dev-hub)$/.test(p)))
    expect(requiring.map((t) => t.name)).toEqual([])
  })

  it('leaves no template raw, in any description or in describe_command of any command', async () => {
    expect(tools.filter((t) => (t.description ?? '').includes('<%')).map((t) => t.name)).toEqual([])
    const listed = resultOf(await server.call('list_commands')).structuredContent as unknown as {commands: {id: string}[]}
    const raw: string[] = []
    for (const {id} of listed.commands) {
      const described = resultOf(await server.call('describe_command', {command: id}))
      if (JSON.stringify(described.structuredContent).includes('<%')) raw.push(id)
    }

    expect(raw).toEqual([])
  })

  it('answers a failing command with an isError result that says why', async () => {
    const {arguments: args = {}, says, tool} = cli.failing
    const result = resultOf(await server.call(tool, args))
    expect(result.isError).toBe(true)
    expect(result.content[0].text).toMatch(says)
  })

  it('answers through a warm worker exactly as a cold run', async () => {
    const warm = await start(cli, join(space, name, 'home'), project, ['--workers', '1', '--max-tools', '100000', '--max-bytes', '1000000000'])
    try {
      const timings: number[] = []
      for (const {arguments: args = {}, tool} of cli.offline as Call[]) {
        // Once first: a CLI's first run may print a one-off notice.
        await server.call(tool, args)
        const cold = resultOf(await server.call(tool, args))
        let hot: Result | undefined
        for (let attempt = 0; attempt < 20 && !hot; attempt++) {
          const began = performance.now()
          const result = resultOf(await warm.call(tool, args))
          if (result._meta?.['oclif-plugin-mcp/run']?.warm) {
            hot = result
            timings.push(performance.now() - began)
          } else await new Promise((resolve) => setTimeout(resolve, 1000))
        }

        expect([tool, hot !== undefined]).toEqual([tool, true])
        expect([tool, comparable(hot!)]).toEqual([tool, comparable(cold)])
      }

      // Start-up as a host sees it: the default server (the default band, one worker).
      const plain = await start(cli, join(space, name, 'home'), project, [])
      await plain.raw.stop()
      figures.push(`${cli.package} ${versionOf(cli)}: start-up ${Math.round(plain.startupMs)} ms to the initialize answer; warm call ${Math.round(median(timings))} ms (${cli.offline[0].tool})`)
      rows.set(name, {...rows.get(name), startupMs: plain.startupMs, warmMs: median(timings)})
    } finally {
      await warm.raw.stop()
    }
  })

  it('lists its mcp commands as it spells them, and refuses the other spelling with the right one', async () => {
    const env = prepare(cli, join(space, name, 'home'))
    const listed = await runCli(nodeOf(cli), [scriptOf(cli), 'mcp'], env, project)
    expect(listed.stdout).toContain(cli.separator === ' ' ? `${cli.bin} mcp stdio` : `${cli.bin} mcp:stdio`)
    if (cli.separator === ':') {
      const wrong = await runCli(nodeOf(cli), [scriptOf(cli), 'mcp', 'stdio', '--cwd', project], env, project)
      expect(wrong.code).toBe(2)
      expect(wrong.stderr.replaceAll(/\s*›\s*/g, ' ')).toContain(`This CLI spells it "${cli.bin} mcp:stdio"`)
    }
  })

  it('wrote nothing but JSON-RPC on stdout', () => {
    const bad = server.raw.lines.filter((line) => malformation(line) !== undefined)
    expect(bad.slice(0, 3)).toEqual([])
  })
})
