import {afterAll, beforeAll, describe, expect, it} from '@jest/globals'
import {existsSync, mkdirSync, readFileSync} from 'node:fs'
import {join} from 'node:path'

import {connectTaskbox, type Connected, scratch, taskboxEnv} from '../helpers/taskbox.js'

const TOKEN = 'tok-s3cr3t-8431'
const ENV_TOKEN = 'env-s3cr3t-5519'

describe('secrets never leave the server, and changes are audited', () => {
  const space = scratch()
  const project = join(space.dir, 'project')
  const home = join(space.dir, 'home')
  const auditFile = join(home, 'data', 'taskbox', 'mcp-audit.jsonl')
  let server: Connected

  beforeAll(async () => {
    mkdirSync(project)
    server = await connectTaskbox({cwd: space.dir, env: {...taskboxEnv(home), TASKBOX_SYNC_TOKEN: ENV_TOKEN}, era: 'legacy'})
  })

  afterAll(async () => {
    await server?.close()
    space.cleanup()
  })

  it('redacts a secret flag value from the result, even when the command echoes it', async () => {
    const result = await server.client.callTool({arguments: {cwd: project, remote: 'https://sync.example', token: TOKEN}, name: 'sync'})
    expect(result.isError).toBe(true)
    const text = JSON.stringify(result)
    expect(text).not.toContain(TOKEN)
    expect(text).toContain('--token=[REDACTED]')
    expect(text).toContain('Cannot reach https://sync.example with token [REDACTED]')
  })

  it('redacts secret environment variables the command leaks', async () => {
    const result = await server.client.callTool({arguments: {cwd: project, remote: 'https://sync.example'}, name: 'sync'})
    expect(JSON.stringify(result)).not.toContain(ENV_TOKEN)
    expect(JSON.stringify(result)).toContain('with token [REDACTED]')
  })

  it('appends mutating calls, redacted, to the audit log; read-only calls are not logged', async () => {
    await server.client.callTool({arguments: {cwd: project}, name: 'status'})
    await server.client.callTool({arguments: {cwd: project}, name: 'init'})
    const records = readFileSync(auditFile, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>)
    expect(readFileSync(auditFile, 'utf8')).not.toContain(TOKEN)
    expect(readFileSync(auditFile, 'utf8')).not.toContain(ENV_TOKEN)
    expect(records.map((r) => r.command)).toEqual(['sync', 'sync', 'init'])
    expect(records[0]).toMatchObject({
      arguments: {cwd: project, remote: 'https://sync.example', token: '[REDACTED]'},
      client: {name: 'oclif-plugin-mcp-tests', version: '1.0.0'},
      era: 'legacy',
      exitCode: 5,
      outcome: 'ran',
      tool: 'sync',
    })
    expect(records[2]).toMatchObject({exitCode: 0, outcome: 'ran'})
    expect(typeof records[2].durationMs).toBe('number')
  })

  it('writes nothing with --no-audit', async () => {
    const quietHome = join(space.dir, 'quiet-home')
    const quiet = await connectTaskbox({args: ['--no-audit'], cwd: space.dir, env: taskboxEnv(quietHome), era: 'modern'})
    try {
      const dir = join(space.dir, 'quiet')
      mkdirSync(dir)
      expect((await quiet.client.callTool({arguments: {cwd: dir}, name: 'init'})).isError).toBeFalsy()
      expect(existsSync(join(quietHome, 'data', 'taskbox', 'mcp-audit.jsonl'))).toBe(false)
    } finally {
      await quiet.close()
    }
  })
})
