// The agent hosts: the applications that start this server and put its tools and results in front of a model (Claude
// Code, Codex, Gemini CLI, …). They differ in what they load, search, cut and show, so the server serves each one the
// way it reads: this table is the one place those facts live, each with where it comes from. The result budget, the
// page length of read_output, what a tools/list entry carries and the set-ups all read it. The host of a request is
// known from the clientInfo it sends, else from what the set-up wrote (`--client` on the launch line, `?client=` in
// the URL: mcp config writes them); a host nobody names gets limits below every known host's.

/** The hosts `mcp config` writes set-ups for (its `--client` values). */
export const AGENT_HOST_IDS = ['claude-code', 'claude-desktop', 'cursor', 'vscode', 'codex', 'gemini', 'windsurf', 'zed', 'goose'] as const
export type AgentHostId = (typeof AGENT_HOST_IDS)[number]

/** What the model is shown of a tool result: the JSON of structuredContent, the text blocks, or not known (fit both). */
export type ResultShown = 'either' | 'structured' | 'text'

/**
 * How the host puts MCP tools before its model: every tool up front (`all`), up to a number of tools (`capped`), or
 * behind a search of its own that the model calls first (`deferred`: only names, or nothing, until searched).
 */
export type ToolLoading = 'all' | 'capped' | 'deferred'

export interface AgentHost {
  /** The clientInfo.name it sends (initialize, or each 2026-07-28 request). */
  clientName?: RegExp
  id: AgentHostId | 'unknown'
  label: string
  /**
   * The protocol revision it speaks, where measured: what a request that does not say (stateless 2025 HTTP sends no
   * handshake, Gemini CLI no MCP-Protocol-Version header) may be answered with (resource links from 2025-06-18).
   */
  protocol?: string
  /**
   * The most a tool result may take, as the host counts it (characters of what it shows; Codex counts bytes), before
   * it cuts the result or moves it out of the model's view.
   */
  resultLimit: number
  /** A tool's `_meta["anthropic/maxResultSizeChars"]` raises resultLimit up to this (Claude Code). */
  resultLimitByMeta?: number
  shows: ResultShown
  /** Where each fact comes from: the version it was measured on (and how), or the documentation. */
  source: string
  /** The most tools it offers its model, for a host that caps them. */
  toolCap?: number
  tools: ToolLoading
  /** In words, for docs/hosts.md: how long it waits for a call, how it asks the person, what else it does to tools. */
  words: {approval: string; other?: string; timeouts: string; tools: string}
}

/** Measured 2026-12-01 by driving each host for whole turns against a loopback stand-in for its model API. */
const MEASURED = (version: string) => `measured on ${version}, driven through its own client and a loopback stand-in for its model API (2026-12-01)`

export const AGENT_HOSTS: Record<AgentHostId, AgentHost> = {
  'claude-code': {
    clientName: /^claude-code$/i,
    id: 'claude-code',
    label: 'Claude Code',
    protocol: '2026-07-28',
    // Up to 50,000 characters stay in the model's view; a longer result is saved to a file and the model gets a
    // 2,000-character preview. The per-tool _meta key raises the limit and skips the 25,000-token check.
    resultLimit: 50_000,
    resultLimitByMeta: 500_000,
    shows: 'structured',
    source: MEASURED('Claude Code 2.1.332'),
    tools: 'deferred',
    words: {
      approval: 'asks before every MCP tool unless allowed (readOnlyHint does not approve one); `anthropic/requiresUserInteraction` asks even under an allow rule; elicitation in forms and URLs, on stdio and HTTP (`input_required` on 2026-07-28); headless (`claude -p`) it cancels every elicitation unless an `Elicitation` hook answers it or the program driving `--input-format stream-json` does (as `elicitation` control requests)',
      other: 'names tools `mcp__<server>__<tool>` (at most 64 characters); an error result is shown as its text, a resource_link as a line before the JSON; probes a stdio server with `server/discover` and waits 3,000 ms (5,000 on HTTP), then speaks 2025-11-25 to it; descriptions cut at 4,096 characters up front, 16,384 once loaded; the tasks extension is in its client behind feature gates',
      timeouts: 'no tool timeout to speak of; a server idle for 30 min (stdio) or 5 min (HTTP) is dropped',
      tools: 'every MCP tool deferred behind its ToolSearch (the model sees bare names) unless `anthropic/alwaysLoad`; the search scores name parts (+12 a whole part, +6 a part containing the word), `anthropic/searchHint` words (+4) and description words (+2), words as written',
    },
  },
  'claude-desktop': {
    clientName: /^claude-ai$/i,
    id: 'claude-desktop',
    label: 'Claude Desktop',
    resultLimit: 40_000,
    shows: 'either',
    source: 'documented, not measured here (not on the npm registry): no elicitation',
    tools: 'all',
    words: {approval: 'no elicitation', timeouts: 'not measured', tools: 'not measured'},
  },
  codex: {
    clientName: /^codex/i,
    id: 'codex',
    label: 'Codex',
    protocol: '2025-06-18',
    // A tool output is cut in its middle past its model's token limit (10,000 for gpt-5.5, counted as bytes / 4,
    // with 20 % slack: 24,000 + 24,000 bytes kept); what is cut is "Wall time…\nOutput:\n" and the JSON after it.
    resultLimit: 48_000,
    shows: 'structured',
    // How it offers tools depends on the model, from a catalog in its binary: gpt-5.5 defers them behind a BM25
    // tool_search in a namespace `mcp__<server>` described by the first paragraph of the server's instructions; its
    // default model calls every tool from a JavaScript `exec` tool instead; a model it does not know gets them all.
    source: `${MEASURED('Codex 0.171.0')}; tools deferred with gpt-5.5, called from code by its default model`,
    tools: 'deferred',
    words: {
      approval: 'elicitation (forms and URLs) on stdio, after its own approval of the call (asked the same way); `codex exec` declines every elicitation, `codex app-server` hands each to its client (`mcpServer/elicitation/request`)',
      other: 'names tools `mcp__<server>__<tool>`; starts servers alongside a turn: a server still starting is missing from its first request; prompts are not shown',
      timeouts: 'per server `tool_timeout_sec`; a 75-second call completed',
      tools: 'with gpt-5.5, deferred behind a BM25 `tool_search` in a namespace `mcp__<server>` described by the first paragraph of the server\'s instructions; its default model calls tools from JavaScript in one `exec` tool; a model it does not know gets every tool at once',
    },
  },
  cursor: {
    clientName: /^cursor/i,
    id: 'cursor',
    label: 'Cursor',
    resultLimit: 40_000,
    shows: 'either',
    source: 'documented, not measured here (not on the npm registry): offers at most 40 tools',
    toolCap: 40,
    tools: 'capped',
    words: {approval: 'not measured', timeouts: 'not measured', tools: 'at most 40 tools (documented)'},
  },
  gemini: {
    clientName: /^gemini-cli/i,
    id: 'gemini',
    label: 'Gemini CLI',
    protocol: '2025-06-18',
    // A result with a single text part is cut at 40,000 characters (its first 8,000 and last 32,000 kept).
    resultLimit: 40_000,
    shows: 'text',
    source: MEASURED('Gemini CLI 0.61.0'),
    tools: 'all',
    words: {
      approval: 'no elicitation; headless (`gemini -p`) offers no tool that needs confirmation without `--approval-mode yolo`; starts no server in a folder it does not trust (Disabled in `gemini mcp list`)',
      other: 'names tools `mcp_<server>_<tool>` (at most 64 characters, the middle cut past 63); adds `wait_for_previous` to every tool\'s arguments; refuses schemas with `propertyNames`, `const` and a few more keywords; sends no `MCP-Protocol-Version` header over HTTP',
      timeouts: '10 min',
      tools: 'every tool declared to the model at once (one tools/list, no pagination)',
    },
  },
  goose: {
    id: 'goose',
    label: 'Goose',
    resultLimit: 40_000,
    shows: 'either',
    source: 'documented, not measured here (not on the npm registry)',
    tools: 'all',
    words: {approval: 'not measured', timeouts: 'not measured', tools: 'not measured'},
  },
  vscode: {
    clientName: /^visual studio code/i,
    id: 'vscode',
    label: 'VS Code',
    resultLimit: 40_000,
    shows: 'either',
    source: 'documented, not measured here (not on the npm registry): at most 128 tools, grouped past 64',
    toolCap: 128,
    tools: 'capped',
    words: {approval: 'not measured', timeouts: 'not measured', tools: 'at most 128 tools, grouped past 64 (documented)'},
  },
  windsurf: {
    clientName: /^windsurf/i,
    id: 'windsurf',
    label: 'Windsurf',
    resultLimit: 40_000,
    shows: 'either',
    source: 'documented, not measured here (not on the npm registry): at most 50 tools',
    toolCap: 50,
    tools: 'capped',
    words: {approval: 'not measured', timeouts: 'not measured', tools: 'at most 50 tools (documented)'},
  },
  zed: {
    id: 'zed',
    label: 'Zed',
    resultLimit: 40_000,
    shows: 'either',
    source: 'documented, not measured here (not on the npm registry)',
    tools: 'all',
    words: {approval: 'not measured', timeouts: 'not measured', tools: 'not measured'},
  },
}

/**
 * A host no request and no set-up names: results fit what every known host keeps (the smallest of their limits), in
 * the text and in structuredContent alike; every tool listed up front. Hosts documented but not measured are given
 * the same result limit.
 */
export const UNKNOWN_HOST: AgentHost = {
  id: 'unknown',
  label: 'an unknown host',
  resultLimit: 40_000,
  shows: 'either',
  source: 'the smallest limits of the hosts measured',
  tools: 'all',
  words: {approval: 'unknown', timeouts: 'unknown', tools: 'unknown'},
}

/** Whether `value` names a host of the table (a `--client` value, a `?client=` parameter). */
export function isAgentHostId(value: unknown): value is AgentHostId {
  return typeof value === 'string' && (AGENT_HOST_IDS as readonly string[]).includes(value)
}

/**
 * The host of a request: the one its clientInfo names; else the one the set-up named (`--client`, `?client=`);
 * else UNKNOWN_HOST.
 */
export function agentHostOf(clientName: string | undefined, named?: AgentHostId): AgentHost {
  const byInfo = clientName ? Object.values(AGENT_HOSTS).find((host) => host.clientName?.test(clientName)) : undefined
  return byInfo ?? (named ? AGENT_HOSTS[named] : UNKNOWN_HOST)
}

/** The longest tool name the hosts' model APIs take, the host's prefix included. */
export const TOOL_NAME_LIMIT = 64

/** Every host turns a character outside `[A-Za-z0-9_-]` in a name into `_`. */
const hostSafe = (name: string) => name.replaceAll(/[^A-Za-z0-9_-]/g, '_')

/**
 * What a host puts in front of the tool names of the server it knows as `server`: Gemini CLI (and VS Code)
 * `mcp_<server>_`, Claude Code and Codex (measured) and the others `mcp__<server>__`, the longer form.
 */
export function toolPrefix(host: AgentHostId | undefined, server: string): string {
  return host === 'gemini' || host === 'vscode' ? `mcp_${hostSafe(server)}_` : `mcp__${hostSafe(server)}__`
}

/** Claude Code's prefix for a server a plugin brings: `mcp__plugin_<plugin>_<server>__`. */
export function pluginToolPrefix(plugin: string, server: string): string {
  return `mcp__plugin_${hostSafe(plugin)}_${hostSafe(server)}__`
}

/** Characters per token assumed: code, logs and JSON run denser than prose (about 3 to 4), so the lower end. */
export const CHARS_PER_TOKEN = 3

/** Of a host's limit, what a result may take: the rest is margin for what the host wraps around it. */
const HOST_MARGIN = 0.9

/**
 * A result's budget for this host, in characters (bytes of its JSON, for the structured content): the person's
 * (`--max-result-tokens`) within what the host keeps in front of its model, with the limit a tool's _meta can raise
 * it to where the host reads one (resultMeta says what to send).
 */
export function resultBudget(maxResultTokens: number, host: AgentHost): number {
  const own = maxResultTokens * CHARS_PER_TOKEN
  return Math.min(own, Math.floor((host.resultLimitByMeta ?? host.resultLimit) * HOST_MARGIN))
}

/**
 * The `_meta` a tool carries so the host keeps a result of `budget` in view (Claude Code's maxResultSizeChars: twice
 * the budget, as the host may count the text and structuredContent together), or nothing for a host that reads none.
 */
export function resultMeta(budget: number, host: AgentHost): Record<string, number> {
  if (host.resultLimitByMeta === undefined) return {}
  return {'anthropic/maxResultSizeChars': Math.min(host.resultLimitByMeta, 2 * budget)}
}

const SHOWN: Record<ResultShown, string> = {either: 'not measured (the server fits both)', structured: 'the JSON of structuredContent (text blocks dropped)', text: 'the text blocks'}

/**
 * The table of host facts in docs/hosts.md, made from this table (a test keeps the page equal to it): what each host shows
 * its model, what it keeps, how it offers tools, and where each fact comes from.
 */
export function agentHostsMarkdown(): string {
  const cell = (text: string) => text.replaceAll('|', '\\|')
  const rows = Object.values(AGENT_HOSTS).map((host) => {
    const limit = `${host.resultLimit.toLocaleString('en')}${host.id === 'codex' ? ' bytes' : ' characters'}${host.resultLimitByMeta ? `; up to ${host.resultLimitByMeta.toLocaleString('en')} with \`anthropic/maxResultSizeChars\`` : ''}`
    const result = host.source.startsWith('documented') ? 'not measured (the server keeps below every measured host)' : `${SHOWN[host.shows]}; kept up to ${limit}`
    return `| ${host.label} | ${cell(host.source)} | ${cell(result)} | ${cell(host.words.tools)} | ${cell(host.words.timeouts)} | ${cell(host.words.approval)} | ${cell(host.words.other ?? '')} |`
  })
  return ['| host | facts from | what its model sees of a result | tools | timeouts | approval | other |', '| --- | --- | --- | --- | --- | --- | --- |', ...rows].join('\n')
}
