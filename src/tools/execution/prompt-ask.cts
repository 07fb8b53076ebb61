/**
 * The command's side of the question channel (prompt-channel.ts is the server's): a question goes to the server over
 * a local socket, and its answer comes back, or the server ends the command and this process stops. The server's
 * address comes in OCLIF_MCP_PROMPTS (`<socket>#<token>`), removed before the command runs; a worker hands it over with
 * its call (`connectTo`). Part of the prompt bridge (prompt-bridge.cts): only Node built-ins.
 */
import {createConnection, type Socket} from 'node:net'

/** What a question is: its kind decides the form field the person gets. */
export type Kind = 'checkbox' | 'confirm' | 'number' | 'secret' | 'select' | 'text' | 'url'

/** A question as it goes to the server; choices are the labels the person sees, answered by their positions. */
export interface Question {
  choices?: string[]
  default?: unknown
  kind: Kind
  library: string
  message: string
  /** The answer's name in the command's code (inquirer's and prompts' `name`), when it has one. */
  name?: string
  /** Why the same question is asked again: the command's own check refused the last answer. */
  problem?: string
  /** A page the command opens for the person (a browser login): the person is asked to open it. */
  url?: string
}

const VARIABLE = 'OCLIF_MCP_PROMPTS'

let address: string | undefined = process.env[VARIABLE]
delete process.env[VARIABLE]

let socket: Socket | undefined
let nextId = 0
let buffered = ''
const waiting = new Map<number, (reply: {answer?: unknown; stop?: boolean}) => void>()

/** The server's answer to a question; when the server ends the command instead, this process stops here. */
export function send(question: Question): Promise<unknown> {
  if (!address) {
    // Not started by a server that can ask (a worker not yet given its call cannot prompt): the library's own failure.
    return Promise.reject(new Error(`this command asked "${question.message}", and nobody can answer it here`))
  }

  if (!socket) {
    const [path, token] = splitAddress(address)
    socket = createConnection(path)
    socket.setEncoding('utf8')
    socket.write(`${JSON.stringify({hello: token})}\n`)
    socket.on('data', (chunk: string) => {
      buffered += chunk
      for (let end = buffered.indexOf('\n'); end >= 0; end = buffered.indexOf('\n')) {
        const line = buffered.slice(0, end)
        buffered = buffered.slice(end + 1)
        let reply: {answer?: unknown; id?: number; stop?: boolean}
        try {
          reply = JSON.parse(line) as typeof reply
        } catch {
          continue
        }

        const resolve = typeof reply.id === 'number' ? waiting.get(reply.id) : undefined
        if (!resolve) continue
        waiting.delete(reply.id!)
        resolve(reply)
      }
    })
    // The server went away, or ended the call: nothing will answer.
    const lost = () => stopHere()
    socket.on('error', lost)
    socket.on('close', lost)
  }

  const id = nextId++
  socket.ref()
  return new Promise((resolve) => {
    waiting.set(id, (reply) => {
      if (waiting.size === 0) socket?.unref()
      if (reply.stop) stopHere()
      else resolve(reply.answer)
    })
    socket!.write(`${JSON.stringify({id, question})}\n`)
  })
}

/** The server ended the command (it says why in the call's result): end this process, and nothing runs on. */
export function stopHere(): never {
  process.exit(75)
}

function splitAddress(value: string): [string, string] {
  const at = value.lastIndexOf('#')
  return [value.slice(0, at), value.slice(at + 1)]
}

/** Where a worker's questions go: the address its call brings (a cold command has it from its environment). */
export function connectTo(value: string | undefined): void {
  address = value
}

export type Options = Record<string, unknown>

/** A value a library gave as text, as text. */
export const text = (value: unknown): string => (typeof value === 'string' ? value : value === undefined || value === null ? '' : String(value))
