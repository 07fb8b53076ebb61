import type {CallToolResult} from '@modelcontextprotocol/server'

import {describe, expect, it} from '@jest/globals'

import {CHARS_PER_TOKEN, cutMiddle, fitResult, overBudget, resultBudget} from '../../../src/tools/execution/result-budget.js'

const numbered = (count: number) => Array.from({length: count}, (_, i) => `line ${i + 1}`).join('\n') + '\n'
const kept = {id: 'abc', links: {stderr: 'x://output/abc/stderr', stdout: 'x://output/abc/stdout'}, size: {stderr: 10, stdout: 999_999}}

describe('resultBudget', () => {
  it('is the token budget in characters, lower for hosts known to cut results shorter', () => {
    expect(resultBudget(20_000)).toBe(20_000 * CHARS_PER_TOKEN)
    expect(resultBudget(20_000, {name: 'claude-code'})).toBe(60_000)
    expect(resultBudget(20_000, {name: 'gemini-cli-mcp-client'})).toBe(40_000)
    expect(resultBudget(5000, {name: 'gemini-cli'})).toBe(15_000)
  })
})

describe('cutMiddle', () => {
  it('returns a text that fits as it is', () => {
    expect(cutMiddle('short', 10)).toBe('short')
  })

  it.each([200, 1000, 5000])('keeps the head and the tail within %i characters, cut at line ends, saying what is missing', (max) => {
    const text = numbered(5000)
    const cut = cutMiddle(text, max, ' Read the rest elsewhere.')
    expect(cut.length).toBeLessThanOrEqual(max)
    expect(cut.startsWith('line 1\n')).toBe(true)
    expect(cut.endsWith('line 5000\n')).toBe(true)
    const notice = /\n\[… (\d+) characters not shown, from offset (\d+)\. Read the rest elsewhere\.\]\n/.exec(cut)!
    expect(notice).not.toBeNull()
    const [before, after] = cut.split(notice[0])
    // The notice's numbers are exact: the head ends at the offset, and head + omitted + tail is the whole.
    expect(Number(notice[2])).toBe(before.length)
    expect(text.slice(0, Number(notice[2]))).toBe(before)
    expect(Number(notice[2]) + Number(notice[1]) + after.length).toBe(text.length)
    expect(text.endsWith(after)).toBe(true)
  })

  it('leaves out the offset when the text is not the stream itself', () => {
    expect(cutMiddle(numbered(1000), 300, '', false)).toMatch(/\[… \d+ characters not shown\.\]/)
  })
})

describe('fitResult', () => {
  const result = (stdout: string, more: Record<string, unknown> = {}): CallToolResult => ({
    content: [{text: `$ cli run\n(exit 0, 5 ms, in /tmp)\n\n${stdout}`, type: 'text'}],
    structuredContent: {command: 'run', cwd: '/tmp', exitCode: 0, stdout, ...more},
  })

  it('leaves a result within the budget untouched', () => {
    const small = result('hello\n')
    expect(fitResult(small, 1000, kept)).toBe(small)
    expect(overBudget(small, 1000)).toBe(false)
  })

  it('cuts the text and the structured content each to the budget, keeping the header and naming the kept output', () => {
    const big = result(numbered(50_000), {stderr: numbered(5000)})
    const fitted = fitResult(big, 20_000, kept)
    const [text, ...links] = fitted.content
    expect(text.type === 'text' && text.text.length).toBeLessThanOrEqual(20_000)
    expect(text.type === 'text' && text.text.startsWith('$ cli run\n(exit 0, 5 ms, in /tmp)\n')).toBe(true)
    expect(text.type === 'text' && text.text).toContain('read_output {"output": "abc"}')
    expect(JSON.stringify(fitted.structuredContent).length).toBeLessThanOrEqual(20_000)
    expect(fitted.structuredContent).toMatchObject({command: 'run', cwd: '/tmp', exitCode: 0, output: {id: 'abc', stderr: 10, stdout: 999_999}})
    expect((fitted.structuredContent as Record<string, unknown>).stdout).toMatch(/^line 1\n[\s\S]*line 50000\n$/)
    expect((fitted.structuredContent as Record<string, unknown>).stderr).toMatch(/^line 1\n[\s\S]*"stream": "stderr"[\s\S]*line 5000\n$/)
    expect(links).toEqual([
      {description: 'The whole stdout of this run', mimeType: 'text/plain', name: 'stdout of abc', type: 'resource_link', uri: 'x://output/abc/stdout'},
      {description: 'The whole stderr of this run', mimeType: 'text/plain', name: 'stderr of abc', type: 'resource_link', uri: 'x://output/abc/stderr'},
    ])
  })

  it('fits when escapes make the JSON form longer than the text (quotes, backslashes, control characters)', () => {
    const nasty = '"\\\u0001'.repeat(40_000)
    const fitted = fitResult(result(nasty), 10_000)
    expect(JSON.stringify(fitted.structuredContent).length).toBeLessThanOrEqual(10_000)
  })

  it('gives a JSON answer too large to send whole as the head and tail of its text, and says it did', () => {
    const data = Array.from({length: 5000}, (_, i) => ({id: i, name: `item ${i}`}))
    const fitted = fitResult({content: [{text: JSON.stringify(data, null, 2), type: 'text'}], structuredContent: {data, exitCode: 0}}, 8000)
    expect(fitted.structuredContent).toMatchObject({dataOmitted: true, exitCode: 0})
    expect((fitted.structuredContent as Record<string, unknown>).data).toBeUndefined()
    expect((fitted.structuredContent as Record<string, unknown>).stdout).toMatch(/^\[\n {2}\{\n {4}"id": 0,[\s\S]*characters not shown\.[\s\S]*"name": "item 4999"\n {2}\}\n\]$/)
  })

  it('links to no resources when the client cannot be given them', () => {
    const fitted = fitResult(result(numbered(50_000)), 5000, {...kept, links: undefined})
    expect(fitted.content.map((block) => block.type)).toEqual(['text'])
  })
})
