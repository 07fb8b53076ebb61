import {describe, expect, it} from '@jest/globals'

import {reaches, stem, terms} from '../../../src/tools/exposure/terms.js'

describe('normalising words', () => {
  it.each([
    ['create', 'creat'],
    ['creates', 'creat'],
    ['created', 'creat'],
    ['creating', 'creat'],
    ['apps', 'app'],
    ['logs', 'log'],
    ['tagged', 'tag'],
    ['added', 'add'],
    ['installed', 'install'],
    ['entries', 'entry'],
    ['processes', 'process'],
    ['status', 'status'],
    ['access', 'access'],
    ['string', 'string'],
    ['weekly', 'week'],
  ])('stem(%s) is %s', (word, expected) => {
    expect(stem(word)).toBe(expected)
  })

  it.each([
    ['Show the logs of my app', ['show', 'log', 'app']],
    ['delete an add-on', ['delet', 'addon']],
    ['log in to <%= config.bin %>', ['login']],
    ['scale web to 3', ['scal', 'web']],
    ['apps:create --region=eu', ['app', 'creat', 'region', 'eu']],
  ])('terms(%j) is %j', (text, expected) => {
    expect(terms(text)).toEqual(expected)
  })
})

describe('terms of other scripts and reaching a term', () => {
  it.each([
    ['Créer une application', ['créer', 'une', 'application']],
    ['デプロイ 手順', ['デプロイ', '手順']],
  ])('terms(%j) is %j', (text, expected) => {
    expect(terms(text)).toEqual(expected)
  })

  it.each([
    ['deploy', 'deployment', true],
    ['deploy', 'deploy', true],
    ['app', 'application', false],
    ['widget', 'gadget', false],
  ])('%s reaches %s: %s', (term, token, expected) => {
    expect(reaches(term, token)).toBe(expected)
  })
})

describe('two-word spellings of one idea', () => {
  it('"logged in" asks who one is, not for a login or the logs; "get rid of" asks to remove', () => {
    expect(terms('which account am I logged in as')).toEqual(['account', 'whoami'])
    expect(terms('which project am I logged in to')).toEqual(['project', 'whoami'])
    expect(terms('get rid of an old integration')).toEqual(['remov', 'old', 'integration'])
    // A login to make stays one.
    expect(terms('log in to my account')).toEqual(['login', 'account'])
  })
})
