// Build step: `mcp stdio`, the command every host launches, bundled. tsc's output of it and everything it imports
// (the SDK and zod included; not @oclif/core, which must be the one the rest of the plugin loads) become one ES
// module in its place, dist/commands/mcp/stdio.js: loading one file instead of ~180 saves a third of what the
// plugin adds to a host's start-up (docs/servers.md, "Start-up"). What the command imports only when it needs it (execa for
// the first call, the Redis client for `--state`, fast-glob for docs) is split into chunks of their own in
// dist/bundle/chunks, so start-up parses 1 MB instead of 2.4 MB (bench/RESULTS.md, "Start-up"). The CommonJS guards
// stay files of their own (the init hook shares their state with the command), required by their place in dist/.
import {build} from 'esbuild'
import {dirname, join, relative, resolve} from 'node:path'
import {fileURLToPath} from 'node:url'

const DIST = join(dirname(fileURLToPath(import.meta.url)), '../dist')
// Chunks sit as deep under dist/ as the entry does, so one relative path to a guard serves both.
const CHUNKS = 'bundle/chunks'

/**
 * Bundles the tsc build of `mcp stdio` in `dist` in place. `split: false` makes the one-file form instead, written to
 * `outfile` (bench/bundle-ab.mjs compares the two).
 */
export async function bundleStdio({dist = DIST, outfile, split = true} = {}) {
  const entry = join(dist, 'commands/mcp/stdio.js')
  if (relative(dirname(entry), dist) !== relative(join(dist, CHUNKS), dist)) throw new Error('chunks must sit as deep as the entry')
  await build({
    allowOverwrite: true,
    // Bundled CommonJS dependencies call require(): give each output file one.
    banner: {js: "import {createRequire as __createRequire} from 'node:module'; const require = __createRequire(import.meta.url);"},
    bundle: true,
    entryPoints: [entry],
    external: ['@oclif/core'],
    format: 'esm',
    logLevel: 'warning',
    platform: 'node',
    plugins: [
      {
        name: 'guards-stay-apart',
        setup(on) {
          on.onResolve({filter: /\.cjs$/}, (args) => ({external: true, path: `./${relative(dirname(entry), resolve(args.resolveDir, args.path))}`}))
        },
      },
    ],
    target: 'node20',
    ...(split
      ? {chunkNames: `${CHUNKS}/[name]-[hash]`, entryNames: '[dir]/[name]', outbase: dist, outdir: dist, splitting: true}
      : {outfile: outfile ?? entry}),
  })
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await bundleStdio()
