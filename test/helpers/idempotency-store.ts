import type {CallToolResult} from '@modelcontextprotocol/server'
import {expect} from '@jest/globals'
import {mkdtempSync, readdirSync, realpathSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {setTimeout as sleep} from 'node:timers/promises'

import type {Execution, IdempotentOutcome} from '../../src/tools/records/idempotency.js'


/** A scratch directory handing out fresh store directories (not created: the store creates them). */
export function storeScratch(prefix: string): {cleanup(): void; fresh(): string; root: string} {
  const root = realpathSync(mkdtempSync(join(tmpdir(), prefix)))
  let count = 0
  return {cleanup: () => rmSync(root, {force: true, recursive: true}), fresh: () => join(root, `store-${++count}`), root}
}

export function textResult(text: string): CallToolResult {
  return {content: [{text, type: 'text'}], structuredContent: {text}}
}

/** An `execute` that counts its runs and can take a while. */
export function command(text = 'done', options: {holdMs?: number; ran?: boolean} = {}) {
  const counter = {runs: 0}
  const execute = async (): Promise<Execution> => {
    counter.runs++
    if (options.holdMs) await sleep(options.holdMs)
    return {ran: options.ran ?? true, result: textResult(text)}
  }

  return Object.assign(counter, {execute})
}

export function recordFiles(dir: string): string[] {
  return readdirSync(dir).filter((name) => name.endsWith('.json'))
}

export function only(dir: string): string {
  const files = recordFiles(dir)
  expect(files).toHaveLength(1)
  return join(dir, files[0])
}

export function resultOf(outcome: IdempotentOutcome): CallToolResult | undefined {
  return 'result' in outcome ? outcome.result : undefined
}
