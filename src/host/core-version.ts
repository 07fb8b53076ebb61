import type {Config} from '@oclif/core'

import {createRequire} from 'node:module'
import {join} from 'node:path'

// Which @oclif/core the host CLI runs on, and what follows from it.

/** The version of the @oclif/core the host CLI itself runs on (ours may differ), or undefined when it bundles one. */
export function hostCoreVersion(config: Config): string | undefined {
  try {
    const require = createRequire(join(config.root, 'package.json'))
    return (require('@oclif/core/package.json') as {version: string}).version
  } catch {
    return undefined
  }
}

/**
 * Whether the host answers `--json` with its error's message: @oclif/core 4 and later do; 1 to 3 print the error
 * object with JSON.stringify, which leaves the message out (`{"error": {"code": "NO_FILE"}}`). A bundled core
 * (found by no version) is taken to be a current one.
 */
export function jsonErrorsKeepMessage(config: Config): boolean {
  const major = Number(hostCoreVersion(config)?.split('.')[0])
  return !Number.isFinite(major) || major >= 4
}
