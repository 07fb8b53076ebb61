// Secret values never stand on a process's command line, which every local user can read (`ps`, /proc/PID/cmdline)
// for as long as a command runs: faulty-cli's `hold` takes a password (a flag with no variable), an API key (a flag
// with one), several secrets (a repeated flag) and a token (a positional), says when it has parsed them, and waits.
// While it waits, every process's command line is read; then it is released and prints a digest of each value it
// got, so the values are shown to have arrived whole. Cold and warm, over stdio and over HTTP.
import {Client, StreamableHTTPClientTransport} from '@modelcontextprotocol/client'
import {afterAll, describe, expect, it} from '@jest/globals'
import {createHash, randomBytes} from 'node:crypto'
import {existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'

import {eventually} from '../helpers/processes.js'
import {serveTaskbox} from '../helpers/serve.js'
import {connectTaskbox, FAULTY_BIN, scratch, taskboxEnv} from '../helpers/taskbox.js'

type Result = Awaited<ReturnType<Client['callTool']>>
type Call = (args: Record<string, unknown>) => Promise<Result>

const space = scratch('mcp-argv-secrets-')
afterAll(() => space.cleanup())

/** Every process's command line that this user can read (the title a process set included: it is what cmdline shows). */
function commandLines(): Map<number, string> {
  const lines = new Map<number, string>()
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      lines.set(Number(entry), readFileSync(`/proc/${entry}/cmdline`, 'utf8').replaceAll('\0', ' '))
    } catch {
      // Gone meanwhile.
    }
  }

  return lines
}

const digest = (value: string) => createHash('sha256').update(value).digest('hex')
let calls = 0

/** One `hold` call: the process table read while it holds its secrets; returns whether a warm worker ran it. */
async function holdsSecretsOffTheTable(call: Call): Promise<boolean> {
  const dir = join(space.dir, `call-${++calls}`)
  mkdirSync(dir)
  const unique = () => randomBytes(12).toString('hex')
  const values = {apiKey: `ak-${unique()}`, password: `pw-${unique()}`, secrets: [`s1-${unique()}`, `s2-${unique()}`], token: `tk-${unique()}`}
  const pending = call({'api-key': values.apiKey, dir, password: values.password, secret: values.secrets, token: values.token})
  const ready = join(dir, 'ready')
  let settled = false
  void pending.finally(() => (settled = true))
  // The command says when it has parsed its arguments; a call that ended first has failed (checked below).
  await eventually(() => existsSync(ready) || settled, 120_000, 20)
  try {
    if (existsSync(ready)) {
      const table = commandLines()
      const all = [values.apiKey, values.password, ...values.secrets, values.token]
      for (const [pid, line] of table) for (const secret of all) expect({line, pid, secret: line.includes(secret)}).toEqual({line, pid, secret: false})
      // The right process was looked at: the command itself, showing placeholders where its secrets go.
      const command = table.get(Number(readFileSync(ready, 'utf8')))
      expect(command).toContain('hold')
      expect(command).toContain('--password=[secret]')
      expect(command).not.toContain('api-key')
    }
  } finally {
    writeFileSync(join(dir, 'release'), '')
  }

  const result = await pending
  expect(result.isError).toBeFalsy()
  // The digests of the api key, the password, each secret and the token, in that order.
  expect((result.structuredContent as {data: unknown}).data).toEqual({received: [values.apiKey, values.password, ...values.secrets, values.token].map((v) => digest(v))})
  return Boolean((result._meta?.['oclif-plugin-mcp/run'] as {warm?: boolean} | undefined)?.warm)
}

/** Cold (no workers), then warm: calls until a warm worker has run one (each call is checked either way). */
async function coldAndWarm(connect: (workers: number) => Promise<{call: Call; close: () => Promise<unknown>}>): Promise<void> {
  const cold = await connect(0)
  try {
    expect(await holdsSecretsOffTheTable(cold.call)).toBe(false)
  } finally {
    await cold.close()
  }

  const warm = await connect(1)
  try {
    let ranWarm = false
    for (let attempt = 0; attempt < 20 && !ranWarm; attempt++) ranWarm = await holdsSecretsOffTheTable(warm.call)
    expect(ranWarm).toBe(true)
  } finally {
    await warm.close()
  }
}

describe('secret values stay off every process command line', () => {
  it('over stdio, cold and warm', async () => {
    await coldAndWarm(async (workers) => {
      const home = join(space.dir, `stdio-home-${workers}`)
      const connected = await connectTaskbox({args: ['--workers', String(workers)], bin: FAULTY_BIN, cwd: space.dir, env: taskboxEnv(home), era: 'legacy'})
      return {call: (args) => connected.client.callTool({arguments: args, name: 'hold'}) as Promise<Result>, close: connected.close}
    })
  })

  it('over HTTP, cold and warm', async () => {
    await coldAndWarm(async (workers) => {
      const home = join(space.dir, `http-home-${workers}`)
      const served = await serveTaskbox({args: ['--workers', String(workers)], bin: FAULTY_BIN, cwd: space.dir, env: taskboxEnv(home)})
      const client = new Client({name: 'argv-secrets', version: '1'})
      await client.connect(new StreamableHTTPClientTransport(new URL(served.url)))
      return {
        call: (args) => client.callTool({arguments: args, name: 'hold'}) as Promise<Result>,
        close: async () => {
          await client.close()
          expect(await served.stop()).toBe(0)
        },
      }
    })
  })
})
