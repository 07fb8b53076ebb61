import {describe, expect, it} from '@jest/globals'

import {assignToolNames, MAX_TOOL_NAME, sanitizeToolName} from '../../../src/tools/catalog/tool-names.js'

describe('sanitizeToolName', () => {
  it.each([
    ['apps:create', 'apps_create'],
    ['apps create', 'apps_create'],
    ['org:list:metadata-types', 'org_list_metadata-types'],
    ['plugins:install', 'plugins_install'],
    ['a..b::c', 'a_b_c'],
    [':leading:trailing:', 'leading_trailing'],
    ['ünïcode:cmd', 'n_code_cmd'],
    ['???', 'command'],
  ])('%s → %s', (id, name) => {
    expect(sanitizeToolName(id)).toBe(name)
  })
})

describe('assignToolNames', () => {
  it('keeps plain names when they are unique and short', () => {
    const names = assignToolNames(['apps:create', 'apps:destroy'])
    expect([...names.values()]).toEqual(['apps_create', 'apps_destroy'])
  })

  it('gives every colliding id a hashed suffix, the same one every time', () => {
    const first = assignToolNames(['apps:create', 'apps_create', 'other'])
    const second = assignToolNames(['other', 'apps_create', 'apps:create'])
    expect(first.get('apps:create')).toMatch(/^apps_create_[0-9a-f]{6}$/)
    expect(first.get('apps_create')).toMatch(/^apps_create_[0-9a-f]{6}$/)
    expect(first.get('apps:create')).not.toBe(first.get('apps_create'))
    expect(first.get('other')).toBe('other')
    expect(second).toEqual(new Map([...first].reverse()))
  })

  it('shortens long ids to at most the limit, keeping them unique', () => {
    const long = 'community:package:version:create:report:with:a:very:long:id'
    const names = assignToolNames([long, `${long}:too`])
    for (const name of names.values()) {
      expect(name.length).toBeLessThanOrEqual(MAX_TOOL_NAME)
      expect(name).toMatch(/^[A-Za-z0-9_-]+$/)
    }

    expect(new Set(names.values()).size).toBe(2)
  })

  it('steers clear of reserved (built-in) names', () => {
    const names = assignToolNames(['list:commands'], new Set(['list_commands']))
    expect(names.get('list:commands')).toMatch(/^list_commands_[0-9a-f]{6}$/)
  })
})
