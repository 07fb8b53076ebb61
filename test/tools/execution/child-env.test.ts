import {describe, expect, it} from '@jest/globals'

import {childEnv} from '../../../src/tools/execution/child-env.js'

const config = {scopedEnvVarKey: (key: string) => `TASKBOX_${key}`} as Parameters<typeof childEnv>[0]

describe('childEnv', () => {
  it("leaves out a value a host left unfilled, as Claude Desktop passes an optional setting nobody filled in", () => {
    const saved = {...process.env}
    try {
      process.env.TASKBOX_SYNC_TOKEN = '${user_config.TASKBOX_SYNC_TOKEN}'
      process.env.OTHER_TOKEN = 'real-value'
      process.env.TEMPLATE_TEXT = 'say ${user_config.x} here'
      const env = childEnv(config, {})
      expect(env.TASKBOX_SYNC_TOKEN).toBeUndefined()
      expect(env.OTHER_TOKEN).toBe('real-value')
      // Only a value that is a placeholder and nothing else.
      expect(env.TEMPLATE_TEXT).toBe('say ${user_config.x} here')
    } finally {
      for (const key of ['TASKBOX_SYNC_TOKEN', 'OTHER_TOKEN', 'TEMPLATE_TEXT']) delete process.env[key]
      Object.assign(process.env, saved)
    }
  })
})
