// What the plugin costs the host CLI's own commands: each corpus CLI's `--version` and one offline command of its own,
// run cold from a shell with the plugin added (linked as `plugins link` does, the way the corpus adds it) and without
// it (the same scratch HOME, the link taken out), rounds interleaved, medians. Goal: at most 20 ms added. CLIs the
// corpus adds the author's way (the plugin in their own package.json, as an install also lists it) are measured
// without it by taking it out of that package.json's `oclif.plugins` for those runs.
// Also: whether this checkout has its oclif.manifest.json (without one, oclif loads every mcp command module on
// every run of a CLI the checkout is linked into).
// Run: npm run bench:host-overhead [-- --smoke], or bash bench/node22.sh bench/host-overhead.mjs [--smoke] [NAME ...]
import {execFile} from 'node:child_process'
import {existsSync, readFileSync, renameSync, writeFileSync} from 'node:fs'
import {cpus, loadavg} from 'node:os'
import {join} from 'node:path'
import {promisify} from 'node:util'

import {CORPUS, nodeOf, packageRoot, prepare, ROOT, scriptOf, versionOf} from '../test/corpus/clis.ts'
import {isolatedHome, median} from './common.mjs'

const smoke = process.argv.includes('--smoke')
const only = process.argv.slice(2).filter((arg) => !arg.startsWith('--'))
const ROUNDS = smoke ? 3 : 11
const run = promisify(execFile)
const {home} = isolatedHome('bench-overhead-')

async function timed(node, args, env) {
  const started = performance.now()
  await run(node, args, {cwd: home, env, maxBuffer: 64 * 1024 * 1024}).catch(() => {})
  return performance.now() - started
}

console.log(`# What the plugin adds to the host CLI's own commands (cold runs, ${ROUNDS} interleaved rounds, medians)`)
console.log(`machine: ${cpus().length} × ${cpus()[0].model.trim()}, load ${loadavg()[0].toFixed(1)}, ${new Date().toISOString()}; this checkout's oclif.manifest.json: ${existsSync(join(ROOT, 'oclif.manifest.json')) ? 'present' : 'MISSING'}`)
console.log('')
console.log('| CLI | how added | command | without the plugin | with it | added |')
console.log('| --- | --- | --- | ---: | ---: | ---: |')
for (const cli of CORPUS.filter((c) => only.length === 0 || only.includes(c.name))) {
  const env = prepare(cli, join(home, cli.name))
  // The link is a package.json in the CLI's data dir: moved aside for the runs without the plugin. An author's entry
  // is in the CLI's own package.json: that file, without the plugin in `oclif.plugins`, stands in for those runs.
  const linked = cli.add === 'link' ? join(cli.dataDir(join(home, cli.name)), 'package.json') : undefined
  const authored = cli.add === 'author' ? join(packageRoot(cli), 'package.json') : undefined
  const withoutPlugin = () => {
    if (linked) {
      renameSync(linked, `${linked}.off`)
      return () => renameSync(`${linked}.off`, linked)
    }

    const text = readFileSync(authored, 'utf8')
    const pjson = JSON.parse(text)
    pjson.oclif.plugins = pjson.oclif.plugins.filter((name) => name !== 'oclif-plugin-mcp')
    writeFileSync(authored, JSON.stringify(pjson, null, 2))
    return () => writeFileSync(authored, text)
  }

  // One offline command of its own: the first offline call of the corpus, by its command id.
  const own = cli.offline[0].tool.replaceAll('_', cli.separator === ' ' ? ' ' : ':').split(' ')
  const commands = [['--version'], [...own, ...(cli.offline[0].arguments?.extra_args ?? [])]]
  for (const args of commands) {
    const argv = [scriptOf(cli), ...args]
    const times = {with: [], without: []}
    for (let round = 0; round < ROUNDS; round++) {
      times.with.push(await timed(nodeOf(cli), argv, env))
      const restore = withoutPlugin()
      try {
        times.without.push(await timed(nodeOf(cli), argv, env))
      } finally {
        restore()
      }
    }

    const withIt = median(times.with)
    const without = median(times.without)
    console.log(`| ${cli.package}@${versionOf(cli)} | ${cli.add} | \`${args.join(' ')}\` | ${Math.round(without)} ms | ${Math.round(withIt)} ms | ${Math.round(withIt - without)} ms |`)
  }
}
