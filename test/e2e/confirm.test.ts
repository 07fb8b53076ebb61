import type {Client} from '@modelcontextprotocol/client'
import {afterAll, describe, expect, it} from '@jest/globals'
import {mkdirSync, readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'

import {connectTaskbox, type Era, scratch, taskboxEnv} from '../helpers/taskbox.js'

const space = scratch()
afterAll(() => space.cleanup())

/** A project with two tasks, so a removal can be seen. */
function project(name: string): string {
  const dir = join(space.dir, name)
  mkdirSync(dir)
  writeFileSync(join(dir, '.taskbox.json'), JSON.stringify({name, nextId: 3, tasks: [1, 2].map((id) => ({done: false, id, priority: 3, tags: [], title: `t${id}`}))}))
  return dir
}

const ids = (dir: string) => (JSON.parse(readFileSync(join(dir, '.taskbox.json'), 'utf8')) as {tasks: {id: number}[]}).tasks.map((t) => t.id)

async function withClient(era: Era, answer: 'accept' | 'decline' | undefined, use: (client: Client, asked: string[]) => Promise<void>) {
  const asked: string[] = []
  const server = await connectTaskbox({
    args: ['--confirm-destructive'],
    capabilities: answer ? {elicitation: {form: {}}} : undefined,
    cwd: space.dir,
    env: taskboxEnv(join(space.dir, `home-${era}`)),
    era,
    setup(client) {
      if (!answer) return
      client.setRequestHandler('elicitation/create', async (request) => {
        asked.push(String(request.params.message))
        return answer === 'accept' ? {action: 'accept', content: {confirm: true}} : {action: 'decline'}
      })
    },
  })
  try {
    await use(server.client, asked)
  } finally {
    await server.close()
  }
}

describe.each<Era>(['legacy', 'modern'])('--confirm-destructive over stdio (%s era)', (era) => {
  it('asks the person, and runs the command only when they accept', async () => {
    const dir = project(`accept-${era}`)
    await withClient(era, 'accept', async (client, asked) => {
      const result = await client.callTool({arguments: {cwd: dir, id: '1'}, name: 'tasks_remove'})
      expect(result.isError).toBeFalsy()
      expect(asked).toHaveLength(1)
      expect(asked[0]).toContain('tasks remove')
      expect(ids(dir)).toEqual([2])
      // Read-only and merely mutating commands are not asked about.
      await client.callTool({arguments: {cwd: dir}, name: 'tasks_list'})
      expect(asked).toHaveLength(1)
    })
  })

  it('runs nothing when the person declines', async () => {
    const dir = project(`decline-${era}`)
    await withClient(era, 'decline', async (client, asked) => {
      const result = await client.callTool({arguments: {cwd: dir, id: '1'}, name: 'tasks_remove'})
      expect(result.isError).toBe(true)
      expect(result.structuredContent).toMatchObject({code: 'NOT_CONFIRMED'})
      expect(asked).toHaveLength(1)
      expect(ids(dir)).toEqual([1, 2])
    })
  })

  it('leaves the gate to the host when the client cannot ask', async () => {
    const dir = project(`unasked-${era}`)
    await withClient(era, undefined, async (client) => {
      const result = await client.callTool({arguments: {cwd: dir, id: '2'}, name: 'tasks_remove'})
      expect(result.isError).toBeFalsy()
      expect(ids(dir)).toEqual([1])
    })
  })
})
