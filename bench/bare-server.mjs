// The baseline for the HTTP benchmark: a bare createMcpHandler server with one trivial tool, on the same
// node:http + toNodeHandler mount as `mcp serve`. Prints its URL on stdout. Run: node bench/bare-server.mjs
import {toNodeHandler} from '@modelcontextprotocol/node'
import {createMcpHandler, McpServer} from '@modelcontextprotocol/server'
import {createServer} from 'node:http'
import * as z from 'zod'

const handler = createMcpHandler(() => {
  const server = new McpServer({name: 'bare', version: '1.0.0'})
  server.registerTool('echo', {description: 'Echo the text back', inputSchema: z.object({text: z.string().optional()})}, async ({text}) => ({
    content: [{text: text ?? '', type: 'text'}],
  }))
  return server
})
const node = toNodeHandler(handler)
const http = createServer((req, res) => void node(req, res))
http.listen(0, '127.0.0.1', () => console.log(`http://127.0.0.1:${http.address().port}/mcp`))
process.on('SIGTERM', () => http.close(() => process.exit(0)))
