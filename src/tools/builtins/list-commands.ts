import * as z from 'zod'

import {type BuiltinScope, type BuiltinTool, builtinTool, commandEntry, jsonResult} from './builtin-tool.js'

/** list_commands: every command inside the boundary, by topic or by words of its id and summary. */
export function listCommandsTool({config, listingOf, projection}: BuiltinScope): BuiltinTool {
  const commands = [...projection.executable.values()]
  return builtinTool({
    description: `List the ${config.bin} commands: id, tool name, summary, annotations. Filter by topic or words.`,
    handler(input, context) {
      const listed = listingOf(context.host).commands
      const topic = typeof input.topic === 'string' ? input.topic.trim().replaceAll(/\s+/g, ':') : undefined
      const words = typeof input.query === 'string' ? input.query.toLowerCase().split(/\s+/).filter(Boolean) : []
      const found = commands
        .filter((t) => !topic || t.id === topic || t.id.startsWith(`${topic}:`))
        .filter((t) => words.every((w) => `${t.id} ${t.summary}`.toLowerCase().includes(w)))
        .map((t) => ({...commandEntry(t, listed), topic: t.topic.replaceAll(':', ' ')}))
      return jsonResult(`${found.length} of ${commands.length} commands (listed: false means run it with run_command)`, {commands: found})
    },
    name: 'list_commands',
    schema: z.strictObject({
      query: z.string().describe('Words all in the id or summary.').optional(),
      topic: z.string().describe('A topic, e.g. "apps".').optional(),
    }),
    title: 'List commands',
  })
}
