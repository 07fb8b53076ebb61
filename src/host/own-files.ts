import {readFileSync} from 'node:fs'
import {dirname, join} from 'node:path'
import {fileURLToPath} from 'node:url'

// Files of this package that run on their own (a worker's entry, the orphan guard), named by their place in dist/.
// Found from the package's root, not from the module asking: `mcp stdio` runs from one bundled file
// (bin/bundle-stdio.mjs), where every module's import.meta.url is the bundle's.

let root: string | undefined

/** This package's root: the nearest directory above this module whose package.json names this package. */
function packageRoot(): string {
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; dir = dirname(dir)) {
    try {
      if ((JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {name?: string}).name === 'oclif-plugin-mcp') return dir
    } catch {
      // No package.json here (or not one we can read): look further up.
    }

    if (dirname(dir) === dir) throw new Error(`oclif-plugin-mcp: no package root above ${fileURLToPath(import.meta.url)}`)
  }
}

/** The absolute path of `pathInDist` (e.g. `tools/execution/worker-entry.js`) in this package's dist/. */
export function ownFile(pathInDist: string): string {
  root ??= packageRoot()
  return join(root, 'dist', pathInDist)
}
