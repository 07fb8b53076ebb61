import {type ChildProcess, spawn} from 'node:child_process'
import {request as httpRequest} from 'node:http'

import {killPids, processesWithEnv} from './processes.js'
import {plain, runTaskbox} from './run-cli.js'
import {TASKBOX_BIN} from './taskbox.js'

export interface Served {
  base: string
  child: ChildProcess
  /** Resolves with the exit code once the process has ended. */
  exited: Promise<null | number>
  stderr: () => string
  /** SIGTERM, then SIGKILL if it has not ended within 20 s. */
  stop: () => Promise<null | number>
  url: string
}

/**
 * Collects a starting `mcp serve`'s stderr and resolves with the URL its banner gives; rejects when it exits first
 * or prints no banner within 60 s. The caller stops the process.
 */
export async function waitForBanner(child: ChildProcess, exited: Promise<null | number>): Promise<{stderr: () => string; url: string}> {
  let stderr = ''
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no banner within 60 s; stderr: ${stderr}`)), 60_000)
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk
      const found = /listening on (http:\/\/\S+\/mcp)/.exec(stderr)
      if (found) {
        clearTimeout(timer)
        resolve(found[1])
      }
    })
    void exited.then((code) => {
      clearTimeout(timer)
      reject(new Error(`exited with ${code} before listening; stderr: ${stderr}`))
    })
  })
  return {stderr: () => stderr, url}
}

/** Starts `taskbox mcp serve --port 0 ARGS` (or another CLI's, given its `bin` script) and waits for its banner. */
export async function serveTaskbox(options: {args?: string[]; bin?: string; cwd: string; env: Record<string, string>; nodeArgs?: string[]}): Promise<Served> {
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), options.bin ?? TASKBOX_BIN, 'mcp', 'serve', '--port', '0', ...(options.args ?? [])], {
    cwd: options.cwd,
    env: options.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  child.stdout!.resume()
  const exited = new Promise<null | number>((resolve) => child.on('close', (code) => resolve(code)))
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM')
      // A server that had to be killed could not stop its commands (own process groups): they go by their HOME.
      const timer = setTimeout(() => {
        child.kill('SIGKILL')
        if (options.env.HOME) killPids(processesWithEnv('HOME', options.env.HOME))
      }, 20_000)
      await exited
      clearTimeout(timer)
    }

    return exited
  }

  try {
    const {stderr, url} = await waitForBanner(child, exited)
    return {base: url.replace(/\/mcp$/, ''), child, exited, stderr, stop, url}
  } catch (error) {
    await stop()
    throw error
  }
}

/** Runs `taskbox mcp serve ARGS` expecting it to refuse to start; returns its exit code and stderr. */
export async function refusedServe(args: string[], env: Record<string, string>, cwd: string): Promise<{code: null | number; stderr: string}> {
  const ran = await runTaskbox(['mcp', 'serve', ...args], {cwd, env})
  return {code: ran.code, stderr: plain(ran.stderr)}
}

export const JSON_HEADERS = {Accept: 'application/json, text/event-stream', 'Content-Type': 'application/json'}

export const MODERN_META = {
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': {name: 'test', version: '1'},
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
}

/** POST one JSON-RPC message; `modern` adds the 2026-07-28 headers and `_meta` envelope. */
export async function post(url: string, message: Record<string, unknown>, options: {headers?: Record<string, string>; modern?: boolean; signal?: AbortSignal} = {}) {
  const params = (message.params ?? {}) as Record<string, unknown>
  const body = options.modern ? {...message, params: {...params, _meta: {...MODERN_META, ...(params._meta as object)}}} : message
  const headers: Record<string, string> = {...JSON_HEADERS}
  if (options.modern) {
    headers['MCP-Protocol-Version'] = '2026-07-28'
    headers['Mcp-Method'] = String(message.method)
    if (typeof params.name === 'string') headers['Mcp-Name'] = params.name
  }

  const response = await fetch(url, {body: JSON.stringify(body), headers: {...headers, ...options.headers}, method: 'POST', signal: options.signal})
  const text = await response.text()
  const type = response.headers.get('content-type') ?? ''
  const json = type.includes('event-stream') ? JSON.parse(text.split('\n').filter((l) => l.startsWith('data: ')).at(-1)!.slice(6)) : text ? JSON.parse(text) : undefined
  return {headers: response.headers, json, status: response.status, text}
}

/** A POST through node:http, which (unlike fetch) lets a test set the Host header. */
export function rawPost(url: string, body: string, headers: Record<string, string>): Promise<{body: string; status: number}> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, {headers: {...JSON_HEADERS, ...headers}, method: 'POST'}, (response) => {
      let text = ''
      response.on('data', (chunk: Buffer) => (text += chunk))
      response.on('end', () => resolve({body: text, status: response.statusCode ?? 0}))
    })
    request.on('error', reject)
    request.end(body)
  })
}
