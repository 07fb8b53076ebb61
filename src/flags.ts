import {Flags} from '@oclif/core'

/** Flags shared by `mcp stdio` and `mcp serve`: where and how commands run. */
export const serverFlags = {
  cwd: Flags.directory({description: 'Directory commands run in when a call gives no cwd (default: an empty private directory).', exists: true}),
  'max-concurrency': Flags.integer({description: 'Command processes that may run at once (default: the number of CPUs).', min: 1}),
  'max-output': Flags.integer({description: 'Bytes of stdout and of stderr kept per call (default 1 MiB).', min: 1024}),
  'max-queue': Flags.integer({description: 'Calls that may wait for a free slot; past that a call is answered "busy" (default 32).', min: 0}),
  timeout: Flags.integer({description: 'Seconds a command may run before it and its children are killed (default 60).', min: 1}),
}
