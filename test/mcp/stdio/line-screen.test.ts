import {describe, expect, it} from '@jest/globals'

import {LineScreen, MAX_LINE_BYTES, type Refusal} from '../../../src/mcp/stdio/line-screen.js'

/** Feeds the chunks (then the end of input) and collects what is forwarded and what is answered. */
function screen(chunks: (Buffer | string)[], {end = true} = {}) {
  const forwarded: string[] = []
  const refused: Refusal[] = []
  const logged: string[] = []
  const lines = new LineScreen({forward: (line) => forwarded.push(line.toString('utf8')), log: (m) => logged.push(m), refuse: (a) => refused.push(a)})
  for (const chunk of chunks) lines.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk))
  if (end) lines.end()
  return {forwarded, logged, refused}
}

const ping = (id: number | string) => JSON.stringify({id, jsonrpc: '2.0', method: 'ping'})

describe('LineScreen', () => {
  it.each([
    ['one line', [`${ping(1)}\n`], [ping(1)]],
    ['two lines in one chunk', [`${ping(1)}\n${ping(2)}\n`], [ping(1), ping(2)]],
    ['a line split over three chunks', [ping(1).slice(0, 5), ping(1).slice(5, 12), `${ping(1).slice(12)}\n`], [ping(1)]],
    ['CRLF line ends', [`${ping(1)}\r\n${ping(2)}\r\n`], [`${ping(1)}\r`, `${ping(2)}\r`]],
    ['a last line without its newline', [`${ping(1)}\n${ping(2)}`], [ping(1), ping(2)]],
    ['a notification', ['{"jsonrpc":"2.0","method":"notifications/initialized"}\n'], ['{"jsonrpc":"2.0","method":"notifications/initialized"}']],
    ['a response from the client', ['{"jsonrpc":"2.0","id":7,"result":{}}\n'], ['{"jsonrpc":"2.0","id":7,"result":{}}']],
    ['blank and whitespace lines, skipped', ['\n  \n\t\r\n', `${ping(1)}\n\n`], [ping(1)]],
    ['a multi-byte character split between chunks', [Buffer.from(`{"id":"é🙂","jsonrpc":"2.0","method":"ping"}\n`).subarray(0, 9), Buffer.from(`{"id":"é🙂","jsonrpc":"2.0","method":"ping"}\n`).subarray(9)], ['{"id":"é🙂","jsonrpc":"2.0","method":"ping"}']],
  ])('forwards valid messages whole, one line each: %s', (_what, chunks, expected) => {
    const {forwarded, refused} = screen(chunks)
    expect(forwarded).toEqual(expected.map((line) => `${line}\n`))
    expect(refused).toEqual([])
  })

  it('holds a partial line back until its newline (or the end of input)', () => {
    expect(screen([ping(1)], {end: false}).forwarded).toEqual([])
  })

  it.each([
    ['truncated JSON', '{"jsonrpc":"2.0","id":1,"method":"ping"'],
    ['not JSON at all', 'hello'],
    ['a stray closing brace', '}'],
  ])('answers %s with -32700 and id null', (_what, line) => {
    const {forwarded, logged, refused} = screen([`${line}\n`, `${ping(2)}\n`])
    expect(refused).toEqual([{error: {code: -32_700, message: expect.stringMatching(/^Parse error: /)}, id: null, jsonrpc: '2.0'}])
    expect(forwarded).toEqual([`${ping(2)}\n`])
    expect(logged).toHaveLength(1)
  })

  it.each([
    ['method not a string', {id: 'm', jsonrpc: '2.0', method: 5}, 'm'],
    ['params a number', {id: 3, jsonrpc: '2.0', method: 'ping', params: 5}, 3],
    ['jsonrpc "1.0"', {id: 'v', jsonrpc: '1.0', method: 'ping'}, 'v'],
    ['an id that is an object', {id: {}, jsonrpc: '2.0', method: 'ping'}, null],
    ['a batch (an array)', [{id: 1, jsonrpc: '2.0', method: 'ping'}], null],
    ['a bare number', 42, null],
    ['an invalid notification', {jsonrpc: '2.0', method: 5}, null],
  ])('answers JSON that is not a JSON-RPC message (%s) with -32600 and the id when it can be read', (_what, value, id) => {
    const {forwarded, refused} = screen([`${JSON.stringify(value)}\n`])
    expect(refused).toEqual([{error: {code: -32_600, message: expect.stringMatching(/^Invalid Request: /)}, id, jsonrpc: '2.0'}])
    expect(forwarded).toEqual([])
  })

  it('never answers a malformed response from the client, only logs it', () => {
    const {forwarded, logged, refused} = screen(['{"jsonrpc":"2.0","id":1,"result":5}\n'])
    expect({forwarded, refused}).toEqual({forwarded: [], refused: []})
    expect(logged[0]).toContain('malformed response')
  })

  it('refuses a line over the limit once, drops it to its newline, and goes on with the next line', () => {
    const big = Buffer.alloc(1024 * 1024, 'x')
    const chunks = [Buffer.from('{"jsonrpc":"2.0","id":"big","method":"ping","params":{"p":"'), ...Array.from({length: 11}, () => big), Buffer.from(`"}}\n${ping(2)}\n`)]
    const {forwarded, refused} = screen(chunks)
    expect(refused).toEqual([{error: {code: -32_600, message: expect.stringContaining(`at most ${MAX_LINE_BYTES} bytes`)}, id: null, jsonrpc: '2.0'}])
    expect(forwarded).toEqual([`${ping(2)}\n`])
  })

  it('passes a line of exactly the limit', () => {
    const head = '{"jsonrpc":"2.0","id":1,"method":"ping","params":{"p":"'
    const line = `${head}${'x'.repeat(MAX_LINE_BYTES - head.length - 3)}"}}`
    expect(Buffer.byteLength(line)).toBe(MAX_LINE_BYTES)
    const {forwarded, refused} = screen([`${line}\n`])
    expect(refused).toEqual([])
    expect(forwarded).toHaveLength(1)
  })
})
