import {describe, expect, it} from '@jest/globals'

import {checkPluginName, PACK_HOSTS, pluginNameOf, TOOL_PREFIX, toolNameCap} from '../../src/pack/names.js'
import {MAX_TOOL_NAME, MIN_TOOL_NAME} from '../../src/tools/catalog/tool-names.js'

describe('plugin names', () => {
  it('turns a bin into a name every host takes', () => {
    expect(pluginNameOf('heroku')).toBe('heroku')
    expect(pluginNameOf('zapier-platform')).toBe('zapier-platform')
    expect(pluginNameOf('@acme/My_CLI')).toBe('acme-my-cli')
    expect(pluginNameOf('__')).toBe('cli')
    for (const bin of ['sf', '@acme/My_CLI', 'a.b.c', 'x'.repeat(80)]) expect(checkPluginName(pluginNameOf(bin))).toBeUndefined()
  })

  it('refuses what Gemini CLI or Cursor would refuse', () => {
    for (const bad of ['my_cli', 'My-Cli', 'a.b', '-a', 'a-', 'a--b', '', 'x'.repeat(49)]) expect([bad, checkPluginName(bad)]).toEqual([bad, expect.stringContaining('cannot name a plugin')])
  })
})

describe('tool-name caps', () => {
  it("leaves each host's 64 characters for the prefix and the longest name", () => {
    for (const host of PACK_HOSTS) {
      for (const name of ['sf', 'heroku', 'zapier-platform']) {
        const cap = toolNameCap(host, name, name)
        if (cap === undefined) continue
        expect(TOOL_PREFIX[host](name, name).length + cap).toBeLessThanOrEqual(64)
        expect(cap).toBeLessThanOrEqual(MAX_TOOL_NAME)
      }
    }
  })

  it("counts Claude Code's plugin prefix, where the characters no host takes are underscores", () => {
    expect(TOOL_PREFIX['claude-code']('heroku', 'heroku')).toBe('mcp__plugin_heroku_heroku__')
    expect(toolNameCap('claude-code', 'heroku', 'heroku')).toBe(64 - 27)
    expect(TOOL_PREFIX['claude-code']('a.b', 'a.b')).toBe('mcp__plugin_a_b_a_b__')
    // Codex: mcp__sf__ leaves more than the server's own cap.
    expect(toolNameCap('codex', 'sf', 'sf')).toBe(MAX_TOOL_NAME)
  })

  it('gives none when the prefix leaves less than the shortest cap', () => {
    const long = 'a'.repeat(13)
    expect(64 - TOOL_PREFIX['claude-code'](long, long).length).toBeLessThan(MIN_TOOL_NAME)
    expect(toolNameCap('claude-code', long, long)).toBeUndefined()
    // Codex's mcp__<13 characters>__ leaves 44.
    expect(toolNameCap('codex', long, long)).toBe(44)
  })
})
