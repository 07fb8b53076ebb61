// Where calls may run: a read-only command may still read, and in some CLIs evaluate, the files of the directory it
// runs in, so the person names the directories a call's cwd may be in (--allow-cwd). A server other machines reach
// (--allow-remote) lets calls run only in its default directory unless told more. Checked over real stdio and HTTP.
import {Client, StreamableHTTPClientTransport} from '@modelcontextprotocol/client'
import {afterAll, describe, expect, it} from '@jest/globals'
import {chmodSync, mkdirSync, realpathSync, symlinkSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'

import {serveTaskbox} from '../helpers/serve.js'
import {connectTaskbox, scratch, taskboxEnv} from '../helpers/taskbox.js'

const space = scratch('mcp-allow-cwd-')
const root = realpathSync(space.dir)
const allowed = join(root, 'allowed')
const inside = join(allowed, 'app')
const outside = join(root, 'elsewhere')
for (const dir of [inside, outside]) mkdirSync(dir, {recursive: true})
// A link inside the allowed tree that leads out of it.
symlinkSync(outside, join(allowed, 'way-out'))
afterAll(() => space.cleanup())

type Result = {content: {text: string}[]; isError?: boolean; structuredContent?: {cwd?: string}}
type Call = (cwd?: string) => Promise<Result>

async function expectRunsOnlyWithin(call: Call, where: {allowed: string[]; refused: string[]}): Promise<void> {
  for (const dir of where.allowed) {
    const ran = await call(dir)
    expect([dir, ran.isError ?? false, ran.structuredContent?.cwd]).toEqual([dir, false, realpathSync(dir)])
  }

  for (const dir of where.refused) {
    const refused = await call(dir)
    expect([dir, refused.isError]).toEqual([dir, true])
    expect(refused.content[0].text).toContain('is outside the directories this server lets calls run in')
    expect(refused.content[0].text).toContain('Nothing was run')
  }

  // No cwd: the default directory, always allowed.
  expect((await call()).isError).toBeFalsy()
}

describe('--allow-cwd', () => {
  it('over stdio: calls run in the named directories and below, not elsewhere, not through a link out', async () => {
    const connected = await connectTaskbox({args: ['--allow-cwd', allowed, '--workers', '0'], cwd: root, env: taskboxEnv(join(root, 'home-stdio')), era: 'legacy'})
    try {
      const call: Call = async (cwd) => (await connected.client.callTool({arguments: cwd ? {cwd} : {}, name: 'status'})) as Result
      await expectRunsOnlyWithin(call, {allowed: [allowed, inside], refused: [outside, join(allowed, 'way-out'), '/']})
    } finally {
      await connected.close()
    }
  })

  it('over stdio without it: anywhere (the local default)', async () => {
    const connected = await connectTaskbox({args: ['--workers', '0'], cwd: root, env: taskboxEnv(join(root, 'home-any')), era: 'legacy'})
    try {
      const call: Call = async (cwd) => (await connected.client.callTool({arguments: cwd ? {cwd} : {}, name: 'status'})) as Result
      await expectRunsOnlyWithin(call, {allowed: [inside, outside], refused: []})
    } finally {
      await connected.close()
    }
  })

  it('over HTTP with --allow-remote: only the default directory, unless the person names more', async () => {
    const tokenFile = join(root, 'token')
    writeFileSync(tokenFile, 'tok-allow-cwd-5d1e\n')
    chmodSync(tokenFile, 0o600)
    const headers = {Authorization: 'Bearer tok-allow-cwd-5d1e'}
    for (const [extra, where] of [
      [['--cwd', inside], {allowed: [inside], refused: [allowed, outside]}],
      [['--allow-cwd', allowed], {allowed: [allowed, inside], refused: [outside]}],
    ] as const) {
      const served = await serveTaskbox({args: ['--allow-remote', '--token-file', tokenFile, '--workers', '0', ...extra], cwd: root, env: taskboxEnv(join(root, `home-http-${extra[0]}`))})
      const client = new Client({name: 'allow-cwd', version: '1'})
      try {
        await client.connect(new StreamableHTTPClientTransport(new URL(served.url), {requestInit: {headers}}))
        const call: Call = async (cwd) => (await client.callTool({arguments: cwd ? {cwd} : {}, name: 'status'})) as Result
        await expectRunsOnlyWithin(call, {allowed: [...where.allowed], refused: [...where.refused]})
      } finally {
        await client.close()
        expect(await served.stop()).toBe(0)
      }
    }
  })
})
