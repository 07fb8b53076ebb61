import {describe, expect, it} from '@jest/globals'

import {isWithin} from '../../src/host/paths.js'

describe('isWithin', () => {
  it.each([
    ['/srv/app', '/srv/app', true],
    ['/srv/app/src', '/srv/app', true],
    ['/srv/app/..x', '/srv/app', true],
    ['/srv/application', '/srv/app', false],
    ['/srv', '/srv/app', false],
    ['/other', '/srv/app', false],
    ['/', '/', true],
  ])('%s within %s: %s', (path, dir, within) => {
    expect(isWithin(path, dir)).toBe(within)
  })
})
