// Secrets leak in no form, property-based, through the real server (`faulty mcp stdio --confirm-destructive`, the
// official client) and faulty-cli's `leak` command, which prints its token raw, JSON-escaped, as an object key, in
// a shell-quoted word, on stderr and in an error. For random secrets holding quotes, backslashes, `$`, newlines and
// non-ASCII, no form of the secret (raw, JSON-escaped once or twice, \u-escaped) may appear in the result's text
// or structuredContent, in an error, in the progress messages (joined, so a secret split across lines counts), in
// the confirmation prompt, in the audit log or in the idempotency records on disk. SECRET_RUNS runs (default 12).
import type {Client} from '@modelcontextprotocol/client'
import {afterAll, beforeAll, describe, expect, it} from '@jest/globals'
import fc from 'fast-check'
import {existsSync, mkdirSync, readdirSync, readFileSync} from 'node:fs'
import {join} from 'node:path'

import {jobEnd, settled} from '../helpers/jobs.js'
import {connectTaskbox, type Connected, FAULTY_BIN, scratch, taskboxEnv, textOf} from '../helpers/taskbox.js'

const RUNS = Number(process.env.SECRET_RUNS ?? 12)
const PIECES = ['"', "'", '\\', '\\"', '$', '${HOME}', '$(id)', '\n', '\r\n', '\t', ' ', 'é', '🙂', '日本', '\u2028', '%', '&', '+', '/', '=']

/** A secret: a fixed-looking head (so it never matches ordinary output by chance) and a tail of awkward pieces. */
const secrets = fc
  .tuple(fc.stringMatching(/^[A-Za-z0-9]{6,10}$/), fc.array(fc.oneof(fc.constantFrom(...PIECES), fc.stringMatching(/^[A-Za-z0-9]{1,4}$/)), {maxLength: 6, minLength: 1}))
  .map(([head, tail]) => `${head}${tail.join('')}`)

/** The forms that would give the secret away: as it is, and as JSON would escape it (once, twice, ASCII-only). */
function giveaways(secret: string): string[] {
  const once = JSON.stringify(secret).slice(1, -1)
  const ascii = once.replaceAll(/[^\x00-\x7F]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
  return [...new Set([secret, once, JSON.stringify(once).slice(1, -1), ascii])]
}

function expectNoForm(where: string, haystack: string, secret: string): void {
  for (const form of giveaways(secret)) expect([where, haystack.includes(form) ? form : null]).toEqual([where, null])
}

const space = scratch()
const home = join(space.dir, 'home')
const project = join(space.dir, 'project')
let server: Connected
const prompts: string[] = []

beforeAll(async () => {
  mkdirSync(project)
  server = await connectTaskbox({
    args: ['--confirm-destructive', '--cwd', project],
    bin: FAULTY_BIN,
    capabilities: {elicitation: {form: {}}},
    cwd: space.dir,
    env: taskboxEnv(home),
    era: 'legacy',
    setup(client: Client) {
      client.setRequestHandler('elicitation/create', async (request) => {
        prompts.push(String(request.params.message))
        return {action: 'accept', content: {confirm: true}}
      })
    },
  })
})

afterAll(async () => {
  await server?.close()
  space.cleanup()
})

const filesUnder = (dir: string): string[] => (existsSync(dir) ? readdirSync(dir).map((name) => readFileSync(join(dir, name), 'utf8')) : [])

describe('a secret leaks in no form', () => {
  it('not in results, structuredContent, errors, progress, prompts, the audit log or idempotency records', async () => {
    let n = 0
    await fc.assert(
      fc.asyncProperty(secrets, fc.boolean(), async (secret, fail) => {
        const progress: string[] = []
        prompts.length = 0
        const result = await server.client.callTool(
          {arguments: {fail, idempotencyKey: `key-${++n}`, token: secret}, name: 'leak'},
          {onprogress: (p) => progress.push(String(p.message ?? ''))},
        )
        expect(result.isError ?? false).toBe(fail)
        expect(prompts).toHaveLength(1)
        // The command did print it: the redaction is what keeps it in.
        expect(textOf(result)).toContain('[REDACTED]')
        expectNoForm('result', JSON.stringify(result), secret)
        expectNoForm('progress', progress.join('\n'), secret)
        expectNoForm('prompt', prompts.join('\n'), secret)
        expectNoForm('audit log', filesUnder(join(home, 'data', 'faulty-cli')).join('\n'), secret)
        expectNoForm('idempotency records', filesUnder(join(home, 'cache', 'faulty-cli', 'mcp-idempotency')).join('\n'), secret)
      }),
      {numRuns: RUNS},
    )
  })

  it('nor in the whole output kept when a result is cut, nor in a job (read in pages, as a resource, while it runs)', async () => {
    const jobs = await connectTaskbox({args: ['--foreground', '1'], bin: FAULTY_BIN, cwd: space.dir, env: taskboxEnv(join(space.dir, 'home-jobs')), era: 'legacy'})
    try {
      const secret = 'Kept"Sec\\ret$9'
      const call = async (name: string, args: Record<string, unknown>) => {
        const result = (await jobs.client.callTool({arguments: args, name})) as {content: {type: string; uri?: string}[]; structuredContent?: Record<string, any>}
        expectNoForm(name, JSON.stringify(result), secret)
        return result
      }

      const readWhole = async (id: string, links: string[]) => {
        for (const stream of ['stdout', 'stderr']) {
          let offset: null | number = 0
          let whole = ''
          while (offset !== null) {
            const page = await call('read_output', {offset, output: id, stream})
            whole += page.structuredContent!.text
            offset = page.structuredContent!.nextOffset
          }

          // The command did print it, on both streams: the redaction is what keeps it in.
          expect(whole).toContain('[REDACTED]')
        }

        for (const uri of links) expectNoForm(uri, JSON.stringify(await jobs.client.readResource({uri})), secret)
      }

      // 5000 lines of it on each stream: far past the result budget, so the result is cut and the whole is kept.
      const first = await call('leak', {repeat: 5000, token: secret})
      // On a loaded machine the call may outlive the 1 s foreground budget and go on as a job: its end is then the
      // cut result, and its output is kept under the job's id.
      const cut = await settled(call, first)
      const kept = (cut.structuredContent!.output?.id ?? first.structuredContent!.job?.id) as string | undefined
      expect(kept).toBeDefined()
      await readWhole(kept!, cut.content.filter((b) => b.type === 'resource_link').map((b) => b.uri!))

      // Past the 1 s foreground budget: a job, whose output is read while it runs and after it ended.
      const started = await call('leak', {repeat: 200, seconds: 3, token: secret})
      const {id} = started.structuredContent!.job
      await readWhole(id, [])
      await jobEnd(call, id)
      await readWhole(id, [`faulty://output/${id}/stdout`, `faulty://output/${id}/stderr`])
    } finally {
      await jobs.close()
    }
  }, 120_000)

  it('nor in the answer to arguments it refuses', async () => {
    const secret = 'Quo"teTok\\1234'
    const result = await server.client.callTool({arguments: {extra: secret, token: secret}, name: 'leak'})
    expect(result.isError).toBe(true)
    expectNoForm('refusal', JSON.stringify(result), secret)
  })
})
