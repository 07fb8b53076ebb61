import {describe, expect, it} from '@jest/globals'

import {mergeYamlServer} from '../../src/clients/yaml-edit.js'

// Goose's config.yaml: our extension added or updated, everything else kept (comments included).
describe('mergeYamlServer', () => {
  const entry = {args: ['/opt/tb/bin/run.js', 'mcp', 'stdio'], cmd: '/usr/bin/node', enabled: true, type: 'stdio'}

  it('adds the entry to an empty file and to one with other extensions, keeping their comments', () => {
    expect(mergeYamlServer('', ['extensions'], 'taskbox', entry)).toEqual({
      status: 'added',
      text: 'extensions:\n  taskbox:\n    args:\n      - /opt/tb/bin/run.js\n      - mcp\n      - stdio\n    cmd: /usr/bin/node\n    enabled: true\n    type: stdio\n',
    })
    const text = '# my goose\nGOOSE_PROVIDER: openai # the provider\nextensions:\n  developer:\n    bundled: true # built in\n    enabled: true\n    name: developer\n    type: builtin\n'
    const result = mergeYamlServer(text, ['extensions'], 'taskbox', entry)
    expect(result.status).toBe('added')
    expect(result.text.startsWith(text)).toBe(true)
    expect(result.text).toContain('# the provider')
    expect(result.text).toContain('bundled: true # built in')
  })

  it('updates only the keys it writes, and reports an entry already as it would be written as unchanged', () => {
    const text = 'extensions:\n  taskbox:\n    cmd: /old/node\n    args: [old]\n    enabled: false\n    timeout: 42 # mine\n    type: stdio\n'
    const result = mergeYamlServer(text, ['extensions'], 'taskbox', entry)
    expect(result.status).toBe('updated')
    expect(result.text).toContain('timeout: 42 # mine')
    expect(result.text).toContain('cmd: /usr/bin/node')
    expect(result.text).not.toContain('/old/node')
    expect(mergeYamlServer(result.text, ['extensions'], 'taskbox', entry)).toEqual({status: 'unchanged', text: result.text})
  })

  it.each([
    ['not YAML', 'extensions: [unclosed\n', 'UNPARSABLE_CLIENT_CONFIG'],
    ['a key twice', 'extensions:\n  a: {}\nextensions:\n  b: {}\n', 'UNPARSABLE_CLIENT_CONFIG'],
    ['a list at the top', '- one\n- two\n', 'UNSAFE_CLIENT_CONFIG'],
    ['extensions that are not a mapping', 'extensions: [a, b]\n', 'UNSAFE_CLIENT_CONFIG'],
    ['our entry that is not a mapping', 'extensions:\n  taskbox: yes\n', 'UNSAFE_CLIENT_CONFIG'],
  ])('refuses %s, leaving it to the person', (_what, text, code) => {
    expect(() => mergeYamlServer(text, ['extensions'], 'taskbox', entry)).toThrow(expect.objectContaining({code}))
  })
})
