/**
 * Loaded into every command the server starts: preloaded into a cold one (`node --require orphan-guard.cjs <bin>
 * …`), imported by every worker. A process whose server has gone — killed with SIGKILL, or by the OOM killer, which
 * leave it no time to stop anything — notices within a second that it has a new parent, and ends its own process
 * group (it leads one: the server starts it detached), so no command outlives its server by more than a moment.
 */
const CHECK_MS = 1000
const parent = process.ppid

setInterval(() => {
  if (process.ppid === parent) return
  try {
    process.kill(-process.pid, 'SIGKILL')
  } catch {
    process.kill(process.pid, 'SIGKILL')
  }
}, CHECK_MS).unref()
