// A/B of the bundled `mcp stdio` (bin/bundle-stdio.mjs) against tsc's plain build of the same commit: spawn until the
// initialize answer, the two swapped round by round in dist/commands/mcp/stdio.js (restored at the end).
// Run: npm run bench:bundle (taskbox, heroku, shopify), or bash bench/node22.sh bench/bundle-ab.mjs [NAME ...]
import {execFileSync} from 'node:child_process'
import {copyFileSync, mkdtempSync, readFileSync, rmSync} from 'node:fs'
import {cpus, tmpdir} from 'node:os'
import {join} from 'node:path'

import {CORPUS, mcpArgv, nodeOf, prepare, ROOT} from '../test/corpus/clis.ts'
import {isolatedHome, median, untilInitialized} from './common.mjs'

const ROUNDS = 13
const entry = join(ROOT, 'dist/commands/mcp/stdio.js')
if (!readFileSync(entry, 'utf8').includes('__createRequire')) throw new Error(`${entry} is not the bundle: run npm run build`)
const work = mkdtempSync(join(tmpdir(), 'bench-bundle-'))
const bundled = join(work, 'bundled.js')
copyFileSync(entry, bundled)
// However the run ends: the bundle back in its place, then the scratch files gone.
process.once('exit', () => {
  copyFileSync(bundled, entry)
  rmSync(work, {force: true, recursive: true})
})
for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => process.exit(130))
execFileSync(join(ROOT, 'node_modules/.bin/tsc'), ['-p', join(ROOT, 'tsconfig.build.json'), '--outDir', join(work, 'plain')])
const plain = join(work, 'plain/commands/mcp/stdio.js')

const node20 = execFileSync('bash', ['-c', 'command -v node']).toString().trim()
const targets = [{args: [join(ROOT, 'examples/taskbox/bin/run.js'), 'mcp', 'stdio', '--workers', '0'], env: {...process.env, ...isolatedHome('bench-bundle-taskbox-').env}, label: 'taskbox', node: node20}]
for (const name of process.argv.slice(2)) {
  const cli = CORPUS.find((c) => c.name === name)
  if (!cli) throw new Error(`no corpus CLI named ${name}`)
  targets.push({args: mcpArgv(cli, 'stdio', ['--workers', '0']), env: prepare(cli, join(work, name)), label: cli.package, node: nodeOf(cli)})
}

console.log(`machine: ${cpus().length} × ${cpus()[0]?.model}, ${new Date().toISOString()}; median of ${ROUNDS} rounds, interleaved\n`)
console.log('| CLI | tsc build | bundled | saved |')
console.log('| --- | ---: | ---: | ---: |')
for (const target of targets) {
  const times = {bundled: [], plain: []}
  for (let i = 0; i < ROUNDS; i++) {
    for (const [which, file] of [['plain', plain], ['bundled', bundled]]) {
      copyFileSync(file, entry)
      const started = performance.now()
      await untilInitialized(target.node, target.args, {cwd: work, env: target.env})
      times[which].push(performance.now() - started)
    }
  }

  const [a, b] = [median(times.plain), median(times.bundled)]
  console.log(`| ${target.label} | ${Math.round(a)} ms | ${Math.round(b)} ms | ${Math.round(a - b)} ms |`)
}
