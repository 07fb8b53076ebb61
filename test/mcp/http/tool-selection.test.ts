import type {McpRequestContext} from '@modelcontextprotocol/server'

import {describe, expect, it} from '@jest/globals'

import {toolsFor} from '../../../src/mcp/http/tool-selection.js'

const listed = new Set(['cli_info', 'tasks_add'])

function modern(headers: Record<string, string>): McpRequestContext {
  return {era: 'modern', requestInfo: new Request('http://127.0.0.1/mcp', {headers, method: 'POST'})}
}

const legacy: McpRequestContext = {era: 'legacy', requestInfo: new Request('http://127.0.0.1/mcp', {method: 'POST'})}

describe('toolsFor: the tools a server built for one HTTP request registers', () => {
  it.each([
    ['a modern tools/call of a listed tool', modern({'mcp-method': 'tools/call', 'mcp-name': 'tasks_add'}), undefined, {name: 'tasks_add'}],
    ['a modern tools/call of a name not listed', modern({'mcp-method': 'tools/call', 'mcp-name': 'nope'}), undefined, 'builtins'],
    ['a modern tools/list', modern({'mcp-method': 'tools/list'}), undefined, 'listing'],
    ['a modern resources/list', modern({'mcp-method': 'resources/list'}), undefined, 'none'],
    ['a legacy tools/list', legacy, {id: 1, jsonrpc: '2.0', method: 'tools/list'}, 'listing'],
    ['a modern request without Mcp-Method', modern({}), undefined, 'all'],
    ['a legacy tools/call', legacy, {id: 1, jsonrpc: '2.0', method: 'tools/call', params: {name: 'cli_info'}}, {name: 'cli_info'}],
    ['a legacy tools/call without a name', legacy, {id: 1, jsonrpc: '2.0', method: 'tools/call'}, 'all'],
    ['a legacy initialize', legacy, {id: 1, jsonrpc: '2.0', method: 'initialize', params: {}}, 'none'],
    ['a legacy batch', legacy, [{id: 1, jsonrpc: '2.0', method: 'tools/call', params: {name: 'cli_info'}}], 'all'],
    ['a legacy request without a message', legacy, undefined, 'all'],
    ['modern headers on a legacy request are not read', {...modern({'mcp-method': 'tools/list'}), era: 'legacy'} as McpRequestContext, undefined, 'all'],
  ] as const)('%s', (_, context, message, expected) => {
    expect(toolsFor(context, message, listed)).toEqual(expected)
  })
})
