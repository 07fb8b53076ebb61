// A/B/C of the bundled `mcp stdio` (bin/bundle-stdio.mjs, split into chunks) against the same bundle as one file and
// tsc's plain build of the same commit: spawn until the initialize answer, the three swapped round by round in
// dist/commands/mcp/stdio.js (restored at the end).
// Run: npm run bench:bundle (taskbox, heroku, shopify), or bash bench/node22.sh bench/bundle-ab.mjs [NAME ...]
import {execFileSync} from 'node:child_process'
import {copyFileSync, mkdtempSync, readFileSync, rmSync, symlinkSync} from 'node:fs'
import {cpus, tmpdir} from 'node:os'
import {join} from 'node:path'

import {CORPUS, mcpArgv, nodeOf, prepare, ROOT} from '../test/corpus/clis.ts'
import {bundleStdio} from '../bin/bundle-stdio.mjs'
import {isolatedHome, median, untilInitialized} from './common.mjs'

const ROUNDS = 13
const entry = join(ROOT, 'dist/commands/mcp/stdio.js')
if (!readFileSync(entry, 'utf8').includes('__createRequire')) throw new Error(`${entry} is not the bundle: run npm run build`)
const work = mkdtempSync(join(tmpdir(), 'bench-bundle-'))
const bundled = join(work, 'split.js')
copyFileSync(entry, bundled)
// However the run ends: the bundle back in its place, then the scratch files gone.
process.once('exit', () => {
  copyFileSync(bundled, entry)
  rmSync(work, {force: true, recursive: true})
})
for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => process.exit(130))
execFileSync(join(ROOT, 'node_modules/.bin/tsc'), ['-p', join(ROOT, 'tsconfig.build.json'), '--outDir', join(work, 'plain')])
const plain = join(work, 'plain/commands/mcp/stdio.js')
const oneFile = join(work, 'one-file.js')
// The one-file form is bundled from that build, resolving packages where the checkout's are.
symlinkSync(join(ROOT, 'node_modules'), join(work, 'node_modules'))
await bundleStdio({dist: join(work, 'plain'), outfile: oneFile, split: false})

const node20 = execFileSync('bash', ['-c', 'command -v node']).toString().trim()
const targets = [{args: [join(ROOT, 'examples/taskbox/bin/run.js'), 'mcp', 'stdio', '--workers', '0'], env: {...process.env, ...isolatedHome('bench-bundle-taskbox-').env}, label: 'taskbox', node: node20}]
for (const name of process.argv.slice(2)) {
  const cli = CORPUS.find((c) => c.name === name)
  if (!cli) throw new Error(`no corpus CLI named ${name}`)
  targets.push({args: mcpArgv(cli, 'stdio', ['--workers', '0']), env: prepare(cli, join(work, name)), label: cli.package, node: nodeOf(cli)})
}

console.log(`machine: ${cpus().length} × ${cpus()[0]?.model}, ${new Date().toISOString()}; median of ${ROUNDS} rounds, interleaved\n`)
console.log('| CLI | tsc build | one file | split | one file saves | split saves over one file |')
console.log('| --- | ---: | ---: | ---: | ---: | ---: |')
for (const target of targets) {
  const times = {oneFile: [], plain: [], split: []}
  for (let i = 0; i < ROUNDS; i++) {
    for (const [which, file] of [['plain', plain], ['oneFile', oneFile], ['split', bundled]]) {
      copyFileSync(file, entry)
      const started = performance.now()
      await untilInitialized(target.node, target.args, {cwd: work, env: target.env})
      times[which].push(performance.now() - started)
    }
  }

  const [a, b, c] = [median(times.plain), median(times.oneFile), median(times.split)]
  const ms = (x) => `${Math.round(x)} ms`
  console.log(`| ${target.label} | ${ms(a)} | ${ms(b)} | ${ms(c)} | ${ms(a - b)} | ${ms(b - c)} |`)
}
