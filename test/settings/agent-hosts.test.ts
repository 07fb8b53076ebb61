import {describe, expect, it} from '@jest/globals'

import {AGENT_HOSTS, agentHostOf, CHARS_PER_TOKEN, resultBudget, resultMeta, UNKNOWN_HOST} from '../../src/settings/agent-hosts.js'

describe('resultBudget', () => {
  it('is the token budget in characters, within what the host keeps in front of its model', () => {
    // Claude Code keeps up to 500,000 characters when the tool says so in _meta (which the server then sends).
    expect(resultBudget(20_000, AGENT_HOSTS['claude-code'])).toBe(20_000 * CHARS_PER_TOKEN)
    expect(resultMeta(60_000, AGENT_HOSTS['claude-code'])).toEqual({'anthropic/maxResultSizeChars': 120_000})
    expect(resultMeta(400_000, AGENT_HOSTS['claude-code'])).toEqual({'anthropic/maxResultSizeChars': 500_000})
    // Codex cuts every output past 48,000 bytes (10,000 tokens of 4 bytes, and 20 % slack), Gemini CLI a text part at
    // 40,000 characters.
    expect(resultBudget(20_000, AGENT_HOSTS.codex)).toBe(43_200)
    expect(resultBudget(20_000, AGENT_HOSTS.gemini)).toBe(36_000)
    expect(resultMeta(36_000, AGENT_HOSTS.gemini)).toEqual({})
    expect(resultBudget(5000, AGENT_HOSTS.gemini)).toBe(15_000)
    // A host nobody names gets what every known host keeps.
    expect(resultBudget(20_000, UNKNOWN_HOST)).toBe(36_000)
    for (const host of Object.values(AGENT_HOSTS)) expect(resultBudget(1_000_000, UNKNOWN_HOST)).toBeLessThanOrEqual(host.resultLimitByMeta ?? host.resultLimit)
  })
})

describe('agentHostOf', () => {
  it.each([
    ['claude-code', undefined, 'claude-code'],
    ['codex-mcp-client', undefined, 'codex'],
    ['gemini-cli-mcp-client', undefined, 'gemini'],
    // What the set-up named serves a request whose clientInfo says nothing known (stateless 2025 HTTP sends none).
    [undefined, 'gemini', 'gemini'],
    ['some-script', 'codex', 'codex'],
    // The clientInfo a host sends comes first.
    ['claude-code', 'gemini', 'claude-code'],
    [undefined, undefined, 'unknown'],
    ['sh', undefined, 'unknown'],
  ] as const)('clientInfo %p, set-up %p → %p', (name, named, id) => {
    expect(agentHostOf(name, named).id).toBe(id)
  })
})
