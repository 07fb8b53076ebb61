import {Flags} from '@oclif/core'

import {AGENT_HOST_IDS} from './agent-hosts.js'

/** Flags shared by `mcp stdio` and `mcp serve`: where and how commands run. */
export const serverFlags = {
  'allow-cwd': Flags.directory({
    description:
      "A directory a call's cwd may be in (with everything below it); repeat for several (default: anywhere; with mcp serve --allow-remote, only --cwd's directory). A command may read and even run files of the directory it runs in.",
    exists: true,
    multiple: true,
  }),
  client: Flags.option({
    description:
      'The agent host this server is for (mcp config writes it), for requests that do not say who sends them: results, pages and tool entries are shaped for what that host shows its model. The clientInfo a host sends comes first.',
    options: AGENT_HOST_IDS,
  })(),
  audit: Flags.boolean({
    allowNo: true,
    default: true,
    description: "Append every mutating or destructive call to the audit log in the CLI's data dir (--no-audit turns it off).",
  }),
  'confirm-destructive': Flags.boolean({
    allowNo: true,
    description:
      "Ask the person before a destructive command runs; where the client cannot be asked, refuse it (default: the CLI author's choice, else off).",
  }),
  cwd: Flags.directory({description: 'Directory commands run in when a call gives no cwd (default: an empty private directory).', exists: true}),
  foreground: Flags.integer({
    description: 'Seconds a call waits for its command; one still running then goes on as a job the call answers with (default 45, below the 60 s hosts wait).',
    min: 1,
  }),
  'job-timeout': Flags.integer({
    aliases: ['timeout'],
    description: 'Seconds a command may run in all, as a job included, before it and its children are killed (default 1800).',
    min: 1,
  }),
  'max-concurrency': Flags.integer({description: 'Command processes that may run at once (default: the number of CPUs).', min: 1}),
  'max-output': Flags.integer({description: 'Bytes of stdout and of stderr captured per call, readable in pages when the result is cut (default 4 MiB).', min: 1024}),
  'max-result-tokens': Flags.integer({
    description: 'About how many tokens a result may hold for the model (default 20000); longer output is cut to its head and tail, and the whole stays readable.',
    min: 1000,
  }),
  'max-queue': Flags.integer({description: 'Calls that may wait for a free slot; past that a call is answered "busy" (default 32).', min: 0}),
  'trust-host-approval': Flags.boolean({
    allowNo: true,
    description:
      "With --confirm-destructive: where the person cannot be asked, run the call and let the host's own approval of tool calls decide (default: refuse).",
  }),
  workers: Flags.integer({description: 'Prewarmed processes kept ready to run the next command (default 1; 0 starts every command cold).', max: 16, min: 0}),
}

/** Flags that decide what the server exposes (the projection); shared by every server command. */
export const projectionFlags = {
  exclude: Flags.string({description: 'Command ids, topics or globs to leave out entirely; repeat for several.', multiple: true}),
  exposure: Flags.option({
    description:
      'How commands are listed as tools: band (a typed band within --max-tools and --max-bytes, the rest through find_commands and run_command), search (every command, for a host that searches its tools itself), auto (by the host: search for Claude Code and Codex, band for the others; the default).',
    options: ['auto', 'band', 'search'] as const,
  })(),
  'max-bytes': Flags.integer({description: 'Byte budget of the whole tools/list, built-in tools included (default 32768).', min: 1024}),
  'max-tools': Flags.integer({description: 'At most this many command tools in tools/list (default 40); the rest stay reachable through run_command.', min: 0}),
  profile: Flags.string({description: "A profile from the CLI's package.json (oclif.mcp.profiles): which commands are listed as tools."}),
  'read-only': Flags.boolean({description: 'Expose read-only commands only; nothing that changes state is reachable by any path.'}),
  tools: Flags.string({description: 'Command ids, topics or globs to list as tools (instead of a profile); repeat for several.', multiple: true}),
}

/** What launchArguments needs of a flag's definition. */
interface FlagDefinition {
  allowNo?: boolean
  multiple?: boolean
  type: string
}

/**
 * The flags of a server command a set-up writes into its launch line (`mcp config` passes on the server flags it was
 * given): only the flags given, each as the server command parses it — `--name value` (once per value of a repeated
 * flag), `--name` for a boolean set, `--no-name` for one turned off. Paths must already be absolute.
 */
export function launchArguments(given: Readonly<Record<string, unknown>>, definitions: Readonly<Record<string, FlagDefinition>>): string[] {
  return Object.entries(definitions).flatMap(([name, definition]) => {
    const value = given[name]
    if (value === undefined) return []
    if (definition.type === 'boolean') return value ? [`--${name}`] : definition.allowNo ? [`--no-${name}`] : []
    return (Array.isArray(value) ? value : [value]).flatMap((item) => [`--${name}`, String(item)])
  })
}
