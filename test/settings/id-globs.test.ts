import {describe, expect, it} from '@jest/globals'

import {idPattern} from '../../src/settings/id-globs.js'

describe('idPattern', () => {
  it.each<[string, string[], string[]]>([
    ['tasks:add', ['tasks:add'], ['tasks', 'tasks:add:x', 'tasks:adder', 'xtasks:add']],
    ['tasks:*', ['tasks:add', 'tasks:list'], ['tasks', 'tasks:add:x', 'other:add']],
    ['tasks:**', ['tasks:add', 'tasks:add:x', 'tasks:a:b:c'], ['tasks', 'other:add', 'taskss:add']],
    ['*', ['tasks', 'version'], ['tasks:add']],
    ['**', ['tasks', 'tasks:add:x'], []],
    ['*:list', ['tasks:list', 'apps:list'], ['list', 'a:b:list', 'tasks:listing']],
    ['**:list', ['tasks:list', 'a:b:list'], ['list', 'a:b:lister']],
    ['tasks:*:show', ['tasks:one:show'], ['tasks:show', 'tasks:a:b:show']],
    ['t*s:add', ['tasks:add', 'ts:add'], ['t:x:s:add']],
    // spaces count as `:`
    ['tasks add', ['tasks:add'], ['tasks add', 'tasksadd']],
    ['tasks *', ['tasks:add'], ['tasks:add:x']],
    ['  tasks:add  ', ['tasks:add'], []],
    // regex metacharacters are literal
    ['a.b', ['a.b'], ['axb']],
    ['a+b', ['a+b'], ['aab', 'ab']],
    ['x(y)', ['x(y)'], ['xy']],
    ['[ab]', ['[ab]'], ['a']],
    ['a|b', ['a|b'], ['a', 'b']],
    ['^$?{1}\\', ['^$?{1}\\'], ['', '{1}']],
  ])('%p', (glob, matches, misses) => {
    const pattern = idPattern(glob)
    for (const id of matches) expect([id, pattern.test(id)]).toEqual([id, true])
    for (const id of misses) expect([id, pattern.test(id)]).toEqual([id, false])
  })
})
