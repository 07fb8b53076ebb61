import {describe, expect, it} from '@jest/globals'

import type {PackPlan} from '../../src/pack/pack-plan.js'

import {publishCheck, registryName, SERVER_SCHEMA, serverJson} from '../../src/pack/server-json.js'

/** What server.json reads of a pack: the facts of package.json, the name, the launch arguments, the credentials. */
function planOf(facts: Partial<PackPlan['facts']> = {}, args = ['mcp', 'stdio']): PackPlan {
  return {
    args,
    base: {config: {bin: 'mycli'}},
    credentials: [{description: 'The API key.', name: 'MYCLI_API_KEY', readBy: ['apps --api-key']}],
    facts: {description: 'Manage apps from the terminal', keywords: [], name: '@acme/mycli', private: false, repository: 'https://github.com/acme/mycli', version: '2.3.4', ...facts},
    hosts: [],
    name: 'mycli',
  } as unknown as PackPlan
}

describe('server.json', () => {
  it("describes the npm package started with the CLI's mcp stdio, credentials as secrets", () => {
    const json = serverJson(planOf({mcpName: 'io.github.acme/mycli'}, ['mcp', 'stdio', '--read-only', '--profile', 'ops', '--exclude=apps:*']))
    expect(json).toMatchObject({
      $schema: SERVER_SCHEMA,
      description: 'Manage apps from the terminal',
      name: 'io.github.acme/mycli',
      repository: {source: 'github', url: 'https://github.com/acme/mycli'},
      version: '2.3.4',
    })
    expect(json.packages).toEqual([
      {
        environmentVariables: [{description: 'The API key.', format: 'string', isRequired: false, isSecret: true, name: 'MYCLI_API_KEY'}],
        identifier: '@acme/mycli',
        packageArguments: [
          {type: 'positional', value: 'mcp'},
          {type: 'positional', value: 'stdio'},
          {name: '--read-only', type: 'named'},
          {name: '--profile', type: 'named', value: 'ops'},
          {name: '--exclude', type: 'named', value: 'apps:*'},
        ],
        registryBaseUrl: 'https://registry.npmjs.org',
        registryType: 'npm',
        runtimeHint: 'npx',
        transport: {type: 'stdio'},
        version: '2.3.4',
      },
    ])
  })

  it('names the server after the GitHub owner when the package claims no name, and says to claim it', () => {
    const plan = planOf()
    expect(registryName(plan)).toBe('io.github.acme/mycli')
    const check = publishCheck(plan, serverJson(plan))
    expect(check.missing).toEqual([expect.stringContaining('"mcpName": "io.github.acme/mycli"')])
    expect(check.notes).toEqual([expect.stringContaining('GitHub user or organisation "acme"')])
  })

  it('has nothing missing for a public package that claims its name', () => {
    const plan = planOf({mcpName: 'com.acme/mycli'})
    const check = publishCheck(plan, serverJson(plan, 'https://mcp.acme.com/mcp'))
    expect(check.missing).toEqual([])
    expect(check.notes).toEqual([expect.stringContaining('proving the domain acme.com')])
  })

  it('says what the registry refuses: no name, a private package, a bad name, an http remote, a long description', () => {
    const unnamed = planOf({private: true, repository: undefined})
    expect(publishCheck(unnamed, serverJson(unnamed)).missing).toEqual([expect.stringContaining('No registry name'), expect.stringContaining('"private": true')])
    const badName = planOf({mcpName: 'acme mycli'})
    expect(publishCheck(badName, serverJson(badName)).missing).toEqual([expect.stringContaining('is not a registry name')])
    const remote = planOf({mcpName: 'io.github.acme/mycli'})
    expect(publishCheck(remote, serverJson(remote, 'http://localhost:5757/mcp'), 'http://localhost:5757/mcp').missing).toEqual([expect.stringContaining('not https')])
    const long = planOf({description: 'word '.repeat(40).trim(), mcpName: 'io.github.acme/mycli'})
    const json = serverJson(long)
    expect((json.description as string).length).toBeLessThanOrEqual(100)
    expect(publishCheck(long, json).notes.join('\n')).toContain('cut to 100 characters')
  })

  it('lists a remote with its bearer token as a secret header', () => {
    const json = serverJson(planOf({mcpName: 'io.github.acme/mycli'}), 'https://mcp.acme.com/mcp')
    expect(json.remotes).toEqual([expect.objectContaining({headers: [expect.objectContaining({isSecret: true, name: 'Authorization', value: 'Bearer {token}'})], type: 'streamable-http', url: 'https://mcp.acme.com/mcp'})])
  })
})
