import type {Hook} from '@oclif/core'

import {claimStdout, isStdioInvocation} from '../../mcp/stdout-guard.js'

/**
 * For `mcp stdio`, stdout belongs to the protocol from the earliest moment a plugin can act: whatever other
 * plugins' hooks print after this runs goes to stderr.
 */
const hook: Hook.Init = async function (options) {
  if (isStdioInvocation(options.id, options.argv)) claimStdout()
}

export default hook
