import {randomBytes} from 'node:crypto'
import {mkdtempSync, rmSync} from 'node:fs'
import {createServer, type Server, type Socket} from 'node:net'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

// Where a running command's questions arrive (its prompts, caught by prompt-bridge.cts in the command's process): a
// local socket of the server's own, in a directory only its user can enter, and a token per call, so a question
// reaches the call whose command asked it and nothing else can ask.

export type QuestionKind = 'checkbox' | 'confirm' | 'number' | 'secret' | 'select' | 'text' | 'url'

/** A command's question as its prompt library put it. */
export interface CommandQuestion {
  /** The labels of a list's choices; the answer is a position (select) or positions (checkbox). */
  choices?: string[]
  /** A default value (text, number, yes/no), or the position(s) of the default choice(s). */
  default?: unknown
  kind: QuestionKind
  /** The prompt library that asked (`@inquirer/select`, `inquirer`, `prompts`, `enquirer`, `oclif ux`, `readline`). */
  library: string
  message: string
  /** The answer's name in the command's code, when the library has one. */
  name?: string
  /** Why it is asked again: what the command's own check said of the last answer (it may quote that answer). */
  problem?: string
  /** The command's line was not a question the server can ask (a list without choices, an unknown kind). */
  unreadable?: true
  /** kind `url`: the web page the command opens for the person (its browser login). */
  url?: string
}

/** The answer that goes back to the command, or the end of the command. */
export type QuestionReply = {answer: unknown} | {stop: true}

export type QuestionHandler = (question: CommandQuestion) => Promise<QuestionReply>

const KINDS = new Set<QuestionKind>(['checkbox', 'confirm', 'number', 'secret', 'select', 'text', 'url'])
const MAX_URL = 8192
/** A line longer than this is not a question (a list of choices this long would not be one either). */
const MAX_LINE = 1024 * 1024
const MAX_CHOICES = 500

/** A question line from a command's process, checked: what is not one is ignored. */
export function parseQuestion(value: unknown): CommandQuestion | undefined {
  if (!value || typeof value !== 'object') return undefined
  const q = value as Record<string, unknown>
  if (!KINDS.has(q.kind as QuestionKind) || typeof q.message !== 'string' || typeof q.library !== 'string') return undefined
  const choices = Array.isArray(q.choices) ? q.choices.slice(0, MAX_CHOICES).map(String) : undefined
  if ((q.kind === 'select' || q.kind === 'checkbox') && (!choices || choices.length === 0)) return undefined
  if (q.kind === 'url' && (typeof q.url !== 'string' || q.url.length > MAX_URL || !/^https?:\/\//i.test(q.url))) return undefined
  return {
    ...(choices ? {choices} : {}),
    ...(q.default === undefined ? {} : {default: q.default}),
    kind: q.kind as QuestionKind,
    library: q.library.slice(0, 100),
    message: q.message.slice(0, 4000),
    ...(typeof q.name === 'string' && q.name ? {name: q.name.slice(0, 200)} : {}),
    ...(typeof q.problem === 'string' && q.problem ? {problem: q.problem.slice(0, 2000)} : {}),
    ...(q.kind === 'url' ? {url: q.url as string} : {}),
  }
}

/** What stands for a question line that could not be read: the call ends the command, saying so. */
function unreadable(value: unknown): CommandQuestion {
  const q = (value && typeof value === 'object' ? value : {}) as Record<string, unknown>
  const message = typeof q.message === 'string' && q.message ? q.message.slice(0, 4000) : '(a question that could not be read)'
  return {kind: 'text', library: typeof q.library === 'string' ? q.library.slice(0, 100) : 'unknown', message, unreadable: true}
}

/** The server's end of every command's question channel; one per server, opened on the first call that needs it. */
export class PromptChannel {
  private readonly calls = new Map<string, QuestionHandler>()
  private dir?: string
  private listening?: Promise<string>
  private server?: Server
  private readonly sockets = new Set<Socket>()

  /** Takes one command's questions to `handler` until `leave()`; `address` goes to the command's process. */
  async enrol(handler: QuestionHandler): Promise<{address: string; leave: () => void}> {
    const path = await (this.listening ??= this.listen())
    const token = randomBytes(18).toString('base64url')
    this.calls.set(token, handler)
    return {address: `${path}#${token}`, leave: () => this.calls.delete(token)}
  }

  close(): void {
    for (const socket of this.sockets) socket.destroy()
    this.server?.close()
    if (this.dir) rmSync(this.dir, {force: true, recursive: true})
    this.dir = undefined
  }

  private listen(): Promise<string> {
    const path =
      process.platform === 'win32'
        ? String.raw`\\.\pipe\oclif-mcp-${process.pid}-${randomBytes(8).toString('hex')}`
        : join((this.dir = mkdtempSync(join(tmpdir(), 'oclif-mcp-ask-'))), 's')
    const server = createServer((socket) => this.serve(socket))
    this.server = server
    server.unref()
    return new Promise((resolve, reject) => {
      server.once('error', reject)
      server.listen(path, () => resolve(path))
    })
  }

  /** One command process's connection: its token first, then its questions, answered one at a time in order. */
  private serve(socket: Socket): void {
    this.sockets.add(socket)
    socket.unref()
    socket.setEncoding('utf8')
    let handler: QuestionHandler | undefined
    let buffered = ''
    let queue = Promise.resolve()
    socket.on('close', () => this.sockets.delete(socket))
    socket.on('error', () => socket.destroy())
    socket.on('data', (chunk: string) => {
      buffered += chunk
      if (buffered.length > MAX_LINE && !buffered.includes('\n')) return socket.destroy()
      for (let end = buffered.indexOf('\n'); end >= 0; end = buffered.indexOf('\n')) {
        const line = buffered.slice(0, end)
        buffered = buffered.slice(end + 1)
        let message: {hello?: unknown; id?: unknown; question?: unknown}
        try {
          message = JSON.parse(line) as typeof message
        } catch {
          return socket.destroy()
        }

        if (!handler) {
          handler = typeof message.hello === 'string' ? this.calls.get(message.hello) : undefined
          if (!handler) return socket.destroy()
          continue
        }

        const {id} = message
        const question = parseQuestion(message.question)
        const ask = handler
        queue = queue.then(async () => {
          // A line that is not a question it can ask (a list with no choices, an unknown kind) still ends the command
          // through its call, which says so.
          const asked = question ?? unreadable(message.question)
          const reply: QuestionReply = await ask(asked).catch((): QuestionReply => ({stop: true}))
          if (!socket.destroyed) socket.write(`${JSON.stringify({id, ...reply})}\n`)
        })
      }
    })
  }
}
