import * as z from 'zod'

import type {Settings} from '../../settings/settings.js'

/** The longest idempotencyKey a call may carry; the record store refuses longer ones too. */
export const MAX_IDEMPOTENCY_KEY_LENGTH = 200


/**
 * What a command tool takes besides the command's own flags and args: where it runs, and, for a command that may
 * change something, the key that makes a retry safe (running a read-only command twice is harmless, so its tool
 * does not spend listing bytes on one). Part of each tool's input schema; the call pipeline reads them, and they
 * never reach the command line.
 */
export function callInputs(settings: Pick<Settings, 'defaultCwd'>): {reading: Record<string, z.ZodType>; writing: Record<string, z.ZodType>} {
  const cwd = z
    .string()
    .describe(`Absolute directory to run in (default: ${settings.defaultCwd ?? 'a private empty one'}).`)
    .optional()
  const idempotencyKey = z
    .string()
    .min(1)
    .max(MAX_IDEMPOTENCY_KEY_LENGTH)
    .describe('A retry with the same key and arguments gets the first result; the command does not run again.')
    .optional()
  return {reading: {cwd}, writing: {cwd, idempotencyKey}}
}

/** The names call inputs take in command tools' schemas; no flag or arg can have one (it is renamed). */
export const CALL_INPUT_NAMES: readonly string[] = Object.keys(callInputs({}).writing)
