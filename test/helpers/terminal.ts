import {spawn} from 'node:child_process'

/**
 * Runs `argv` with a pseudo-terminal (util-linux `script`) whose keyboard answers: each time the next of `prompts` is on
 * the screen, the next line of `typed` is typed. The process is killed after a minute at most.
 */
export function atTerminal(argv: string[], prompts: string[], typed: string[], env: Record<string, string>, cwd: string): Promise<{code: null | number; output: string}> {
  const line = argv.map((a) => `'${a.replaceAll("'", String.raw`'\''`)}'`).join(' ')
  const child = spawn('script', ['-qec', line, '/dev/null'], {cwd, env, stdio: ['pipe', 'pipe', 'pipe']})
  let output = ''
  let answered = 0
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk
    while (answered < prompts.length && output.includes(prompts[answered])) child.stdin.write(`${typed[answered++]}\n`)
  })
  child.stderr.on('data', (chunk: Buffer) => (output += chunk))
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000)
  return new Promise((resolve) => {
    child.on('close', (code) => {
      clearTimeout(timer)
      resolve({code, output})
    })
  })
}
