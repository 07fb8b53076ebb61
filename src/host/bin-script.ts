import type {Config} from '@oclif/core'

import {join} from 'node:path'

/** The script that starts the host CLI: the one that started this process when it belongs to the CLI, else its bin. */
export function hostBinScript(config: Config): string {
  const started = process.argv[1]
  if (started && started.startsWith(config.root)) return started
  const {bin} = config.pjson as {bin?: Record<string, string> | string}
  const relative = typeof bin === 'string' ? bin : bin?.[config.bin] ?? Object.values(bin ?? {})[0]
  if (!relative) throw new Error(`Cannot find how to start ${config.bin}: its package.json has no "bin".`)
  return join(config.root, relative)
}
