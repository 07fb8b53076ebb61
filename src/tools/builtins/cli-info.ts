import type {CallToolResult} from '@modelcontextprotocol/server'
import * as z from 'zod'

import {hostCoreVersion} from '../../host/core-version.js'
import {type BuiltinScope, type BuiltinTool, builtinTool, jsonResult} from './builtin-tool.js'

/** cli_info: the CLI this server runs, its versions and plugins, and the protocol revisions served. */
export function cliInfoTool({config, listingOf, projection, revisions}: BuiltinScope): BuiltinTool {
  const infos = new Map<string, CallToolResult>()
  return builtinTool({
    description: `The ${config.bin} CLI this server runs: version, Node and @oclif/core versions, plugins, MCP revisions served.`,
    handler(_input, context) {
      // Nothing in it changes while the server runs: worked out once per host (HTTP asks on a fresh instance each time).
      const commands = projection.executable.size
      const key = context.host?.id ?? 'unknown'
      const listed = listingOf(context.host).commands.size
      const info = infos.get(key) ?? jsonResult(`${config.bin} ${config.version} (${commands} commands available, ${listed} listed as tools)`, {
        bin: config.bin,
        commands,
        name: config.name,
        node: process.version,
        oclifCore: hostCoreVersion(config) ?? null,
        platform: `${config.platform}-${config.arch}`,
        plugins: config.getPluginsList().map((p) => ({name: p.name, type: p.type, version: p.version})),
        protocolRevisions: revisions,
        version: config.version,
      })
      infos.set(key, info)
      return {...info, content: [...info.content]}
    },
    name: 'cli_info',
    schema: z.strictObject({}),
    title: `About ${config.bin}`,
  })
}
