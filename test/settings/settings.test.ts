import {describe, expect, it} from '@jest/globals'
import {availableParallelism} from 'node:os'

import type {AuthorConfig} from '../../src/settings/author-config.js'

import {
  DEFAULT_FOREGROUND_SECONDS,
  DEFAULT_MAX_OUTPUT_BYTES,
  DEFAULT_MAX_QUEUE,
  DEFAULT_MAX_RESULT_TOKENS,
  DEFAULT_TIMEOUT_SECONDS,
  resolveSettings,
} from '../../src/settings/settings.js'

describe('resolveSettings', () => {
  const author: AuthorConfig = {maxOutputBytes: 4096, timeout: 10}

  it.each<[string, AuthorConfig, {cwd?: string; 'job-timeout'?: number; 'max-output'?: number}, number, number]>([
    ['defaults', {}, {}, DEFAULT_TIMEOUT_SECONDS * 1000, DEFAULT_MAX_OUTPUT_BYTES],
    ['author over defaults', author, {}, 10_000, 4096],
    ['flags over author', author, {'job-timeout': 3, 'max-output': 2048}, 3000, 2048],
    ['flags over defaults', {}, {'job-timeout': 0.5, 'max-output': 2048}, 500, 2048],
    ['one flag, one author value', author, {'job-timeout': 2}, 2000, 4096],
  ])('%s', (_, config, flags, timeoutMs, maxOutputBytes) => {
    const settings = resolveSettings(config, flags)
    expect(settings).toEqual({
      audit: true,
      author: config,
      background: true,
      confirmDestructive: false,
      defaultCwd: flags.cwd,
      foregroundMs: DEFAULT_FOREGROUND_SECONDS * 1000,
      maxConcurrency: availableParallelism(),
      maxOutputBytes,
      maxQueue: DEFAULT_MAX_QUEUE,
      maxResultTokens: DEFAULT_MAX_RESULT_TOKENS,
      projection: {exclude: [], exposure: 'auto', maxBytes: 32 * 1024, maxToolName: 45, maxTools: 40, profile: undefined, readOnly: false, tools: undefined},
      timeoutMs,
      trustHostApproval: false,
      workers: 1,
    })
  })

  it('trusts the host approval only when the user or the author says so', () => {
    expect(resolveSettings({}, {}).trustHostApproval).toBe(false)
    expect(resolveSettings({trustHostApproval: true}, {}).trustHostApproval).toBe(true)
    expect(resolveSettings({trustHostApproval: true}, {'trust-host-approval': false}).trustHostApproval).toBe(false)
  })

  it('takes concurrency and queue limits from the flags', () => {
    expect(resolveSettings({}, {'max-concurrency': 3, 'max-queue': 0})).toMatchObject({maxConcurrency: 3, maxQueue: 0})
  })

  it('passes the cwd flag through', () => {
    expect(resolveSettings({}, {cwd: '/srv/project'}).defaultCwd).toBe('/srv/project')
  })

  it('takes the foreground budget and the result budget from the flags, then the author', () => {
    expect(resolveSettings({foreground: 20, maxResultTokens: 5000}, {})).toMatchObject({foregroundMs: 20_000, maxResultTokens: 5000})
    expect(resolveSettings({foreground: 20, maxResultTokens: 5000}, {foreground: 5, 'max-result-tokens': 8000})).toMatchObject({foregroundMs: 5000, maxResultTokens: 8000})
  })

  it('lets mcp call wait for its command instead of starting a job', () => {
    expect(resolveSettings({}, {}, false).background).toBe(false)
  })

  it('has the documented defaults', () => {
    expect(DEFAULT_FOREGROUND_SECONDS).toBe(45)
    expect(DEFAULT_TIMEOUT_SECONDS).toBe(30 * 60)
    expect(DEFAULT_MAX_OUTPUT_BYTES).toBe(4 * 1024 * 1024)
    expect(DEFAULT_MAX_RESULT_TOKENS).toBe(20_000)
  })
})
