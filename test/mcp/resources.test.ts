// resources/list over a generated CLI of more than a thousand commands, in process with the official client: pages
// of RESOURCES_PAGE, every command inside the boundary once, none outside it, and a bad cursor refused. And a prompt
// whose template does not compile stops the server at start with its name.
import {Client} from '@modelcontextprotocol/client'
import {InMemoryTransport} from '@modelcontextprotocol/server'
import {afterAll, beforeAll, describe, expect, it} from '@jest/globals'
import {Config} from '@oclif/core'
import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

import {createServerFactory} from '../../src/mcp/factory.js'
import {callEnvironmentFor} from '../../src/mcp/lifecycle.js'
import {buildServerPlan, type ServerPlan} from '../../src/mcp/plan.js'
import type {CallEnvironment} from '../../src/tools/execution/call-environment.js'
import {RESOURCES_PAGE} from '../../src/mcp/resources.js'
import {parseAuthorConfig} from '../../src/settings/author-config.js'
import {resolveSettings} from '../../src/settings/settings.js'
import {generateCli, type GeneratedCli} from '../fixtures/generate-cli.js'
import {ROOT} from '../helpers/taskbox.js'

let root: string
let cli: GeneratedCli
let plan: ServerPlan
let env: CallEnvironment

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'resources-'))
  cli = generateCli(root, {minCommands: 1000})
  plan = buildServerPlan(await Config.load(root), resolveSettings(parseAuthorConfig({}), {workers: 0}))
  env = callEnvironmentFor(plan)
}, 60_000)

afterAll(async () => {
  await env?.dispose()
  rmSync(root, {force: true, recursive: true})
})

describe('resources/list', () => {
  it('pages through every command reference inside the boundary, once each', async () => {
    const client = new Client({name: 'resources-test', version: '1'})
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
    const server = createServerFactory(plan, env)()
    await Promise.all([server.connect(serverSide), client.connect(clientSide)])
    try {
      // A call without a cursor has the client walk every page itself; the pages are walked here one by one from the
      // first page's cursor (the offset 0), to see each page the server sends.
      const uris: string[] = []
      let cursor: string | undefined = Buffer.from('0').toString('base64url')
      let pages = 0
      do {
        const page = await client.listResources({cursor})
        expect(page.resources.length).toBeLessThanOrEqual(RESOURCES_PAGE)
        uris.push(...page.resources.map((r) => r.uri))
        cursor = page.nextCursor
        pages++
      } while (cursor)

      const commands = uris.filter((uri) => uri.startsWith('scale://commands/')).map((uri) => uri.slice('scale://commands/'.length))
      expect(new Set(commands).size).toBe(commands.length)
      expect(commands.sort()).toEqual([...plan.projection.executable.keys()].sort())
      for (const hidden of [...cli.hidden, ...cli.jit, ...cli.aliases]) expect(commands).not.toContain(hidden)
      expect(pages).toBe(Math.ceil(uris.length / RESOURCES_PAGE))
      expect((await client.listResources()).resources.map((r) => r.uri)).toEqual(uris)
      await expect(client.listResources({cursor: 'not-a-cursor'})).rejects.toThrow(/Invalid cursor/)
    } finally {
      await client.close()
      await server.close()
    }
  })
})

describe('author prompts', () => {
  it('a template that does not compile stops the server at start, naming the prompt', async () => {
    const config = await Config.load(join(ROOT, 'examples/taskbox'))
    const author = parseAuthorConfig({prompts: {broken: {template: 'Use <%= command("status" %> now'}}})
    expect(() => buildServerPlan(config, resolveSettings(author, {workers: 0}))).toThrow(/oclif\.mcp\.prompts\.broken\.template/)
  })

  it('invalid prompt settings are refused with the key that is wrong', () => {
    expect(() => parseAuthorConfig({prompts: {'has space': {template: 'x'}}})).toThrow(/prompts\.has space: Invalid key in record/)
    expect(() => parseAuthorConfig({prompts: {p: {arguments: [{name: 'my-arg'}], template: 'x'}}})).toThrow(/prompts\.p\.arguments\.0\.name: an argument name/)
    expect(() => parseAuthorConfig({prompts: {p: {template: ''}}})).toThrow(/prompts\.p\.template/)
  })
})
