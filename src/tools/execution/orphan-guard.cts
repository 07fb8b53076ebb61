/**
 * Loaded into every command the server starts: preloaded into a cold one (`node --require orphan-guard.cjs <bin>
 * …`), imported by every worker. A process whose server has gone — killed with SIGKILL, or by the OOM killer, which
 * leave it no time to stop anything — notices within a second (POSIX: it has a new parent; Windows: the server's
 * process is not there) and ends its own tree (POSIX: its process group, which it leads: the server starts it
 * detached; Windows: taskkill /T), so no command outlives its server by more than a moment.
 */
import {killTree, parentGone} from './process-tree.cjs'

const CHECK_MS = 1000

// The server says which process it is (child-env.ts SERVER_PID_VARIABLE): a server killed in the moment between
// starting a command and this file loading would otherwise leave it with a parent that already is its new one. The
// variable goes before the command runs. Started some other way, the parent at load time is the one watched.
const given = Number(process.env.OCLIF_MCP_SERVER_PID)
delete process.env.OCLIF_MCP_SERVER_PID
const parent = Number.isSafeInteger(given) && given > 0 ? given : process.ppid

function check(): void {
  if (!parentGone(parent)) return
  killTree(process.pid, 'SIGKILL')
  // Where the tree could not be ended (no group, taskkill not there), this process at least goes.
  if (process.platform !== 'win32') process.kill(process.pid, 'SIGKILL')
}

check()
setInterval(check, CHECK_MS).unref()
