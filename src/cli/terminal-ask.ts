import {closeSync, openSync} from 'node:fs'
import {createInterface} from 'node:readline/promises'
import {ReadStream, WriteStream} from 'node:tty'

/** The person's answer to a yes/no question. */
export type TerminalAnswer = 'accept' | 'cancel' | 'decline'

/** The devices of the process's own terminal: `/dev/tty`, or on Windows its console's input and output. */
export function terminalDevices(platform: NodeJS.Platform = process.platform): {input: string; output: string} {
  return platform === 'win32' ? {input: String.raw`\\.\CONIN$`, output: String.raw`\\.\CONOUT$`} : {input: '/dev/tty', output: '/dev/tty'}
}

/**
 * A way to ask the person at this process's controlling terminal (`/dev/tty`, or the Windows console, so it works
 * while standard input is a pipe that carries the arguments), or undefined when there is no terminal to ask at: a
 * script, CI, a service. Only "y" or "yes" accepts; anything else, an empty line included, declines; the end of
 * input cancels.
 */
export function terminalAsker(): ((question: string) => Promise<TerminalAnswer>) | undefined {
  const devices = terminalDevices()
  let fd: number
  try {
    fd = openSync(devices.input, 'r+')
  } catch {
    return undefined
  }

  closeSync(fd)
  return async (question) => {
    // One descriptor per stream: each stream closes its own.
    const input = new ReadStream(openSync(devices.input, 'r'))
    const output = new WriteStream(openSync(devices.output, 'w'))
    const lines = createInterface({input, output, terminal: false})
    try {
      const answer = await Promise.race([lines.question(`${question} [y/N] `), new Promise<null>((resolve) => lines.once('close', () => resolve(null)))])
      if (answer === null) return 'cancel'
      return /^\s*y(?:es)?\s*$/i.test(answer) ? 'accept' : 'decline'
    } finally {
      lines.close()
      input.destroy()
      output.destroy()
    }
  }
}
