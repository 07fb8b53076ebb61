import {afterAll, beforeAll, describe, expect, it} from '@jest/globals'
import {existsSync, mkdirSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'

import {eventually, processesMatching} from '../helpers/processes.js'
import {post, rawPost, refusedServe, type Served, serveTaskbox} from '../helpers/serve.js'
import {FAULTY_BIN, scratch, taskboxEnv} from '../helpers/taskbox.js'

const TOKEN = 's3cret-token-for-tests'

function call(id: number, name: string, args: Record<string, unknown>) {
  return {id, jsonrpc: '2.0', method: 'tools/call', params: {arguments: args, name}}
}

describe('mcp serve: safe by default', () => {
  const space = scratch()
  const project = join(space.dir, 'project')
  const servers: Served[] = []
  const env = (name: string, extra: Record<string, string> = {}) => ({...taskboxEnv(join(space.dir, name)), ...extra})
  const start = async (args: string[], extraEnv: Record<string, string> = {}, bin?: string) => {
    const server = await serveTaskbox({args, bin, cwd: space.dir, env: env(`home-${servers.length}`, extraEnv)})
    servers.push(server)
    return server
  }

  /** A call to faulty-cli's `hold`, which says when it runs (a file `ready`) and ends once told (a file `release`). */
  const hold = (url: string, id: number) => {
    const dir = join(space.dir, `hold-${servers.length}-${id}`)
    mkdirSync(dir)
    return {
      answer: post(url, call(id, 'hold', {dir})),
      release: () => writeFileSync(join(dir, 'release'), ''),
      running: async () => expect(await eventually(() => existsSync(join(dir, 'ready')))).toBe(true),
    }
  }

  beforeAll(() => {
    mkdirSync(project)
    writeFileSync(join(project, '.taskbox.json'), JSON.stringify({name: 'p', nextId: 1, tasks: []}))
  })

  afterAll(async () => {
    for (const server of servers) await server.stop()
    space.cleanup()
  })

  it.each([['0.0.0.0'], ['::'], ['192.168.1.10']])('refuses to listen on %s without --allow-remote', async (host) => {
    const {code, stderr} = await refusedServe(['--host', host, '--port', '0'], env('home-refuse'), space.dir)
    expect(code).toBe(1)
    expect(stderr).toContain(`Refusing to listen on ${host}`)
    expect(stderr).toContain('no authentication')
  })

  it('refuses --allow-remote without a token', async () => {
    const {code, stderr} = await refusedServe(['--host', '0.0.0.0', '--port', '0', '--allow-remote'], env('home-notoken'), space.dir)
    expect(code).toBe(1)
    expect(stderr).toContain('--allow-remote needs authentication')
  })

  it('with --allow-remote and a token from the environment, requires and checks the token, and never logs it', async () => {
    const server = await start(['--host', '0.0.0.0', '--allow-remote'], {TASKBOX_MCP_TOKEN: TOKEN})
    const url = server.url.replace('0.0.0.0', '127.0.0.1')
    const list = {id: 1, jsonrpc: '2.0', method: 'tools/list'}

    const missing = await post(url, list)
    expect(missing.status).toBe(401)
    expect(missing.headers.get('www-authenticate')).toMatch(/^Bearer realm=/)
    const wrong = await post(url, list, {headers: {Authorization: 'Bearer nope'}})
    expect(wrong.status).toBe(401)
    expect(wrong.headers.get('www-authenticate')).toContain('invalid_token')
    const right = await post(url, list, {headers: {Authorization: `Bearer ${TOKEN}`}})
    expect(right.status).toBe(200)

    const health = await fetch(`${server.base.replace('0.0.0.0', '127.0.0.1')}/healthz`)
    expect(health.status).toBe(200)
    expect(server.stderr()).not.toContain(TOKEN)
  })

  it('answers a malformed Host (a user@ part) with 400, not a server error', async () => {
    const server = await start([])
    const body = JSON.stringify({id: 1, jsonrpc: '2.0', method: 'tools/list'})
    for (const host of ['evil.com@localhost', `evil.com@127.0.0.1:${new URL(server.url).port}`]) {
      const answer = await rawPost(server.url, body, {Host: host})
      expect([host, answer.status]).toEqual([host, 400])
      expect(JSON.parse(answer.body).error.data.code).toBe('HOST_MALFORMED')
    }
  })

  it('listens on [::1] as written in a URL', async () => {
    const server = await start(['--host', '[::1]'])
    expect(server.url).toMatch(/^http:\/\/\[::1\]:\d+\/mcp$/)
    expect((await post(server.url, {id: 1, jsonrpc: '2.0', method: 'tools/list'})).status).toBe(200)
  })

  it('widens Host and Origin only as told', async () => {
    const server = await start(['--allowed-origin', 'app.example', '--allowed-host', 'devbox.local'])
    const body = JSON.stringify({id: 1, jsonrpc: '2.0', method: 'tools/list'})
    expect((await rawPost(server.url, body, {Origin: 'https://app.example'})).status).toBe(200)
    expect((await rawPost(server.url, body, {Host: 'devbox.local:5757'})).status).toBe(200)
    expect((await rawPost(server.url, body, {Origin: 'https://other.example'})).status).toBe(403)
    expect((await rawPost(server.url, body, {Host: 'other.local'})).status).toBe(403)
  })

  it('answers "busy" at once when every slot and the queue are taken', async () => {
    const server = await start(['--max-concurrency', '1', '--max-queue', '0'], {}, FAULTY_BIN)
    // The one slot is taken for as long as the test says.
    const held = hold(server.url, 1)
    await held.running()
    const busy = await post(server.url, call(2, 'echo', {}))
    expect(busy.json.result.isError).toBe(true)
    expect(busy.json.result.content[0].text).toContain('Busy')
    held.release()
    expect((await held.answer).json.result.isError).toBeFalsy()
    const after = await post(server.url, call(3, 'echo', {}))
    expect(after.json.result.isError).toBeFalsy()
  })

  it('on SIGTERM lets a call in flight finish, then exits 0', async () => {
    const server = await start([], {}, FAULTY_BIN)
    const held = hold(server.url, 1)
    await held.running()
    server.child.kill('SIGTERM')
    // Stopping, it waits for the call in flight, which ends only once released.
    expect(await eventually(() => server.stderr().includes('Stopping:'))).toBe(true)
    held.release()
    const reply = await held.answer
    expect(reply.json.result.isError).toBeFalsy()
    expect(await server.exited).toBe(0)
  })

  it('after the grace period kills what is still running, and exits 0', async () => {
    const server = await start(['--grace', '1'])
    const inFlight = post(server.url, call(1, 'report_weekly', {cwd: project, delay: 367})).catch((error: Error) => error)
    expect(await eventually(() => processesMatching('--delay=367').length > 0, 30_000)).toBe(true)
    server.child.kill('SIGTERM')
    expect(await server.exited).toBe(0)
    await inFlight
    expect(processesMatching('--delay=367')).toEqual([])
  })
})
