// The dependency direction of src/ (.dependency-cruiser.cjs) is checked by `npm test` before jest runs. This suite
// shows the rule bites: a small tree that breaks it in each way it can be broken must fail with exactly those
// violations, and the same tree without them must pass.
import {afterAll, beforeAll, describe, expect, it} from '@jest/globals'
import {execFile} from 'node:child_process'
import {mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {dirname, join, resolve} from 'node:path'
import {promisify} from 'node:util'

const ROOT = resolve(import.meta.dirname, '..')
const DEPCRUISE = join(ROOT, 'node_modules', '.bin', 'depcruise')
const run = promisify(execFile)

let tree: string

function write(files: Record<string, string>): void {
  rmSync(join(tree, 'src'), {force: true, recursive: true})
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(tree, path)), {recursive: true})
    writeFileSync(join(tree, path), text)
  }
}

/** The violations depcruise reports for the tree, as `rule: from → to` (to relative to the tree where it can be). */
async function violations(): Promise<string[]> {
  const args = ['src', '--config', join(ROOT, '.dependency-cruiser.cjs'), '--output-type', 'json']
  const {stdout} = await run(DEPCRUISE, args, {cwd: tree}).catch((error: {stdout: string}) => error)
  const report = JSON.parse(stdout) as {summary: {violations: {from: string; rule: {name: string}; to: string}[]}}
  return report.summary.violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to.replace(/^.*node_modules\/([^/]+)\/.*$/, 'npm:$1')}`).sort()
}

const LAYERED = {
  'src/mcp/server.ts': "import {run} from '../tools/execution/pipeline.js'\nexport const serve = run\n",
  'src/tools/catalog/names.ts': "import * as z from 'zod'\nexport const name = z.string()\n",
  'src/tools/execution/pipeline.ts': "import {name} from '../catalog/names.js'\nexport const run = () => name\n",
  'src/tools/execution/child-process.ts': "export const spawnIt = () => 1\n",
}

beforeAll(() => {
  tree = mkdtempSync(join(tmpdir(), 'dependency-rule-'))
  writeFileSync(join(tree, 'package.json'), JSON.stringify({dependencies: {zod: '*'}, devDependencies: {'fast-check': '*'}, name: 'probe', type: 'module'}))
  writeFileSync(join(tree, 'tsconfig.json'), JSON.stringify({compilerOptions: {module: 'Node16', moduleResolution: 'Node16', strict: true}, include: ['src']}))
  symlinkSync(join(ROOT, 'node_modules'), join(tree, 'node_modules'))
})

afterAll(() => {
  rmSync(tree, {force: true, recursive: true})
})

describe('the dependency rule', () => {
  it('passes a tree whose imports point the allowed way', async () => {
    write(LAYERED)
    expect(await violations()).toEqual([])
  })

  it('fails a back-edge, a cycle, the protocol side reaching child processes, and a devDependency in src', async () => {
    write({
      ...LAYERED,
      'src/mcp/server.ts': "import {run} from '../tools/execution/pipeline.js'\nimport {spawnIt} from '../tools/execution/child-process.js'\nexport const serve = [run, spawnIt]\n",
      'src/tools/catalog/names.ts': "import * as z from 'zod'\nimport {spawnIt} from '../execution/child-process.js'\nimport {more} from './more.js'\nexport const name = [z.string(), spawnIt, more]\n",
      'src/tools/catalog/more.ts': "import fc from 'fast-check'\nimport {name} from './names.js'\nexport const more = [fc, name]\n",
    })
    expect(await violations()).toEqual(
      [
        'no-cycles: src/tools/catalog/more.ts → src/tools/catalog/names.ts',
        'not-in-allowed: src/mcp/server.ts → src/tools/execution/child-process.ts',
        'not-in-allowed: src/tools/catalog/more.ts → npm:fast-check',
        'not-in-allowed: src/tools/catalog/names.ts → src/tools/execution/child-process.ts',
      ].sort(),
    )
    // (A cycle is reported once, at the module depcruise meets first.)
  })
})
