// mcp serve as an OAuth resource server, against a real issuer on loopback (key pairs made here, JWKS served over
// HTTP, rotation): a token is accepted only when the issuer's key signed it, for this server, unexpired, with an
// allowed algorithm; 401s name the resource metadata; and a token with only the read scope reaches the read-only
// commands only, on every path (tools/list, typed tools, run_command, describe_command, references, prompts).
import {Client, StreamableHTTPClientTransport} from '@modelcontextprotocol/client'
import {afterAll, beforeAll, describe, expect, it} from '@jest/globals'
import {base64url, SignJWT} from 'jose'
import {writeFileSync} from 'node:fs'
import {request} from 'node:http'
import {join} from 'node:path'
import {setTimeout as sleep} from 'node:timers/promises'

import {startIssuer, type TestIssuer} from '../helpers/issuer.js'
import {eventually} from '../helpers/processes.js'
import {refusedServe, type Served, serveTaskbox} from '../helpers/serve.js'
import {FAULTY_BIN, scratch, taskboxEnv, textOf} from '../helpers/taskbox.js'

const AUDIENCE = 'https://taskbox.example/mcp'
const METADATA_URL = 'https://taskbox.example/.well-known/oauth-protected-resource/mcp'
const space = scratch()
let issuer: TestIssuer
let served: Served

beforeAll(async () => {
  writeFileSync(join(space.dir, '.taskbox.json'), JSON.stringify({name: 'oauth', nextId: 1, tasks: []}))
  issuer = await startIssuer(AUDIENCE)
  served = await serveTaskbox({args: ['--auth-issuer', issuer.url, '--auth-audience', AUDIENCE, '--cwd', space.dir], cwd: space.dir, env: taskboxEnv(join(space.dir, 'home'))})
})

afterAll(async () => {
  if (served) expect(await served.stop()).toBe(0)
  await issuer?.close()
  space.cleanup()
})

const LIST = JSON.stringify({id: 1, jsonrpc: '2.0', method: 'tools/list'})

function post(token: string | undefined, body = LIST): Promise<Response> {
  return fetch(served.url, {
    body,
    headers: {Accept: 'application/json, text/event-stream', 'Content-Type': 'application/json', 'MCP-Protocol-Version': '2025-11-25', ...(token ? {Authorization: `Bearer ${token}`} : {})},
    method: 'POST',
  })
}

async function connect(token: string, era: 'legacy' | 'modern' = 'legacy'): Promise<Client> {
  const client = new Client({name: 'oauth-test', version: '1'}, era === 'modern' ? {versionNegotiation: {mode: {pin: '2026-07-28'}}} : {})
  await client.connect(new StreamableHTTPClientTransport(new URL(served.url), {requestInit: {headers: {Authorization: `Bearer ${token}`}}}))
  return client
}

/**
 * An `mcp serve --auth-issuer` of the describe block that calls this (started before its tests, stopped after them:
 * it must exit 0), and its people: `as` connects a client with a token of the issuer for a subject and scope.
 */
function servedForPeople(args: string[], home: string, bin?: string): {as: (subject: string, scope: string) => Promise<Client>} {
  let own: Served
  const clients: Client[] = []
  beforeAll(async () => {
    own = await serveTaskbox({args: ['--auth-issuer', issuer.url, '--auth-audience', AUDIENCE, ...args], bin, cwd: space.dir, env: taskboxEnv(join(space.dir, home))})
  })
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close().catch(() => {})))
    if (own) expect(await own.stop()).toBe(0)
  })
  return {
    async as(subject, scope) {
      const client = new Client({name: `oauth-${subject}`, version: '1'})
      await client.connect(new StreamableHTTPClientTransport(new URL(own.url), {requestInit: {headers: {Authorization: `Bearer ${await issuer.sign({scope, sub: subject})}`}}}))
      clients.push(client)
      return client
    },
  }
}

/** The payload of a signed token changed after signing (its signature kept). */
function tampered(token: string, change: Record<string, unknown>): string {
  const [header, payload, signature] = token.split('.')
  const claims = JSON.parse(new TextDecoder().decode(base64url.decode(payload))) as Record<string, unknown>
  return [header, base64url.encode(JSON.stringify({...claims, ...change})), signature].join('.')
}

describe('mcp serve --auth-issuer: who gets in', () => {
  it('serves the RFC 9728 metadata naming this resource, its issuer and its scopes', async () => {
    const response = await fetch(`${served.base}/.well-known/oauth-protected-resource/mcp`)
    expect(response.status).toBe(200)
    expect(await response.json()).toMatchObject({authorization_servers: [issuer.url], resource: AUDIENCE, scopes_supported: ['mcp:read', 'mcp:write']})
    expect(served.stderr()).toContain(`Protected resource metadata: ${METADATA_URL}`)
  })

  it('answers what a web Request cannot carry on the document paths, and survives it', async () => {
    const raw = (method: string, path: string) =>
      new Promise<number>((resolve, reject) => {
        const url = new URL(served.base)
        const req = request({host: url.hostname, method, path, port: url.port}, (res) => {
          res.resume()
          resolve(res.statusCode ?? 0)
        })
        req.on('error', reject)
        req.end()
      })
    expect(await raw('TRACE', '/.well-known/oauth-protected-resource/mcp')).toBe(400)
    expect(await raw('POST', '/.well-known/oauth-protected-resource/mcp')).toBe(405)
    expect(await raw('GET', '/.well-known/nothing-here')).toBe(404)
    expect(served.child.exitCode).toBeNull()
    expect((await fetch(`${served.base}/.well-known/oauth-protected-resource/mcp`)).status).toBe(200)
  })

  it('answers a request without a token 401, naming the resource metadata and the scopes', async () => {
    const response = await post(undefined)
    expect(response.status).toBe(401)
    const challenge = response.headers.get('www-authenticate') ?? ''
    expect(challenge).toMatch(/^Bearer error="invalid_token"/)
    expect(challenge).toContain(`resource_metadata="${METADATA_URL}"`)
    expect(challenge).toContain('scope="mcp:read mcp:write"')
  })

  it('accepts a valid token with the write scope, in both eras', async () => {
    for (const era of ['legacy', 'modern'] as const) {
      const client = await connect(await issuer.sign({scope: 'mcp:write'}), era)
      try {
        const names = (await client.listTools()).tools.map((t) => t.name)
        expect(names).toEqual(expect.arrayContaining(['tasks_add', 'tasks_list', 'run_command']))
        const added = await client.callTool({arguments: {title: `from ${era}`}, name: 'tasks_add'})
        expect(added.isError).toBeFalsy()
      } finally {
        await client.close()
      }
    }
  })

  it.each([
    ['expired', () => issuer.sign({exp: Math.floor(Date.now() / 1000) - 120, scope: 'mcp:write'}), 'Token has expired'],
    ['of another issuer', () => issuer.sign({iss: 'https://elsewhere.example', scope: 'mcp:write'}), 'Token was not issued by'],
    ['for another resource', () => issuer.sign({aud: 'https://other.example/mcp', scope: 'mcp:write'}), 'Token is not for this resource'],
    ['without an expiry', () => issuer.sign({exp: undefined, scope: 'mcp:write'}), 'Token claim "exp"'],
    [
      'signed by a key the issuer never published',
      async () => {
        const stranger = await issuer.strangerKey()
        return issuer.sign({scope: 'mcp:write'}, {key: stranger})
      },
      "No key of the issuer matches the token's signature",
    ],
    [
      "signed by a stranger's key under the issuer's key id",
      async () => {
        const stranger = await issuer.strangerKey()
        const kid = JSON.parse(new TextDecoder().decode(base64url.decode((await issuer.sign()).split('.')[0]))).kid as string
        return issuer.sign({scope: 'mcp:write'}, {key: stranger, kid})
      },
      'Token signature is not valid',
    ],
    ['tampered with after signing', async () => tampered(await issuer.sign({scope: 'mcp:read'}), {scope: 'mcp:read mcp:write'}), 'Token signature is not valid'],
    [
      'unsigned (alg none)',
      async () => {
        const claims = JSON.parse(new TextDecoder().decode(base64url.decode((await issuer.sign({scope: 'mcp:write'})).split('.')[1])))
        return `${base64url.encode(JSON.stringify({alg: 'none', typ: 'JWT'}))}.${base64url.encode(JSON.stringify(claims))}.`
      },
      'Token algorithm is not allowed',
    ],
    [
      "signed with HS256 over the issuer's public key (algorithm confusion)",
      async () => {
        const jwks = (await (await fetch(`${issuer.url}/jwks`)).json()) as {keys: {kid: string}[]}
        const now = Math.floor(Date.now() / 1000)
        return new SignJWT({aud: AUDIENCE, exp: now + 300, iss: issuer.url, scope: 'mcp:write'})
          .setProtectedHeader({alg: 'HS256', kid: jwks.keys[0].kid})
          .sign(new TextEncoder().encode(JSON.stringify(jwks.keys[0])))
      },
      'Token algorithm is not allowed',
    ],
    ['not a JWT at all', async () => 'opaque-token-1234', 'Token is not a valid signed JWT'],
  ])('refuses a token %s with 401 and says why', async (_what, make, why) => {
    const response = await post(await make())
    expect(response.status).toBe(401)
    const challenge = response.headers.get('www-authenticate') ?? ''
    expect(challenge).toContain('error="invalid_token"')
    expect(challenge).toContain(`resource_metadata="${METADATA_URL}"`)
    expect(((await response.json()) as {error_description: string}).error_description).toContain(why)
  })

  it('refuses a valid token with neither scope 403 insufficient_scope', async () => {
    const response = await post(await issuer.sign({scope: 'profile email'}))
    expect(response.status).toBe(403)
    expect(response.headers.get('www-authenticate')).toContain('error="insufficient_scope"')
    expect(response.headers.get('www-authenticate')).toContain('scope="mcp:read mcp:write"')
  })

  it("follows key rotation: a new key is taken up once the issuer publishes it, and the retired one's tokens are refused", async () => {
    const old = issuer.keyNow()
    await issuer.rotate({retire: true})
    // The server fetches the keys again for a key it has not seen, at most every KEYS_COOLDOWN_MS (10 s) after its last
    // fetch (test/mcp/http/issuer-keys.test.ts holds it to that on a clock of its own): not before then, and then it is
    // asked until it has taken the new key up, in one fetch whatever it was asked meanwhile.
    await sleep(Math.max(0, issuer.lastFetchAt() + 10_000 - Date.now()))
    const before = issuer.jwksFetches()
    const fresh = await issuer.sign({scope: 'mcp:read'})
    expect(await eventually(async () => (await post(fresh)).status === 200, 30_000, 250)).toBe(true)
    expect(issuer.jwksFetches()).toBe(before + 1)
    const retired = await post(await issuer.sign({scope: 'mcp:read'}, {key: old}))
    expect(retired.status).toBe(401)
    expect(((await retired.json()) as {error_description: string}).error_description).toContain("No key of the issuer matches the token's signature")
  }, 60_000)
})

describe('mcp serve --auth-issuer: a token with only the read scope', () => {
  let client: Client
  beforeAll(async () => {
    client = await connect(await issuer.sign({scope: 'mcp:read'}))
  })
  afterAll(() => client?.close())

  it('lists the read-only commands only', async () => {
    const {tools} = await client.listTools()
    const commandTools = tools.filter((t) => t.name.startsWith('tasks_') || t.name === 'status')
    expect(commandTools.map((t) => t.name)).toContain('tasks_list')
    expect(commandTools.every((t) => t.annotations?.readOnlyHint === true)).toBe(true)
    expect(tools.map((t) => t.name)).not.toContain('tasks_add')
    const runCommand = tools.find((t) => t.name === 'run_command')!
    expect(runCommand.annotations?.readOnlyHint).toBe(true)
  })

  it('cannot call a writing command as a typed tool', async () => {
    const result = await client.callTool({arguments: {title: 'nope'}, name: 'tasks_add'}).catch((error: Error) => ({content: [{text: error.message, type: 'text'}], isError: true}))
    expect(result.isError).toBe(true)
    expect(textOf(result)).toMatch(/tasks_add/)
  })

  it('cannot reach a writing command through run_command, describe_command or its reference, and is told of none', async () => {
    const ran = await client.callTool({arguments: {arguments: {title: 'nope'}, command: 'tasks:add', expectedDefinitionHash: 'any'}, name: 'run_command'})
    expect(ran.isError).toBe(true)
    expect(textOf(ran)).toContain('No command "tasks:add"')
    // Told of no writing command, not even as a suggestion.
    expect(textOf(ran)).not.toMatch(/tasks:(remove|done|clear)|\binit\b|\bsync\b/)

    const described = await client.callTool({arguments: {command: 'tasks:add'}, name: 'describe_command'})
    expect(described.isError).toBe(true)
    await expect(client.readResource({uri: 'taskbox://commands/tasks:add'})).rejects.toThrow()
    expect((await client.readResource({uri: 'taskbox://commands/tasks:list'})).contents[0]).toMatchObject({uri: 'taskbox://commands/tasks:list'})
  })

  it('still runs the read-only commands', async () => {
    const listed = await client.callTool({arguments: {}, name: 'tasks_list'})
    expect(listed.isError).toBeFalsy()
    const described = await client.callTool({arguments: {command: 'tasks:list'}, name: 'describe_command'})
    const hash = (described.structuredContent as {definitionHash: string}).definitionHash
    const ran = await client.callTool({arguments: {command: 'tasks:list', expectedDefinitionHash: hash}, name: 'run_command'})
    expect(ran.isError).toBeFalsy()
  })
})

describe('mcp serve --auth-issuer: set-up refused before anything listens', () => {
  const env = () => taskboxEnv(join(space.dir, 'home-setup'))

  it('needs the audience, and an issuer for an audience', async () => {
    const noAudience = await refusedServe(['--port', '0', '--auth-issuer', 'https://idp.example'], env(), space.dir)
    expect(noAudience.code).toBe(2)
    expect(noAudience.stderr).toContain('--auth-issuer needs --auth-audience')
    const noIssuer = await refusedServe(['--port', '0', '--auth-audience', AUDIENCE], env(), space.dir)
    expect(noIssuer.code).toBe(2)
    expect(noIssuer.stderr).toContain('--auth-audience needs --auth-issuer')
  })

  it('refuses a plain http issuer off loopback, and an issuer whose metadata names another', async () => {
    const insecure = await refusedServe(['--port', '0', '--auth-issuer', 'http://idp.example', '--auth-audience', AUDIENCE], env(), space.dir)
    expect(insecure.code).toBe(2)
    expect(insecure.stderr).toContain('must be an https:// URL')
    const other = await refusedServe(['--port', '0', '--auth-issuer', `${issuer.url}/tenant`, '--auth-audience', AUDIENCE], env(), space.dir)
    expect(other.code).toBe(1)
    expect(other.stderr).toContain(`Cannot read the metadata of the issuer ${issuer.url}/tenant`)
    expect(other.stderr).not.toContain('listening')
  })

  it('will not take a static token and OAuth together', async () => {
    const both = await refusedServe(['--port', '0', '--auth-issuer', issuer.url, '--auth-audience', AUDIENCE], {...env(), TASKBOX_MCP_TOKEN: 'static-1'}, space.dir)
    expect(both.code).toBe(2)
    expect(both.stderr).toContain('cannot be used together')
  })
})

describe('mcp serve --auth-issuer: each person keeps their own jobs, outputs and idempotency keys', () => {
  const {as} = servedForPeople(['--cwd', space.dir, '--foreground', '2'], 'home-own')

  it("answers someone else's job and output as unknown, and lists only one's own jobs", async () => {
    const [alice, bob] = [await as('alice', 'mcp:read'), await as('bob', 'mcp:read')]
    // Long past the 2 s foreground budget, so it is still running when alice follows it (it is cancelled below).
    const started = await alice.callTool({arguments: {delay: 600}, name: 'report_weekly'})
    const job = (started.structuredContent as {job: {id: string}}).job.id
    expect(typeof job).toBe('string')

    for (const [name, args] of [['job_status', {job}], ['cancel_job', {job}], ['read_output', {output: job}]] as const) {
      const answer = await bob.callTool({arguments: args, name})
      expect(answer.isError).toBe(true)
      expect(textOf(answer)).toMatch(/^No (job|output)/)
    }

    const listed = await bob.callTool({arguments: {}, name: 'job_status'})
    expect(textOf(listed)).toContain('No jobs in this server.')
    await expect(bob.readResource({uri: `taskbox://output/${job}/stderr`})).rejects.toThrow()

    const followed = await alice.callTool({arguments: {job}, name: 'job_status'})
    expect(textOf(followed)).toContain(`Job ${job} is running`)
    const cancelled = await alice.callTool({arguments: {job}, name: 'cancel_job'})
    expect((cancelled.structuredContent as {job: {status: string}}).job.status).toBe('cancelled')
  })

  it("never replays one person's idempotency key for another", async () => {
    const [alice, bob] = [await as('alice-w', 'mcp:write'), await as('bob-w', 'mcp:write')]
    const call = {arguments: {idempotencyKey: 'shared-key-1', title: 'same title'}, name: 'tasks_add'}
    const replayed = (result: {_meta?: Record<string, unknown>}) => (result._meta?.['oclif-plugin-mcp/idempotency'] as {replayed?: boolean} | undefined)?.replayed === true
    expect(replayed(await alice.callTool(call))).toBe(false)
    expect(replayed(await bob.callTool(call))).toBe(false)
    expect(replayed(await alice.callTool(call))).toBe(true)
  })
})

describe('mcp serve --auth-issuer: each person\'s calls without a cwd run in a directory of their own', () => {
  const {as} = servedForPeople(['--workers', '0'], 'home-dirs')

  it("never shows one person's tasks to another", async () => {
    const [writer, reader] = [await as('carol', 'mcp:write'), await as('dave', 'mcp:read')]
    expect((await writer.callTool({arguments: {}, name: 'init'})).isError).toBeFalsy()
    const added = await writer.callTool({arguments: {title: 'carol only'}, name: 'tasks_add'})
    expect(added.isError).toBeFalsy()
    const listed = await reader.callTool({arguments: {}, name: 'tasks_list'})
    expect(textOf(listed)).not.toContain('carol only')
    const dirs = [added, listed].map((result) => (result.structuredContent as {cwd: string}).cwd)
    expect(dirs[0]).not.toBe(dirs[1])
    // The same person's calls share theirs.
    expect((await writer.callTool({arguments: {}, name: 'tasks_list'})).structuredContent).toMatchObject({cwd: dirs[0]})
  })
})

describe("mcp serve --auth-issuer: a person's read-only token and their writing jobs", () => {
  const {as} = servedForPeople(['--foreground', '1', '--workers', '0'], 'home-faulty', FAULTY_BIN)

  it('cannot follow, cancel or read a job of a writing command the same person started with the write scope', async () => {
    const [writing, reading] = [await as('carol', 'mcp:write'), await as('carol', 'mcp:read')]
    // Long past the 1 s foreground budget, so it is still running when listed (it is cancelled below).
    const started = await writing.callTool({arguments: {seconds: 600}, name: 'slow'})
    const job = (started.structuredContent as {job: {id: string}}).job.id
    // Every path agrees: the job and its output are answered as ones that do not exist.
    for (const [name, args] of [['job_status', {job}], ['cancel_job', {job}], ['read_output', {output: job}]] as const) {
      const answer = await reading.callTool({arguments: args, name})
      expect([name, answer.isError, textOf(answer)]).toEqual([name, true, expect.stringMatching(/^No (job|output)/)])
    }

    await expect(reading.readResource({uri: `faulty://output/${job}/stdout`})).rejects.toThrow(/No kept output/)
    expect((await writing.callTool({arguments: {output: job}, name: 'read_output'})).isError).toBeFalsy()

    expect(textOf(await reading.callTool({arguments: {}, name: 'job_status'}))).toContain('No jobs in this server.')
    expect(textOf(await writing.callTool({arguments: {}, name: 'job_status'}))).toContain('1 jobs, 1 running')
    const cancelled = await writing.callTool({arguments: {job}, name: 'cancel_job'})
    expect((cancelled.structuredContent as {job: {status: string}}).job.status).toBe('cancelled')
  })
})
