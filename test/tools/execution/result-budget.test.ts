import type {CallToolResult} from '@modelcontextprotocol/server'

import {describe, expect, it} from '@jest/globals'

import {cutMiddle, fitResult, overBudget} from '../../../src/tools/execution/result-budget.js'

const numbered = (count: number) => Array.from({length: count}, (_, i) => `line ${i + 1}`).join('\n') + '\n'
const kept = {id: 'abc', links: {stderr: 'x://output/abc/stderr', stdout: 'x://output/abc/stdout'}, size: {stderr: 10, stdout: 999_999}}

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
    expect(text.type === 'text' && text.text).toContain('read_output {"output": "abc", "stream": "stdout"}')
    expect(JSON.stringify(fitted.structuredContent).length).toBeLessThanOrEqual(20_000)
    expect(fitted.structuredContent).toMatchObject({command: 'run', cwd: '/tmp', exitCode: 0, output: {id: 'abc', stderr: 10, stdout: 999_999}})
    expect((fitted.structuredContent as Record<string, unknown>).stdout).toMatch(/^line 1\n[\s\S]*line 50000\n$/)
    expect((fitted.structuredContent as Record<string, unknown>).stderr).toMatch(/^line 1\n[\s\S]*"stream": "stderr"[\s\S]*line 5000\n$/)
    expect(links).toEqual([
      {description: 'The whole stdout of this run', mimeType: 'text/plain', name: 'stdout of abc', type: 'resource_link', uri: 'x://output/abc/stdout'},
      {description: 'The whole stderr of this run', mimeType: 'text/plain', name: 'stderr of abc', type: 'resource_link', uri: 'x://output/abc/stderr'},
    ])
  })

  it('says first, in the text and in the structured content, what was cut and the exact calls that read on', () => {
    const stdout = numbered(50_000)
    const stderr = numbered(5000)
    const fitted = fitResult(result(stdout, {stderr}), 20_000, kept)
    const structured = fitted.structuredContent as {cut: {message: string; read: {arguments: {offset: number; output: string; stream?: string}; tool: string}[]}; stderr: string; stdout: string}
    expect(Object.keys(structured)[0]).toBe('cut')
    expect(structured.cut.message).toMatch(/^Cut to fit what the host shows: only the head and the tail of stdout and stderr are shown; the whole output is kept/)
    // Each call reads on exactly where its stream's head ends.
    const [out, err] = structured.cut.read
    expect(out).toEqual({arguments: {offset: expect.any(Number), output: 'abc', stream: 'stdout'}, tool: 'read_output'})
    expect(structured.stdout.startsWith(stdout.slice(0, out.arguments.offset))).toBe(true)
    expect(structured.stdout.slice(out.arguments.offset)).toMatch(/^\n\[… \d+ characters not shown, from offset /)
    expect(err).toEqual({arguments: {offset: expect.any(Number), output: 'abc', stream: 'stderr'}, tool: 'read_output'})
    expect(structured.stderr.startsWith(stderr.slice(0, err.arguments.offset))).toBe(true)
    expect(structured.cut.message).toContain(`read_output {"output": "abc", "stream": "stdout", "offset": ${out.arguments.offset}}`)
    // The text says it right after its header, before any of the output.
    const text = (fitted.content[0] as {text: string}).text.split('\n')
    expect(text[2]).toMatch(/^\[Cut to fit what the host shows: .* Read the rest with read_output \{"output": "abc", "stream": "stdout"\}/)
    expect(text.slice(3, 5)).toEqual(['', 'line 1'])
  })

  it('measures the JSON in bytes, as a host that counts bytes does (non-ASCII output)', () => {
    const wide = 'ü€漢'.repeat(20_000)
    const fitted = fitResult(result(wide), 12_000, kept)
    expect(Buffer.byteLength(JSON.stringify(fitted.structuredContent))).toBeLessThanOrEqual(12_000)
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
