// A server killed without a chance to stop its commands (SIGKILL; the OOM killer does the same) leaves none behind:
// every command it started, cold or through a warm worker, notices it has lost its parent and ends within seconds.
import {afterAll, describe, expect, it} from '@jest/globals'
import {randomBytes} from 'node:crypto'
import {join} from 'node:path'

import {eventually, idleWorker, killPids, processesMatching} from '../helpers/processes.js'
import {connectTaskbox, FAULTY_BIN, scratch, taskboxEnv} from '../helpers/taskbox.js'

const space = scratch()
afterAll(() => space.cleanup())

describe.each([0, 1])('a SIGKILLed server (--workers %i)', (workers) => {
  it.each(['hang', 'stubborn'])('leaves no %s command running', async (tool) => {
    const marker = `orphan-${tool}-${randomBytes(6).toString('hex')}`
    const server = await connectTaskbox({args: ['--workers', String(workers), '--cwd', space.dir, '--timeout', '600'], bin: FAULTY_BIN, cwd: space.dir, env: taskboxEnv(join(space.dir, marker)), era: 'legacy'})
    let left: number[] = []
    try {
      // With workers, the first one warms once the server has run a call: one is run, and the worker waited for.
      let worker: number | undefined
      if (workers > 0) {
        expect((await server.client.callTool({arguments: {}, name: 'echo'})).isError).toBeFalsy()
        worker = await idleWorker(server.pid)
        expect(worker).toBeDefined()
      }

      void server.client.callTool({arguments: {marker}, name: tool}, {timeout: 600_000}).catch(() => {})
      expect(await eventually(() => processesMatching(marker).length > 0)).toBe(true)
      // The command runs in the warm worker (which shows the command's line once it has its call), not in a cold spawn.
      if (worker) expect(processesMatching(marker).map((row) => row.pid)).toContain(worker)
      process.kill(server.pid, 'SIGKILL')
      const gone = await eventually(() => processesMatching(marker).length === 0)
      left = processesMatching(marker).map((row) => row.pid)
      expect(gone).toBe(true)
    } finally {
      killPids(left)
      await server.close()
    }
  })
})
