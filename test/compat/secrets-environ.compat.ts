// The server's own secrets and /proc/PID/environ: a process's original environment block stays readable to the same
// user (and so to every command the server runs) for as long as it lives. On Node 22 (process.execve) `mcp serve`
// starts itself again without its token and Redis URL, taking them over through a private file it removes; the
// listening server's environ holds neither, and the token still guards it. On Node 20, which cannot, it says so.
import {afterAll, describe, expect, it} from '@jest/globals'
import {spawn} from 'node:child_process'
import {existsSync, readdirSync, readFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

import {waitForBanner} from '../helpers/serve.js'
import {ROOT, scratch, TASKBOX_BIN, taskboxEnv} from '../helpers/taskbox.js'

/** Node 22 as run.sh installs it (hosts.ts names the same; importing it would need every other prefix installed). */
const NODE22 = join(ROOT, 'test/compat/node22/node_modules/.bin/node')

const TOKEN = 'tok-environ-5b1d0c9e44'
const space = scratch('mcp-environ-')
afterAll(() => space.cleanup())

async function serveOn(node: string, home: string) {
  const child = spawn(node, [TASKBOX_BIN, 'mcp', 'serve', '--port', '0'], {cwd: space.dir, env: {...taskboxEnv(join(space.dir, home)), TASKBOX_MCP_TOKEN: TOKEN}, stdio: ['ignore', 'pipe', 'pipe']})
  child.stdout.resume()
  const exited = new Promise<null | number>((resolve) => child.on('close', resolve))
  try {
    const {stderr, url} = await waitForBanner(child, exited)
    const environ = readFileSync(`/proc/${child.pid}/environ`, 'utf8')
    const list = (headers: Record<string, string>) =>
      fetch(url, {body: JSON.stringify({id: 1, jsonrpc: '2.0', method: 'tools/list'}), headers: {Accept: 'application/json, text/event-stream', 'Content-Type': 'application/json', ...headers}, method: 'POST'}).then((r) => r.status)
    return {environ, statuses: [await list({}), await list({Authorization: `Bearer ${TOKEN}`})], stderr: stderr()}
  } finally {
    child.kill('SIGTERM')
    await exited
  }
}

describe("mcp serve's token in /proc/PID/environ", () => {
  it('is gone from the listening server on Node 22, which still requires it, and no handover file is left', async () => {
    const before = readdirSync(tmpdir()).filter((name) => name.startsWith('mcp-serve-'))
    const {environ, statuses, stderr} = await serveOn(NODE22, 'h22')
    expect(environ).not.toContain(TOKEN)
    expect(environ).not.toContain('TASKBOX_MCP_TOKEN')
    expect(statuses).toEqual([401, 200])
    expect(stderr).not.toContain('stay in this process')
    expect(readdirSync(tmpdir()).filter((name) => name.startsWith('mcp-serve-') && !before.includes(name))).toEqual([])
  })

  it('stays on Node 20, and the server says so with what to do', async () => {
    expect(existsSync(process.execPath)).toBe(true)
    const {statuses, stderr} = await serveOn(process.execPath, 'h20')
    expect(statuses).toEqual([401, 200])
    expect(stderr).toContain("Warning: TASKBOX_MCP_TOKEN stay in this process's original environment")
    expect(stderr).toContain('--token-file')
  })
})
