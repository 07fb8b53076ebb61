import {beforeAll, describe, expect, it} from '@jest/globals'
import {Config} from '@oclif/core'
import {join} from 'node:path'

import {callEnvironmentFor} from '../../src/mcp/lifecycle.js'
import {buildServerPlan, type ServerPlan} from '../../src/mcp/plan.js'
import {parseAuthorConfig} from '../../src/settings/author-config.js'
import {resolveSettings} from '../../src/settings/settings.js'
import {BUILTIN_TOOL_NAMES} from '../../src/tools/catalog/tool-names.js'
import {ROOT} from '../helpers/taskbox.js'

let plan: ServerPlan

beforeAll(async () => {
  const config = await Config.load(join(ROOT, 'examples/taskbox'))
  plan = buildServerPlan(config, resolveSettings(parseAuthorConfig({}), {workers: 0}))
})

describe('buildServerPlan', () => {
  it('builds exactly the built-in tools whose names the catalog reserves', () => {
    const builtins = plan.listed.filter((entry) => entry.kind === 'builtin').map((entry) => entry.tool.name)
    expect([...builtins].sort()).toEqual([...BUILTIN_TOOL_NAMES].sort())
  })

  it('lists the built-ins first, then the typed band in id order, every name once', () => {
    const names = plan.listed.map((entry) => entry.tool.name)
    expect(new Set(names).size).toBe(names.length)
    expect(plan.listed.slice(BUILTIN_TOOL_NAMES.length).map((entry) => entry.tool)).toEqual(plan.projection.band)
  })

  it('runs calls inside the boundary it lists from', async () => {
    const env = callEnvironmentFor(plan)
    try {
      expect([...env.boundary.executable]).toEqual([...plan.projection.executable])
    } finally {
      await env.dispose()
    }

    expect(plan.projection.band.every((tool) => plan.projection.executable.get(tool.id) === tool)).toBe(true)
  })

  it('marks cancel_job destructive, except where every command a job could run only reads (--read-only)', async () => {
    const hintsOf = (p: ServerPlan) => p.listed.find((entry) => entry.tool.name === 'cancel_job')!.tool.annotations
    expect(hintsOf(plan)).toMatchObject({destructiveHint: true, readOnlyHint: false})
    const config = await Config.load(join(ROOT, 'examples/taskbox'))
    const readOnly = buildServerPlan(config, resolveSettings(parseAuthorConfig({}), {'read-only': true, workers: 0}))
    expect(hintsOf(readOnly)).toMatchObject({destructiveHint: false, readOnlyHint: false})
  })
})
