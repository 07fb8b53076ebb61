// The floor for the stdio start-up benchmark: a bare MCP server on the same SDK (serveStdio, one trivial tool),
// with no CLI around it. The time from spawn to its initialize answer is what the SDK alone costs to start.
// Run: node bench/bare-stdio.mjs (then write an initialize request on stdin)
import {McpServer} from '@modelcontextprotocol/server'
import {serveStdio} from '@modelcontextprotocol/server/stdio'
import * as z from 'zod'

serveStdio(() => {
  const server = new McpServer({name: 'bare', version: '1.0.0'})
  server.registerTool('echo', {description: 'Echo the text back', inputSchema: z.object({text: z.string().optional()})}, async ({text}) => ({
    content: [{text: text ?? '', type: 'text'}],
  }))
  return server
})
