// The read-only label on published CLIs: every command each CLI of the corpus marks read-only, with the evidence
// that decided it and the flags left out to keep it so, must equal the reviewed list committed in
// test/corpus/reviewed/<name>.json; so must the commands kept out because they manage the CLI itself. A change in
// either (a new CLI version, a new rule) fails here until the list is regenerated and the diff reviewed:
//   CORPUS_UPDATE=1 bash test/corpus/run.sh read-only
import {afterAll, beforeAll, describe, expect, it} from '@jest/globals'
import {existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync} from 'node:fs'
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

const space = realpathSync(mkdtempSync(join(tmpdir(), 'mcp-corpus-')))
afterAll(() => rmSync(space, {force: true, recursive: true}))

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
