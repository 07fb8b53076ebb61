#!/usr/bin/env node
// Starts `taskbox mcp stdio` the way an MCP host does and drives it with the official client: lists the tools, then
// runs a few commands in a fresh directory, printing what the model would see.
import {Client} from '@modelcontextprotocol/client'
import {StdioClientTransport} from '@modelcontextprotocol/client/stdio'
import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

const bin = new URL('bin/run.js', import.meta.url).pathname
const project = mkdtempSync(join(tmpdir(), 'taskbox-demo-'))
const transport = new StdioClientTransport({args: [bin, 'mcp', 'stdio'], command: process.execPath, stderr: 'inherit'})
const client = new Client({name: 'taskbox-demo', version: '1.0.0'})

try {
  await client.connect(transport)
  const {tools} = await client.listTools()
  console.log(`Connected (protocol era: ${client.getProtocolEra()}). ${tools.length} tools:`)
  for (const tool of tools) {
    const kind = tool.annotations?.readOnlyHint ? 'read-only' : tool.annotations?.destructiveHint ? 'destructive' : 'mutating'
    console.log(`  ${tool.name.padEnd(18)} ${kind.padEnd(12)} ${tool.description.split('\n')[0]}`)
  }

  const calls = [
    ['init', {cwd: project}],
    ['tasks_add', {cwd: project, priority: 1, tag: ['docs'], title: 'Write the release notes'}],
    ['tasks_add', {cwd: project, title: 'Water the plants'}],
    ['tasks_list', {cwd: project}],
    ['sync', {cwd: project}],
  ]
  for (const [name, args] of calls) {
    const result = await client.callTool({arguments: args, name})
    console.log(`\n── ${name} ${JSON.stringify(args)}${result.isError ? '  (isError)' : ''}`)
    console.log(result.content[0].text)
  }
} finally {
  await client.close()
  rmSync(project, {force: true, recursive: true})
}
