// The two kinds of Claude Desktop bundle `mcp pack` makes, side by side on corpus CLIs whose author added the plugin:
// `carry` (the CLI and its dependencies, run by Claude Desktop's own Node) and `launch` (a manifest that starts the CLI
// installed on PATH). For each: the .mcpb's size and file count, and the time from spawning the server the way the
// manifest says to its initialize answer (the carried copy unpacked, as Claude Desktop unpacks a bundle), median of
// ROUNDS interleaved rounds.
// Run: npm run bench:pack (zapier prism), or bash bench/node22.sh bench/pack-bundle.mjs [NAME ...]
import {execFileSync} from 'node:child_process'
import {mkdirSync, mkdtempSync, readFileSync, rmSync} from 'node:fs'
import {cpus, tmpdir} from 'node:os'
import {join} from 'node:path'

import {CORPUS, mcpArgv, nodeOf, prepare} from '../test/corpus/clis.ts'
import {median, untilInitialized} from './common.mjs'

const ROUNDS = 7
const work = mkdtempSync(join(tmpdir(), 'bench-pack-'))
process.once('exit', () => rmSync(work, {force: true, recursive: true}))
for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => process.exit(130))

const names = process.argv.slice(2)
console.log(`machine: ${cpus().length} × ${cpus()[0]?.model}, ${new Date().toISOString()}; start-up: median of ${ROUNDS} rounds, interleaved\n`)
console.log('| CLI | bundle | .mcpb size | files | unpacked | start to initialize answer |')
console.log('| --- | --- | ---: | ---: | ---: | ---: |')
for (const name of names.length > 0 ? names : ['zapier', 'prism']) {
  const cli = CORPUS.find((c) => c.name === name)
  if (!cli) throw new Error(`no corpus CLI named ${name}`)
  if (cli.add !== 'author') throw new Error(`${name} gets the plugin as a user plugin: a bundle cannot carry it`)
  const home = join(work, name)
  const env = prepare(cli, home)
  const rows = []
  const starts = {}
  for (const kind of ['carry', 'launch']) {
    const out = join(home, `pack-${kind}`)
    execFileSync(nodeOf(cli), mcpArgv(cli, 'pack', ['--out', out, '--host', 'claude-desktop', '--no-registry', '--bundle', kind]), {cwd: home, env, stdio: 'ignore'})
    const file = execFileSync('bash', ['-c', `ls ${out}/*.mcpb`], {encoding: 'utf8'}).trim()
    const unpacked = join(home, `unpacked-${kind}`)
    mkdirSync(unpacked)
    execFileSync('unzip', ['-q', file, '-d', unpacked])
    const manifest = JSON.parse(readFileSync(join(unpacked, 'manifest.json'), 'utf8'))
    const {args, command} = manifest.server.mcp_config
    const files = Number(execFileSync('bash', ['-c', `unzip -Z1 ${file} | wc -l`], {encoding: 'utf8'}).trim())
    const unpackedBytes = Number(execFileSync('du', ['-sb', unpacked], {encoding: 'utf8'}).split('\t')[0])
    // carry: Claude Desktop's Node runs the carried bin script; launch: the installed CLI, as PATH finds it.
    const argv = kind === 'carry' ? args.map((arg) => arg.replace('${__dirname}', unpacked)) : [...mcpArgv(cli, 'stdio'), ...args.slice(cli.separator === ' ' ? 2 : 1)]
    if (kind === 'launch' && command !== cli.bin) throw new Error(`launch bundle starts ${command}, not ${cli.bin}`)
    starts[kind] = {argv, times: []}
    rows.push({bytes: readFileSync(file).length, files, kind, unpackedBytes})
  }

  for (let i = 0; i < ROUNDS; i++) {
    for (const kind of ['carry', 'launch']) {
      const started = performance.now()
      await untilInitialized(nodeOf(cli), starts[kind].argv, {cwd: home, env})
      starts[kind].times.push(performance.now() - started)
    }
  }

  const mb = (bytes) => (bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${(bytes / 1024).toFixed(1)} KB`)
  for (const row of rows) console.log(`| ${cli.package} | ${row.kind} | ${mb(row.bytes)} | ${row.files} | ${mb(row.unpackedBytes)} | ${Math.round(median(starts[row.kind].times))} ms |`)
}
