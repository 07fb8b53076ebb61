import type {Hook} from '@oclif/core'

import {COMPILE_CACHE_ADVICE, letRequireLoadEsm} from '../../host/esm-require-guard.cjs'
import {claimStdout, claimsStdout, hostRefusal} from '../../host/stdout-guard.cjs'

/**
 * For `mcp stdio`, stdout belongs to the protocol from the earliest moment a plugin can act, and for our commands
 * with `--json` to their JSON: whatever other plugins' hooks print after this runs goes to stderr.
 *
 * This module (and the guard it loads) is CommonJS on purpose. oclif starts every plugin's init hook at once; an
 * ES module hook is loaded with import(), which waits on file I/O, while a CommonJS one is loaded with a synchronous
 * require(). So this hook claims stdout before any ES module hook can run, whatever plugin it belongs to.
 */
const hook: Hook.Init = async function (options) {
  // Before any command of ours is required: a host whose bin loaded v8-compile-cache would compile it as CommonJS.
  if (letRequireLoadEsm() === 'stuck' && /^mcp(?::|$)/.test(options.id ?? '')) process.stderr.write(`${COMPILE_CACHE_ADVICE}\n`)
  const refusal = hostRefusal(options.id, (options.config as {_base?: string})._base)
  if (refusal) {
    process.stderr.write(`${refusal}\n`)
    process.exit(2)
  }

  if (claimsStdout(options.id, options.argv)) claimStdout()
}

export default hook
