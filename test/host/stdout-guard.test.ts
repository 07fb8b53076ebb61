import {describe, expect, it} from '@jest/globals'

import {claimsStdout} from '../../src/host/stdout-guard.cjs'

describe('claimsStdout', () => {
  it.each([
    ['mcp:stdio', [], true],
    ['mcp', ['stdio', '--cwd', '/x'], true],
    ['mcp:tools', ['--json'], true],
    ['mcp', ['tools', '--json'], true],
    ['mcp:call', ['cli_info', '--json'], true],
    ['mcp:config', ['--client', 'cursor', '--json'], true],
    ['mcp:tools', [], false],
    ['mcp:stdio', ['--help'], false],
    ['mcp', ['stdio', '-h'], false],
    ['mcp:tools', ['--json', '--help'], false],
    ['mcp:serve', [], false],
    ['mcp', [], false],
    ['apps:list', ['--json'], false],
    [undefined, [], false],
  ] as const)('%s %p → %s', (id, argv, claims) => {
    expect(claimsStdout(id, argv)).toBe(claims)
  })
})
