// Build step: `mcp stdio`, the command every host launches, as one file. tsc's output of it and everything it imports
// (the SDK and zod included; not @oclif/core, which must be the one the rest of the plugin loads) become one ES
// module in its place, dist/commands/mcp/stdio.js: loading one file instead of ~180 saves a third of what the
// plugin adds to a host's start-up (README "Start-up"). The CommonJS guards stay files of their own (the init hook
// shares their state with the command), required by their place in dist/.
import {build} from 'esbuild'
import {dirname, join, relative, resolve} from 'node:path'
import {fileURLToPath} from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const entry = join(root, 'dist/commands/mcp/stdio.js')

await build({
  allowOverwrite: true,
  // Bundled CommonJS dependencies call require(): give the module one.
  banner: {js: "import {createRequire as __createRequire} from 'node:module'; const require = __createRequire(import.meta.url);"},
  bundle: true,
  entryPoints: [entry],
  external: ['@oclif/core'],
  format: 'esm',
  logLevel: 'warning',
  outfile: entry,
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
})
