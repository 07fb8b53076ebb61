// The server's own bearer token stays its own: never taken from the command line (every local user can read it in
// /proc/PID/cmdline), a token file readable by others is refused, and no command or worker the server starts gets
// the plugin's variables in its environment, in any form (faulty-cli's `env` prints its environment reversed and
// in base64, where redaction could not see it).
import {Client, StreamableHTTPClientTransport} from '@modelcontextprotocol/client'
import {afterAll, describe, expect, it} from '@jest/globals'
import {chmodSync, mkdirSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'

import {type Served, serveTaskbox} from '../helpers/serve.js'
import {connectTaskbox, FAULTY_BIN, scratch, taskboxEnv} from '../helpers/taskbox.js'
import {plain, runCli} from '../helpers/run-cli.js'

const TOKEN = 'tok-own-9f3c1e77a2'
const space = scratch()
const project = join(space.dir, 'project')
mkdirSync(project)
afterAll(() => space.cleanup())

const env = (name: string, extra: Record<string, string> = {}) => ({...taskboxEnv(join(space.dir, name)), ...extra})

function expectNoToken(data: {base64: string; names: string[]; reversed: string}): void {
  expect(data.names.filter((n) => n.startsWith('FAULTY_MCP_'))).toEqual([])
  const values = Buffer.from(data.base64, 'base64').toString('utf8')
  expect(values).not.toContain(TOKEN)
  expect([...data.reversed].reverse().join('')).not.toContain(TOKEN)
}

describe('the bearer token of mcp serve', () => {
  it('is refused on the command line, with what to do instead, and nothing listens', async () => {
    const ran = await runCli(FAULTY_BIN, ['mcp', 'serve', '--port', '0', '--token', TOKEN], {cwd: space.dir, env: env('h1')})
    expect(ran.code).toBe(2)
    expect(plain(ran.stderr)).toContain('--token is not accepted')
    expect(plain(ran.stderr)).toContain('--token-file')
    expect(ran.stderr).not.toContain('listening')
  })

  it('is refused from a file others can read, and taken from one only its owner can', async () => {
    const file = join(space.dir, 'token')
    writeFileSync(file, `${TOKEN}\n`)
    chmodSync(file, 0o644)
    const open = await runCli(FAULTY_BIN, ['mcp', 'serve', '--port', '0', '--token-file', file], {cwd: space.dir, env: env('h2')})
    expect(open.code).toBe(2)
    expect(plain(open.stderr)).toContain('can be read by other users (mode 644)')

    chmodSync(file, 0o600)
    const served = await serveTaskbox({args: ['--token-file', file], bin: FAULTY_BIN, cwd: space.dir, env: env('h3')})
    try {
      const list = (headers: Record<string, string>) =>
        fetch(served.url, {body: JSON.stringify({id: 1, jsonrpc: '2.0', method: 'tools/list'}), headers: {Accept: 'application/json, text/event-stream', 'Content-Type': 'application/json', ...headers}, method: 'POST'})
      expect((await list({})).status).toBe(401)
      expect((await list({Authorization: `Bearer ${TOKEN}`})).status).toBe(200)
    } finally {
      expect(await served.stop()).toBe(0)
    }
  })
})

describe.each([0, 1])('no command the server starts sees the plugin\'s variables (--workers %i)', (workers) => {
  const extra = {FAULTY_MCP_TOKEN: TOKEN, FAULTY_MCP_OTHER: 'x'}

  it('over HTTP', async () => {
    let served: Served | undefined
    const client = new Client({name: 'token-test', version: '1'})
    try {
      served = await serveTaskbox({args: ['--workers', String(workers), '--cwd', project], bin: FAULTY_BIN, cwd: space.dir, env: env(`hh${workers}`, extra)})
      await client.connect(new StreamableHTTPClientTransport(new URL(served.url), {requestInit: {headers: {Authorization: `Bearer ${TOKEN}`}}}))
      // Twice: the first call may run cold while the worker warms; the second goes through the worker.
      for (let i = 0; i < 2; i++) expectNoToken(((await client.callTool({arguments: {}, name: 'env'})).structuredContent as {data: never}).data)
    } finally {
      await client.close().catch(() => {})
      if (served) expect(await served.stop()).toBe(0)
    }
  })

  it('over stdio', async () => {
    const server = await connectTaskbox({args: ['--workers', String(workers), '--cwd', project], bin: FAULTY_BIN, cwd: space.dir, env: env(`hs${workers}`, extra), era: 'legacy'})
    try {
      for (let i = 0; i < 2; i++) expectNoToken(((await server.client.callTool({arguments: {}, name: 'env'})).structuredContent as {data: never}).data)
    } finally {
      await server.close()
    }
  })
})
