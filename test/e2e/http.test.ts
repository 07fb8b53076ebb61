import {Client, StreamableHTTPClientTransport} from '@modelcontextprotocol/client'
import {afterAll, beforeAll, describe, expect, it} from '@jest/globals'
import {mkdirSync, realpathSync} from 'node:fs'
import {join} from 'node:path'

import {JSON_HEADERS, MODERN_META, post, rawPost, type Served, serveTaskbox} from '../helpers/serve.js'
import {scratch, taskboxEnv} from '../helpers/taskbox.js'

describe('mcp serve: the endpoint, both eras, over real HTTP', () => {
  const space = scratch()
  const project = join(space.dir, 'project')
  let server: Served

  beforeAll(async () => {
    mkdirSync(project)
    server = await serveTaskbox({cwd: space.dir, env: taskboxEnv(join(space.dir, 'home'))})
  })

  afterAll(async () => {
    expect(await server?.stop()).toBe(0)
    space.cleanup()
  })

  it('prints a banner with the URL, the health URL and the protocol revisions', () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/)
    expect(server.stderr()).toContain(`Health check: ${server.base}/healthz`)
    expect(server.stderr()).toContain('Protocol revisions: 2026-07-28, 2025-11-25')
    expect(server.stderr()).toContain('Ctrl-C')
  })

  it('serves the classic 2025-11-25 flow as JSON, without a session id', async () => {
    const init = await post(server.url, {id: 1, jsonrpc: '2.0', method: 'initialize', params: {capabilities: {}, clientInfo: {name: 'curl', version: '1'}, protocolVersion: '2025-11-25'}})
    expect(init.status).toBe(200)
    expect(init.headers.get('content-type')).toContain('application/json')
    expect(init.headers.get('mcp-session-id')).toBeNull()
    expect(init.json.result).toMatchObject({protocolVersion: '2025-11-25', serverInfo: {name: 'taskbox', version: '1.4.0'}})

    const initialized = await post(server.url, {jsonrpc: '2.0', method: 'notifications/initialized'})
    expect(initialized.status).toBe(202)

    const list = await post(server.url, {id: 2, jsonrpc: '2.0', method: 'tools/list'})
    expect(list.json.result.tools.map((t: {name: string}) => t.name)).toContain('tasks_add')

    const call = await post(server.url, {id: 3, jsonrpc: '2.0', method: 'tools/call', params: {arguments: {}, name: 'cli_info'}})
    expect(call.json.result.structuredContent).toMatchObject({bin: 'taskbox', version: '1.4.0'})
    expect(call.json.result.content[0].text).toContain('```json')
  })

  it('serves 2026-07-28 statelessly: server/discover, then tools/call with no initialize', async () => {
    const discover = await post(server.url, {id: 1, jsonrpc: '2.0', method: 'server/discover', params: {}}, {modern: true})
    expect(discover.status).toBe(200)
    expect(discover.json.result.supportedVersions).toContain('2026-07-28')
    expect(discover.headers.get('mcp-session-id')).toBeNull()

    const init = await post(server.url, {id: 2, jsonrpc: '2.0', method: 'tools/call', params: {arguments: {cwd: project}, name: 'init'}}, {modern: true})
    expect(init.json.result.resultType).toBe('complete')
    expect(init.json.result.structuredContent.cwd).toBe(realpathSync(project))
    const add = await post(server.url, {id: 3, jsonrpc: '2.0', method: 'tools/call', params: {arguments: {cwd: project, title: 'over http'}, name: 'tasks_add'}}, {modern: true})
    expect(add.json.result.structuredContent.data).toMatchObject({id: 1, title: 'over http'})
  })

  // Each request gets a server with only the tools it needs (one for a tools/call, none otherwise): the answers must
  // be exactly those of a server with every tool.
  it.each([false, true])('lists every tool and answers an unknown tool as the SDK does (2026-07-28: %s)', async (modern) => {
    const list = await post(server.url, {id: 1, jsonrpc: '2.0', method: 'tools/list'}, {modern})
    const names = list.json.result.tools.map((t: {name: string}) => t.name)
    expect(names).toEqual(expect.arrayContaining(['cli_info', 'run_command', 'tasks_add', 'status']))
    const unknown = await post(server.url, {id: 2, jsonrpc: '2.0', method: 'tools/call', params: {arguments: {}, name: 'no_such_tool'}}, {modern})
    expect(unknown.json.error).toMatchObject({code: -32_602, message: expect.stringContaining('no_such_tool')})
    const bad = await post(server.url, {id: 3, jsonrpc: '2.0', method: 'tools/call', params: {arguments: {nope: 1}, name: 'status'}}, {modern})
    expect(bad.json.result).toMatchObject({isError: true})
    expect(bad.json.result.content[0].text).toContain('nope')
  })

  it('streams (SSE, unbuffered) only when a legacy call asks for progress', async () => {
    const call = await post(server.url, {id: 4, jsonrpc: '2.0', method: 'tools/call', params: {_meta: {progressToken: 'p1'}, arguments: {}, name: 'cli_info'}})
    expect(call.headers.get('content-type')).toContain('text/event-stream')
    expect(call.headers.get('x-accel-buffering')).toBe('no')
    expect(call.json.result.structuredContent.bin).toBe('taskbox')
  })

  it('streams to a 2026-07-28 client that accepts only an event stream', async () => {
    const call = await post(server.url, {id: 5, jsonrpc: '2.0', method: 'tools/call', params: {arguments: {}, name: 'cli_info'}}, {headers: {Accept: 'text/event-stream'}, modern: true})
    expect(call.status).toBe(200)
    expect(call.headers.get('content-type')).toContain('text/event-stream')
    expect(call.json.result.structuredContent.bin).toBe('taskbox')
  })

  it.each([
    ['legacy', false],
    ['modern', true],
  ])('answers an unknown method with -32601 (%s)', async (_era, modern) => {
    const reply = await post(server.url, {id: 10, jsonrpc: '2.0', method: 'widgets/list', params: {}}, {modern})
    expect(reply.json.error.code).toBe(-32_601)
  })

  it('answers an unsupported protocol version with -32022, HTTP 400 and the supported list', async () => {
    const meta = {...MODERN_META, 'io.modelcontextprotocol/protocolVersion': '2099-01-01'}
    const reply = await post(server.url, {id: 8, jsonrpc: '2.0', method: 'tools/list', params: {_meta: meta}}, {headers: {'MCP-Protocol-Version': '2099-01-01', 'Mcp-Method': 'tools/list'}})
    expect(reply.status).toBe(400)
    expect(reply.json.error.code).toBe(-32_022)
    expect(reply.json.error.data.supported).toContain('2026-07-28')
  })

  it.each([
    ['Mcp-Method', {'Mcp-Method': 'tools/list'}],
    ['Mcp-Name', {'Mcp-Name': 'tasks_add'}],
    ['MCP-Protocol-Version', {'MCP-Protocol-Version': '2025-11-25'}],
  ])('answers a %s header that disagrees with the body with -32020 and HTTP 400', async (_name, headers) => {
    const reply = await post(server.url, {id: 9, jsonrpc: '2.0', method: 'tools/call', params: {arguments: {}, name: 'cli_info'}}, {headers, modern: true})
    expect(reply.status).toBe(400)
    expect(reply.json.error.code).toBe(-32_020)
  })

  it('answers malformed JSON with -32700', async () => {
    const response = await fetch(server.url, {body: '{"jsonrpc":', headers: JSON_HEADERS, method: 'POST'})
    expect(response.status).toBe(400)
    expect(((await response.json()) as {error: {code: number}}).error.code).toBe(-32_700)
  })

  it('refuses a body over 4 MiB with 413 and a wrong content type with 415', async () => {
    const big = await fetch(server.url, {body: JSON.stringify({id: 1, jsonrpc: '2.0', method: 'tools/list', pad: 'x'.repeat(4.5 * 1024 * 1024)}), headers: JSON_HEADERS, method: 'POST'})
    expect(big.status).toBe(413)
    const text = await fetch(server.url, {body: 'hello', headers: {...JSON_HEADERS, 'Content-Type': 'text/plain'}, method: 'POST'})
    expect(text.status).toBe(415)
  })

  it.each(['GET', 'DELETE', 'PUT'])('answers %s on /mcp with 405 and Allow: POST', async (method) => {
    const response = await fetch(server.url, {headers: {'Last-Event-ID': '42'}, method})
    expect(response.status).toBe(405)
    expect(response.headers.get('allow')).toBe('POST')
  })

  it('ignores Last-Event-ID on POST', async () => {
    const reply = await post(server.url, {id: 5, jsonrpc: '2.0', method: 'tools/list'}, {headers: {'Last-Event-ID': '7'}})
    expect(reply.status).toBe(200)
    expect(reply.json.result.tools.length).toBeGreaterThan(10)
  })

  it('serves /healthz and answers anything else with 404', async () => {
    const health = await fetch(`${server.base}/healthz`)
    expect(health.status).toBe(200)
    expect(await health.json()).toMatchObject({bin: 'taskbox', protocolRevisions: expect.arrayContaining(['2026-07-28']), status: 'ok', version: '1.4.0'})
    expect((await fetch(`${server.base}/other`)).status).toBe(404)
    expect((await fetch(`${server.base}/mcp/extra`, {method: 'POST'})).status).toBe(404)
  })

  it.each([
    ['Origin', {Origin: 'https://evil.example'}],
    ['Host', {Host: 'evil.example'}],
    ['Host (rebinding with a port)', {Host: 'attacker.example:5757'}],
  ])('refuses a foreign %s with 403 and a JSON-RPC error body', async (_name, headers) => {
    const reply = await rawPost(server.url, JSON.stringify({id: 6, jsonrpc: '2.0', method: 'tools/list'}), headers)
    expect(reply.status).toBe(403)
    expect(JSON.parse(reply.body)).toMatchObject({error: {code: -32_000}, id: null, jsonrpc: '2.0'})
  })

  it.each<Record<string, string>>([{Host: 'localhost'}, {Origin: 'http://localhost:3000'}, {Host: '127.0.0.1'}])('accepts loopback %j', async (headers) => {
    const reply = await rawPost(server.url, JSON.stringify({id: 7, jsonrpc: '2.0', method: 'tools/list'}), headers)
    expect(reply.status).toBe(200)
  })

  it.each(['legacy', 'modern'] as const)('works with the official client (%s era)', async (era) => {
    const client = new Client({name: 'http-test', version: '1'}, era === 'modern' ? {versionNegotiation: {mode: {pin: '2026-07-28'}}} : {})
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url)))
    try {
      expect(client.getProtocolEra()).toBe(era)
      const {tools} = await client.listTools()
      expect(tools.find((t) => t.name === 'tasks_list')?.annotations?.readOnlyHint).toBe(true)
      const listed = await client.callTool({arguments: {cwd: project, status: 'all'}, name: 'tasks_list'})
      expect(listed.isError).toBeFalsy()
      expect((listed.structuredContent as {data: {tasks: unknown[]}}).data.tasks.length).toBeGreaterThanOrEqual(1)
      const failed = await client.callTool({arguments: {cwd: project}, name: 'sync'})
      expect(failed.isError).toBe(true)
    } finally {
      await client.close()
    }
  })
})
