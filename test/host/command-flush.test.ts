// Bins of the classic template end with `run().then(flush)`: flush then takes the command's result as its timeout,
// so a large `--json` answer still in the pipe when run() resolves was cut short ("timed out", exit 2). Our commands
// resolve only once their output has left the process. A generated 400-command CLI (its `mcp tools --json` is far
// larger than a pipe holds), a bin of that template, and a reader that holds back once the answer has begun to come.
import {afterAll, beforeAll, describe, expect, it} from '@jest/globals'
import {spawn} from 'node:child_process'
import {mkdirSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

import {generateCli} from '../fixtures/generate-cli.js'
import {eventually} from '../helpers/processes.js'
import {isolatedEnv, ROOT} from '../helpers/taskbox.js'

let root: string
let bin: string

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'flush-'))
  generateCli(root, {minCommands: 400})
  bin = join(root, 'run.mjs')
  const core = join(ROOT, 'node_modules/@oclif/core/lib/index.js')
  writeFileSync(bin, `import {flush, run} from ${JSON.stringify(core)}\nrun(process.argv.slice(2), ${JSON.stringify(root)}).then(flush).catch(async (error) => (await import(${JSON.stringify(core)})).handle(error))\n`)
  mkdirSync(join(root, 'home'))
})

afterAll(() => rmSync(root, {force: true, recursive: true}))

describe('mcp tools --json in a bin that ends with run().then(flush)', () => {
  it('prints all of its answer to a reader that is slow to read, and exits 0', async () => {
    const env = isolatedEnv(join(root, 'home'), 'scale-cli', [{name: 'oclif-plugin-mcp', root: ROOT}], {OCLIF_DISABLE_LINKED_ESM_WARNING: 'true'})
    const child = spawn(process.execPath, [bin, 'mcp', 'tools', '--json'], {cwd: root, env, stdio: ['ignore', 'pipe', 'pipe']})
    let stdout = ''
    let stderr = ''
    child.stdout.pause()
    const killer = setTimeout(() => child.kill('SIGKILL'), 60_000)
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk))
    const closed = new Promise<null | number>((resolve) => child.on('close', resolve))
    // Nothing is read until the answer has filled what this side buffers (however long loading the CLI took), and then
    // not for another 1.5 s: the command has written what the pipe takes and run() has come back with the rest pending.
    await eventually(() => child.stdout.readableLength >= child.stdout.readableHighWaterMark || child.exitCode !== null, 60_000, 20)
    await new Promise((resolve) => setTimeout(resolve, 1500))
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk)).resume()
    const code = await closed
    clearTimeout(killer)
    expect({code, stderr}).toEqual({code: 0, stderr: expect.not.stringContaining('Error')})
    expect(stdout.length).toBeGreaterThan(256 * 1024)
    expect((JSON.parse(stdout) as {commands: unknown[]}).commands.length).toBeGreaterThan(300)
  })
})
