import {describe, expect, it} from '@jest/globals'

import {packageFacts, personOf, repositoryUrl} from '../../src/pack/package-facts.js'

describe('package facts', () => {
  it('reads an author as npm writes it, or as an object', () => {
    expect(personOf('Jane Doe <jane@acme.io> (https://acme.io)')).toEqual({email: 'jane@acme.io', name: 'Jane Doe', url: 'https://acme.io'})
    expect(personOf('Salesforce')).toEqual({name: 'Salesforce'})
    expect(personOf({email: 'x@y.z', name: 'Heroku'})).toEqual({email: 'x@y.z', name: 'Heroku'})
    expect(personOf({email: 'x@y.z'})).toBeUndefined()
    expect(personOf('')).toBeUndefined()
  })

  it('makes a browsable URL of every way a repository is written', () => {
    expect(repositoryUrl('git+https://github.com/heroku/cli.git')).toBe('https://github.com/heroku/cli')
    expect(repositoryUrl({type: 'git', url: 'git+ssh://git@github.com/salesforcecli/cli.git'})).toBe('https://github.com/salesforcecli/cli')
    expect(repositoryUrl('github:acme/mycli')).toBe('https://github.com/acme/mycli')
    expect(repositoryUrl('acme/mycli')).toBe('https://github.com/acme/mycli')
    expect(repositoryUrl('gitlab:acme/mycli')).toBe('https://gitlab.com/acme/mycli')
    expect(repositoryUrl('git@github.com:acme/mycli.git')).toBe('https://github.com/acme/mycli')
    expect(repositoryUrl('file:../x')).toBeUndefined()
    expect(repositoryUrl(42)).toBeUndefined()
  })

  it('reads platforms from os, and none when every one is allowed', () => {
    const facts = (pjson: Record<string, unknown>) => packageFacts({pjson: {name: 'x', ...pjson}, version: '1.0.0'} as never)
    expect(facts({}).platforms).toBeUndefined()
    expect(facts({os: ['darwin', 'linux']}).platforms).toEqual(['darwin', 'linux'])
    expect(facts({os: ['!win32']}).platforms).toEqual(['darwin', 'linux'])
    expect(facts({engines: {node: '>=18'}, mcpName: 'io.github.acme/x', private: true})).toMatchObject({mcpName: 'io.github.acme/x', node: '>=18', private: true})
  })
})
