import type {CommandTool} from './registry.js'

import {canonicalJson, shortHash} from './fingerprint.js'
import {toJsonSchema} from './input-schema.js'

/**
 * A stable hash of everything that shapes a call to the command: its id, input schema, annotations, whether it
 * answers in JSON, and its timeout. A client that described a command passes it back to run_command, which refuses
 * to run arguments shaped for a definition that has since changed.
 */
export function definitionHash(tool: CommandTool): string {
  let hash = hashes.get(tool)
  if (!hash) {
    const shape = {annotations: tool.annotations, id: tool.id, input: toJsonSchema(tool.input.schema), json: tool.json, timeoutMs: tool.timeoutMs}
    hash = `sha256:${shortHash(canonicalJson(shape), 32)}`
    hashes.set(tool, hash)
  }

  return hash
}

const hashes = new WeakMap<CommandTool, string>()
