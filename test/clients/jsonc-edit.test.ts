import {describe, expect, it} from '@jest/globals'

import {mergeJsonServer} from '../../src/clients/jsonc-edit.js'
import {entry, json, launch} from '../helpers/client-configs.js'

describe('mergeJsonServer', () => {
  const other = {command: 'other', args: ['serve']}
  it.each([
    {expected: {mcpServers: {taskbox: entry}}, name: 'an empty file', status: 'added', text: ''},
    {expected: {mcpServers: {other, taskbox: entry}}, name: 'a file with another server', status: 'added', text: json({mcpServers: {other}})},
    {expected: {mcpServers: {taskbox: entry}, theme: 'dark'}, name: 'a file with other settings', status: 'added', text: json({theme: 'dark'})},
    {
      expected: {mcpServers: {other, taskbox: {command: launch.command, args: launch.args, env: {TOKEN: 'x'}}}},
      name: 'our own older entry (its other keys stay)',
      status: 'updated',
      text: json({mcpServers: {other, taskbox: {command: 'old', args: [], env: {TOKEN: 'x'}}}}),
    },
  ])('$name → $status', ({expected, status, text}) => {
    const result = mergeJsonServer(text, ['mcpServers'], 'taskbox', entry)
    expect(result.status).toBe(status)
    expect(JSON.parse(result.text)).toEqual(expected)
  })

  it('leaves a file that already has the entry exactly as it is', () => {
    const text = json({mcpServers: {taskbox: entry}}, 4)
    expect(mergeJsonServer(text, ['mcpServers'], 'taskbox', entry)).toEqual({status: 'unchanged', text})
  })

  it('writes VS Code servers under "servers", next to its inputs', () => {
    const result = mergeJsonServer(json({inputs: [{id: 'key'}]}), ['servers'], 'taskbox', {type: 'stdio', ...entry})
    expect(JSON.parse(result.text)).toEqual({inputs: [{id: 'key'}], servers: {taskbox: {type: 'stdio', ...entry}}})
  })

  it.each([['    '], ['\t']])('keeps the file\'s indentation (%j)', (indent) => {
    const result = mergeJsonServer(json({mcpServers: {}}, indent), ['mcpServers'], 'taskbox', entry)
    expect(result.text).toBe(json({mcpServers: {taskbox: entry}}, indent))
  })

  it('edits JSONC in place: comments, formatting and every untouched value stay byte for byte', () => {
    const text = [
      '{',
      '  // my servers (VS Code and Cursor read comments)',
      '  "budget": 12345678901234567890,',
      '  "ratio": 1e2,',
      '  "dup": 1, "dup": 2,',
      '  "mcpServers": {',
      '    /* the other one */ "other": {"command": "other", "args": ["serve"]},',
      '  },',
      '}',
      '',
    ].join('\n')
    const result = mergeJsonServer(text, ['mcpServers'], 'taskbox', entry)
    expect(result.status).toBe('added')
    const kept = ['// my servers (VS Code and Cursor read comments)', '"budget": 12345678901234567890,', '"ratio": 1e2,', '"dup": 1, "dup": 2,', '/* the other one */ "other": {"command": "other", "args": ["serve"]}']
    for (const line of kept) expect(result.text).toContain(line)
    expect(result.text.startsWith('{\n  // my servers')).toBe(true)
    expect(result.text).toContain('"taskbox": {')

    // Updating our entry touches only the keys this command sets.
    const updated = mergeJsonServer(result.text.replace('"/usr/bin/node"', '"/old/node"').replace('"taskbox": {', '"taskbox": {\n      "env": {"N": 12345678901234567890},'), ['mcpServers'], 'taskbox', entry)
    expect(updated.status).toBe('updated')
    expect(updated.text).toContain('"env": {"N": 12345678901234567890}')
    expect(updated.text).toContain('"/usr/bin/node"')
    for (const line of kept) expect(updated.text).toContain(line)
  })

  it('accepts a trailing comma, and keeps CRLF line ends', () => {
    expect(mergeJsonServer('{"mcpServers": {},}', ['mcpServers'], 'taskbox', entry).status).toBe('added')
    expect(mergeJsonServer('{\r\n  "mcpServers": {}\r\n}\r\n', ['mcpServers'], 'taskbox', entry).text).not.toMatch(/[^\r]\n/)
  })

  it.each([
    {code: 'UNPARSABLE_CLIENT_CONFIG', name: 'text that is not JSON', text: '{"mcpServers": '},
    {code: 'UNPARSABLE_CLIENT_CONFIG', name: 'an array', text: '[]'},
    {code: 'UNPARSABLE_CLIENT_CONFIG', name: 'a servers key that is not an object', text: json({mcpServers: []})},
    {code: 'UNPARSABLE_CLIENT_CONFIG', name: 'an entry of our name that is not an object', text: json({mcpServers: {taskbox: 'x'}})},
    {code: 'UNSAFE_CLIENT_CONFIG', name: 'the servers key twice', text: '{"mcpServers": {}, "mcpServers": {}}'},
    {code: 'UNSAFE_CLIENT_CONFIG', name: 'our entry twice', text: '{"mcpServers": {"taskbox": {}, "taskbox": {}}}'},
    {code: 'UNSAFE_CLIENT_CONFIG', name: 'a key of ours twice in our entry', text: '{"mcpServers": {"taskbox": {"command": "a", "command": "b"}}}'},
  ])('refuses $name ($code)', ({code, text}) => {
    expect(() => mergeJsonServer(text, ['mcpServers'], 'taskbox', entry)).toThrow(expect.objectContaining({code}))
  })
})
