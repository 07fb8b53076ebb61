import {type BuiltinFactory, type BuiltinScope, type BuiltinTool} from './builtin-tool.js'
import {cliInfoTool} from './cli-info.js'
import {describeCapabilitiesTool} from './describe-capabilities.js'
import {describeCommandTool} from './describe-command.js'
import {readDocTool, searchDocsTool} from './docs.js'
import {findCommandsTool} from './find-commands.js'
import {cancelJobTool, jobStatusTool} from './job-tools.js'
import {listCommandsTool} from './list-commands.js'
import {readOutputTool} from './read-output.js'
import {runCommandTool} from './run-command.js'

// The server's own tools, in the order tools/list carries them (before the commands).

export const BUILTIN_FACTORIES: readonly BuiltinFactory[] = [
  describeCapabilitiesTool,
  cliInfoTool,
  listCommandsTool,
  describeCommandTool,
  findCommandsTool,
  runCommandTool,
  jobStatusTool,
  cancelJobTool,
  readOutputTool,
  searchDocsTool,
  readDocTool,
]

/** Every built-in tool, made from one scope. */
export function builtinTools(scope: BuiltinScope): BuiltinTool[] {
  return BUILTIN_FACTORIES.map((make) => make(scope))
}
