import {describe, expect, it} from '@jest/globals'
import type {Command} from '@oclif/core'

import {commandSearchHint} from '../../../src/tools/exposure/host-meta.js'

const command = (fields: Partial<Command.Cached>): Command.Cached => ({aliases: [], args: {}, flags: {}, id: 'x', pluginAlias: 'p', pluginType: 'core', ...fields}) as Command.Cached

describe("the search hint Claude Code's ToolSearch scores (+4 a word, whole words as written)", () => {
  const promote = {
    command: command({
      args: {},
      description: 'Promote CLI builds to a S3 release channel.\n\nLong notes about indexes that come after the first paragraph.',
      flags: {
        channel: {name: 'channel', type: 'option'},
        help: {name: 'help', type: 'boolean'},
        'ignore-missing': {hidden: true, name: 'ignore-missing', type: 'boolean'},
        sha: {name: 'sha', type: 'option'},
      } as unknown as Command.Cached['flags'],
      id: 'promote',
    }),
    id: 'promote',
    summary: 'Promote CLI builds to a S3 release channel.',
  }
  const hint = commandSearchHint(promote).split(' ')

  it('gives the id and the summary in both numbers, since `build` is not found in `builds`', () => {
    expect(hint).toEqual(expect.arrayContaining(['promote', 'builds', 'build', 'channel', 'channels', 'release']))
  })

  it("names what a person says they pass: the flags' and arguments' words, not hidden or shared ones", () => {
    expect(hint).toEqual(expect.arrayContaining(['sha']))
    expect(hint).not.toContain('help')
    expect(hint).not.toContain('ignore')
  })

  it('leaves the paragraphs after the first out, and stop words out', () => {
    expect(hint).not.toContain('indexes')
    expect(hint).not.toContain('to')
  })

  it('puts the id words first with their synonyms, and stays within 600 characters for a long description', () => {
    const long = commandSearchHint({command: command({description: Array.from({length: 300}, (_, i) => `word${i}`).join(' '), id: 'tasks:add'}), id: 'tasks:add', summary: 'Add a task.'})
    expect(long.startsWith('tasks task todo')).toBe(true)
    expect(long.split(' ')).toEqual(expect.arrayContaining(['add', 'create', 'new']))
    expect(long.length).toBeLessThanOrEqual(600)
    expect(long).toContain('word0')
  })
})
