import {describe, expect, it} from '@jest/globals'

import {resolveStateUrl, shownUrl} from '../../src/settings/state-url.js'

const VAR = 'TASKBOX_MCP_STATE'

describe('resolveStateUrl', () => {
  it('takes the flag, else the variable, else nothing', () => {
    expect(resolveStateUrl('redis://a:6379', 'redis://b:6379', VAR)).toEqual({url: 'redis://a:6379'})
    expect(resolveStateUrl(undefined, 'redis://b:6379/2', VAR)).toEqual({url: 'redis://b:6379/2'})
    expect(resolveStateUrl(undefined, '', VAR)).toEqual({})
    expect(resolveStateUrl(undefined, undefined, VAR)).toEqual({})
  })

  it('refuses a password on the command line, and takes it from the variable', () => {
    const refused = resolveStateUrl('redis://user:s3cret@a:6379', undefined, VAR)
    expect(refused).toEqual({error: expect.stringContaining(`Put the whole URL in ${VAR} instead`)})
    expect(JSON.stringify(refused)).not.toContain('s3cret')
    expect(resolveStateUrl(undefined, 'rediss://user:s3cret@a:6380', VAR)).toEqual({url: 'rediss://user:s3cret@a:6380'})
  })

  it('refuses what is not a Redis URL, without echoing a password', () => {
    expect(resolveStateUrl('localhost:6379', undefined, VAR)).toEqual({error: expect.stringContaining('localhost: is not a state store')})
    expect(resolveStateUrl('not a url', undefined, VAR)).toEqual({error: expect.stringMatching(/is not a URL: give redis:\/\/host:port/)})
    expect(JSON.stringify(resolveStateUrl(undefined, 'http://u:s3cret@a', VAR))).not.toContain('s3cret')
  })
})

describe('shownUrl', () => {
  it('masks the password', () => {
    expect(shownUrl('redis://user:s3cret@a:6379/0')).toBe('redis://user:***@a:6379/0')
    expect(shownUrl('redis://a:6379')).toBe('redis://a:6379')
  })
})
