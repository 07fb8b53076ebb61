// The task list lives in .taskbox.json in the directory the command runs in.
import {existsSync, readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'

export const STORE_FILE = '.taskbox.json'

export function storePath(dir = process.cwd()) {
  return join(dir, STORE_FILE)
}

export function hasStore(dir = process.cwd()) {
  return existsSync(storePath(dir))
}

export function loadStore(command, dir = process.cwd()) {
  if (!hasStore(dir)) {
    command.error(`No task list in ${dir}. Run "taskbox init" first.`, {code: 'NO_STORE', exit: 2})
  }

  return JSON.parse(readFileSync(storePath(dir), 'utf8'))
}

export function saveStore(store, dir = process.cwd()) {
  writeFileSync(storePath(dir), JSON.stringify(store, null, 2) + '\n')
}

export function findTask(command, store, id) {
  const task = store.tasks.find((t) => t.id === id)
  if (!task) command.error(`No task with id ${id}.`, {code: 'NO_TASK', exit: 3})
  return task
}
