import * as z from 'zod'

import {commandDetails} from '../catalog/command-reference.js'
import {errorResult} from '../execution/tool-result.js'
import {findExecutable, unknownCommandMessage} from '../exposure/projection.js'
import {type BuiltinScope, type BuiltinTool, builtinTool, jsonResult} from './builtin-tool.js'

/** describe_command: everything about one command inside the boundary, with the definitionHash run_command needs. */
export function describeCommandTool({config, listingOf, projection}: BuiltinScope): BuiltinTool {
  return builtinTool({
    description: `One ${config.bin} command in full: usage, flags, args, examples, annotations, input schema, and the definitionHash run_command needs.`,
    handler(input, context) {
      const name = String(input.command)
      const tool = findExecutable(projection, name)
      if (!tool) return errorResult(unknownCommandMessage(projection, name))
      const listed = listingOf(context.host).commands
      // Only the flags its tool takes: the server passes --json itself, and a withheld or omitted flag cannot be given.
      const takes = new Set(tool.input.params.flatMap((param) => (param.kind === 'flag' ? [param.name] : [])))
      const details = commandDetails(tool, config, listed)
      const data = {...details, flags: details.flags.filter((flag) => takes.has(flag.name))}
      const how = listed.has(tool) ? `call the tool ${tool.name}` : 'run it with run_command, passing this definitionHash'
      return jsonResult(`${config.bin} ${tool.displayId}: ${how}`, data)
    },
    name: 'describe_command',
    schema: z.strictObject({
      command: z.string().min(1).describe('Command id ("apps create", "apps:create") or tool name.'),
    }),
    title: 'Describe a command',
  })
}
