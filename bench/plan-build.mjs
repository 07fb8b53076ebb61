// Start-up cost of the server plan (registry + projection + built-in tools), the part of `mcp stdio` / `mcp serve`
// start-up that grows with the CLI. Each measurement is a fresh process (the cost is a cold, one-off one), median of
// ROUNDS, interleaved across the builds compared.
//   node bench/plan-build.mjs                    this checkout's dist/
//   node bench/plan-build.mjs OTHER_ROOT ...     also other checkouts (each with its own built dist/), side by side
// Needs bench/setup-heroku.sh for the Heroku rows.
import {execFileSync} from 'node:child_process'
import {existsSync} from 'node:fs'
import {cpus} from 'node:os'
import {dirname, join, resolve} from 'node:path'
import {fileURLToPath} from 'node:url'

import {isolatedHome, median} from './common.mjs'

const here = dirname(fileURLToPath(import.meta.url))
const ROUNDS = 7
const roots = [join(here, '..'), ...process.argv.slice(2).map((r) => resolve(r))]
const env = {...process.env, ...isolatedHome('bench-plan-').env}

// Run in a child: load the CLI's Config, then time buildServerPlan once, cold. Prints milliseconds and the band size.
const PROBE = `
const [root, cli, flags] = process.argv.slice(1)
const {Config} = await import(root + '/node_modules/@oclif/core/lib/index.js')
const {buildServerPlan, parseAuthorConfig, resolveSettings} = await import(root + '/dist/index.js')
const config = await Config.load(cli)
const start = performance.now()
const built = buildServerPlan(config, resolveSettings(parseAuthorConfig((config.pjson.oclif ?? {}).mcp ?? {}), JSON.parse(flags)))
// Older checkouts returned {plan, workdir}.
const plan = built.plan ?? built
console.log(JSON.stringify({band: plan.projection.band.length, ms: performance.now() - start}))
`

const clis = [
  {flags: {}, name: 'taskbox (10 commands), default', path: join(here, '../examples/taskbox')},
  ...(existsSync(join(here, '.cache/heroku/node_modules/heroku'))
    ? [
        {flags: {}, name: 'heroku@11.10.0 (356 commands), default band', path: join(here, '.cache/heroku/node_modules/heroku')},
        {flags: {tools: ['version']}, name: 'heroku@11.10.0, --tools version', path: join(here, '.cache/heroku/node_modules/heroku')},
      ]
    : []),
]

console.log(`machine: ${cpus().length} × ${cpus()[0]?.model}, Node ${process.version}; median of ${ROUNDS} fresh processes\n`)
console.log(`| CLI | ${roots.map((r) => `\`${r}\``).join(' | ')} | tools in band |`)
console.log(`| --- | ${roots.map(() => '---:').join(' | ')} | ---: |`)
for (const cli of clis) {
  const times = roots.map(() => [])
  let band
  for (let i = 0; i < ROUNDS; i++) {
    for (const [k, root] of roots.entries()) {
      const out = JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', PROBE, root, cli.path, JSON.stringify(cli.flags)], {env}).toString())
      times[k].push(out.ms)
      band = out.band
    }
  }

  console.log(`| ${cli.name} | ${times.map((t) => `${Math.round(median(t))} ms`).join(' | ')} | ${band} |`)
}

