// The read-only label on published CLIs: every command each CLI of the corpus marks read-only, with the evidence
// that decided it and the flags left out to keep it so, must equal the reviewed list committed in
// test/corpus/reviewed/<name>.json; so must the commands kept out because they manage the CLI itself. A change in
// either (a new CLI version, a new rule) fails here until the list is regenerated and the diff reviewed:
//   CORPUS_UPDATE=1 bash test/corpus/run.sh read-only
import {afterAll, beforeAll, describe, expect, it} from '@jest/globals'
import {existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

import {Client} from '@modelcontextprotocol/client'
import {StdioClientTransport} from '@modelcontextprotocol/client/stdio'

import {isRunning, killPids} from '../helpers/processes.js'
import {CORPUS, type CorpusCli, mcpArgv, nodeOf, prepare, ROOT, runCli, versionOf} from './clis.js'

interface InventoryCommand {
  annotations: {destructiveHint: boolean; readOnlyHint: boolean}
  evidence: string[]
  id: string
  withheldFlags?: string[]
}

interface Inventory {
  commands: InventoryCommand[]
  notListed: {command: string; detail?: string; reason: string}[]
}

export interface Reviewed {
  cli: string
  readOnly: {evidence: string[]; id: string; withheldFlags?: string[]}[]
  selfManagement: string[]
}

/**
 * What each command does, judged by reading its own text (summary, description, arguments, flags) without the
 * labeller: test/corpus/effects/<name>.json puts every command of the boundary in reads, changes or destroys.
 */
interface Effects {
  changes: string[]
  destroys: string[]
  notes: Record<string, string>
  reads: string[]
}

const space = realpathSync(mkdtempSync(join(tmpdir(), 'mcp-corpus-')))
/** Per CLI: [labelled read-only that reads, labelled read-only, reads, labelled destructive that destroys, labelled destructive, destroys]. */
const counts = new Map<string, number[]>()
const percent = (part: number, whole: number) => (whole === 0 ? '—' : `${((100 * part) / whole).toFixed(1)}%`)
afterAll(() => {
  rmSync(space, {force: true, recursive: true})
  if (counts.size === 0) return
  const total = [0, 0, 0, 0, 0, 0]
  const rows = [...counts].map(([name, c]) => {
    for (const [i, n] of c.entries()) total[i] += n
    return `| ${name} | ${percent(c[0], c[1])} (${c[0]}/${c[1]}) | ${percent(c[0], c[2])} (${c[0]}/${c[2]}) | ${percent(c[3], c[4])} (${c[3]}/${c[4]}) | ${percent(c[3], c[5])} (${c[3]}/${c[5]}) |`
  })
  const all = `| all | ${percent(total[0], total[1])} | ${percent(total[0], total[2])} | ${percent(total[3], total[4])} | ${percent(total[3], total[5])} |`
  console.log(['Labels against the reviewed effects (test/corpus/effects):', '| CLI | read-only precision | read-only recall | destructive precision | destructive recall |', '|---|---|---|---|---|', ...rows, all].join('\n'))
})

/** One entry per line, so a change reads as a diff of commands. */
function serialize(reviewed: Reviewed): string {
  const lines = (items: unknown[]) => items.map((item) => `    ${JSON.stringify(item)}`).join(',\n')
  return `{\n  "cli": ${JSON.stringify(reviewed.cli)},\n  "readOnly": [\n${lines(reviewed.readOnly)}\n  ],\n  "selfManagement": [\n${lines(reviewed.selfManagement)}\n  ]\n}\n`
}

function reviewedFrom(cli: CorpusCli, inventory: Inventory): Reviewed {
  return {
    cli: `${cli.package} ${versionOf(cli)}`,
    readOnly: inventory.commands
      .filter((c) => c.annotations.readOnlyHint)
      .map(({evidence, id, withheldFlags}) => ({id, evidence, ...(withheldFlags ? {withheldFlags} : {})})),
    selfManagement: inventory.notListed.filter((n) => n.reason === 'manages the CLI itself').map((n) => n.command),
  }
}

/**
 * Commands that destroy although nothing in their id, summary or description says so in words the labeller reads:
 * heroku `pg copy` ("copy all data from source db to target" overwrites the target) and sf `org refresh sandbox` (a
 * refresh copies the source org over the sandbox). Both are labelled as changing state, so hosts still ask first.
 */
const MISSED_DESTROYS: Record<string, string[]> = {heroku: ['pg copy'], sf: ['org refresh sandbox']}

describe.each(CORPUS.map((cli) => [cli.name, cli] as const))('%s', (name, cli) => {
  const file = join(ROOT, 'test/corpus/reviewed', `${name}.json`)
  let inventory: Inventory

  beforeAll(async () => {
    const env = prepare(cli, join(space, name))
    const ran = await runCli(nodeOf(cli), mcpArgv(cli, 'tools', ['--json']), env, space)
    if (ran.code !== 0) throw new Error(`${cli.bin} mcp tools --json exited ${ran.code}: ${ran.stderr}`)
    inventory = JSON.parse(ran.stdout) as Inventory
  })

  it('marks read-only exactly the reviewed commands, on the reviewed evidence', () => {
    const found = reviewedFrom(cli, inventory)
    if (process.env.CORPUS_UPDATE === '1') writeFileSync(file, serialize(found))
    expect(existsSync(file)).toBe(true)
    const reviewed = JSON.parse(readFileSync(file, 'utf8')) as Reviewed
    expect(found.cli).toBe(reviewed.cli)
    expect(found.readOnly).toEqual(reviewed.readOnly)
  })

  it('labels read-only only commands that read, and destructive every command that destroys but a reviewed few', () => {
    const effects = JSON.parse(readFileSync(join(ROOT, 'test/corpus/effects', `${name}.json`), 'utf8')) as Effects
    const ids = inventory.commands.map((c) => c.id.replaceAll(':', ' '))
    // Every command of the boundary has been judged (a new version with new commands fails until they are).
    expect(ids.filter((id) => ![effects.reads, effects.changes, effects.destroys].some((list) => list.includes(id)))).toEqual([])
    const reads = new Set(effects.reads)
    const destroys = new Set(effects.destroys)
    const readOnly = inventory.commands.filter((c) => c.annotations.readOnlyHint).map((c) => c.id.replaceAll(':', ' '))
    const destructive = inventory.commands.filter((c) => c.annotations.destructiveHint).map((c) => c.id.replaceAll(':', ' '))
    counts.set(name, [readOnly.filter((id) => reads.has(id)).length, readOnly.length, reads.size, destructive.filter((id) => destroys.has(id)).length, destructive.length, destroys.size])
    // The promise: nothing that changes or destroys is labelled read-only.
    expect(readOnly.filter((id) => !reads.has(id))).toEqual([])
    // Destroying commands whose own words do not say so, known and reviewed (effects notes say why they destroy).
    const missed = [...destroys].filter((id) => !destructive.includes(id))
    expect(missed).toEqual(MISSED_DESTROYS[name] ?? [])
  })

  it('keeps out exactly the reviewed commands that manage the CLI itself', () => {
    const reviewed = JSON.parse(readFileSync(file, 'utf8')) as Reviewed
    expect(reviewedFrom(cli, inventory).selfManagement).toEqual(reviewed.selfManagement)
    // None of them is reachable on any path: the boundary (every command the server can run) has none.
    const reachable = new Set(inventory.commands.map((c) => c.id.replaceAll(' ', ':')))
    for (const id of reviewed.selfManagement) expect([id, reachable.has(id)]).toEqual([id, false])
    for (const id of reachable) expect([id, /^(?:plugins|autocomplete)(?::|$)|^(?:update|upgrade)$/.test(id)]).toEqual([id, false])
  })

  it('under --read-only, over real stdio: only reviewed read-only commands are reachable, no self-management one', async () => {
    const reviewed = JSON.parse(readFileSync(file, 'utf8')) as Reviewed
    const writer = inventory.commands.find((c) => !c.annotations.readOnlyHint)
    const client = new Client({name: 'corpus', version: '1'})
    const transport = new StdioClientTransport({args: mcpArgv(cli, 'stdio', ['--read-only', '--workers', '0']), command: nodeOf(cli), cwd: space, env: prepare(cli, join(space, name)), stderr: 'pipe'})
    await client.connect(transport)
    try {
      const describe = async (command: string) => (await client.callTool({arguments: {command}, name: 'describe_command'})) as {content: {text: string}[]; isError?: boolean}
      for (const id of [...reviewed.selfManagement, ...(writer ? [writer.id] : [])]) {
        const answer = await describe(id)
        expect([id, answer.isError, answer.content[0].text.startsWith(`No command "${id}"`)]).toEqual([id, true, true])
      }

      const first = reviewed.readOnly[0]
      if (first) expect((await describe(first.id)).isError).toBeFalsy()
    } finally {
      const pid = transport.pid
      await client.close().catch(() => {})
      if (pid && isRunning(pid)) killPids([pid])
    }
  })
})

// A command that reads but first runs the project's own code is not read-only: zapier-platform `validate` runs the
// project's `_zapier-build` script (any shell command) unless told `--skip-build`. Shown on the real CLI: a server
// that may write runs the script; a --read-only one cannot reach the command, so the script never runs.
describe('a reading command that runs the project\'s code (zapier-platform validate)', () => {
  const cli = CORPUS.find((c) => c.name === 'zapier')!
  const project = join(space, 'zapier-project')
  const marker = join(project, 'build-ran')

  beforeAll(() => {
    mkdirSync(project, {recursive: true})
    const script = `node -e "require('fs').writeFileSync('build-ran', '')"`
    writeFileSync(join(project, 'package.json'), JSON.stringify({dependencies: {'zapier-platform-core': '19.1.0'}, name: 'app', scripts: {'_zapier-build': script}, version: '1.0.0'}))
    // A stub of the library it checks for before the build (the build is what this is about).
    const core = join(project, 'node_modules/zapier-platform-core')
    mkdirSync(core, {recursive: true})
    writeFileSync(join(core, 'package.json'), JSON.stringify({main: 'index.js', name: 'zapier-platform-core', version: '19.1.0'}))
    writeFileSync(join(core, 'index.js'), 'module.exports = {}\n')
  })

  /** describe_command, then run_command with the definition hash it gave (as a model reaches an unlisted command). */
  async function runValidate(args: string[]) {
    const client = new Client({name: 'corpus', version: '1'})
    const transport = new StdioClientTransport({args: mcpArgv(cli, 'stdio', ['--workers', '0', ...args]), command: nodeOf(cli), cwd: space, env: prepare(cli, join(space, 'zapier-home')), stderr: 'pipe'})
    await client.connect(transport)
    type Answer = {content: {text: string}[]; isError?: boolean; structuredContent?: {definitionHash?: string}}
    try {
      const described = (await client.callTool({arguments: {command: 'validate'}, name: 'describe_command'})) as Answer
      const hash = described.structuredContent?.definitionHash ?? 'sha256:00000000000000000000000000000000'
      const ran = (await client.callTool({arguments: {arguments: {cwd: project, 'without-style': true}, command: 'validate', expectedDefinitionHash: hash}, name: 'run_command'})) as Answer
      return {described, ran}
    } finally {
      const pid = transport.pid
      await client.close().catch(() => {})
      if (pid && isRunning(pid)) killPids([pid])
    }
  }

  it('is labelled as changing state, on the evidence of its own --skip-build', async () => {
    const listed = await runCli(nodeOf(cli), mcpArgv(cli, 'tools', ['--json']), prepare(cli, join(space, 'zapier-home')), space)
    const validate = (JSON.parse(listed.stdout) as Inventory).commands.find((c) => c.id === 'validate')
    expect(validate?.annotations.readOnlyHint).toBe(false)
    expect(validate?.evidence).toContain('flag --skip-build turns off a step it takes by default ("build")')
  })

  it('is out of reach under --read-only, and the project\'s script does not run', async () => {
    const {described, ran} = await runValidate(['--read-only'])
    for (const refused of [described, ran]) expect([refused.isError, refused.content[0].text]).toEqual([true, expect.stringMatching(/^No command "validate"/)])
    expect(existsSync(marker)).toBe(false)
  })

  it('does run the project\'s script where it may (so the label is right)', async () => {
    const {described} = await runValidate([])
    expect(described.isError).toBeFalsy()
    expect(existsSync(marker)).toBe(true)
  })
})
