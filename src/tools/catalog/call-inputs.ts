import * as z from 'zod'

import type {Settings} from '../../settings/settings.js'

/** The longest idempotencyKey a call may carry; the record store refuses longer ones too. */
export const MAX_IDEMPOTENCY_KEY_LENGTH = 200

/**
 * What every command tool takes besides the command's own flags and args: where it runs, and the key that makes a
 * retry safe. Part of each tool's input schema; the call pipeline reads them, and they never reach the command line.
 */
export function callInputs(settings: Pick<Settings, 'defaultCwd'>): Record<string, z.ZodType> {
  const fallback = settings.defaultCwd ?? 'a private empty directory'
  return {
    cwd: z.string().describe(`Absolute path of an existing directory to run the command in. Default: ${fallback}.`).optional(),
    idempotencyKey: z
      .string()
      .min(1)
      .max(MAX_IDEMPOTENCY_KEY_LENGTH)
      .describe('Optional. A retry with the same key and arguments returns the first run\'s result instead of running again.')
      .optional(),
  }
}
