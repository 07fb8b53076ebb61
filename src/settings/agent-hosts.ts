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
  /** Characters of a tool description shown up front, where the host cuts them. */
  descriptionChars?: number
  /** Whether it answers elicitation requests (a question put to the person). */
  elicitation: boolean
  id: AgentHostId | 'unknown'
  label: string
  /** The longest tool name the host accepts, its own prefix included (`mcp__<server>__`). */
  nameLimit: number
  /**
   * The protocol revision it speaks, where measured: what a request that does not say (stateless 2025 HTTP sends no
   * handshake, Gemini CLI no MCP-Protocol-Version header) may be answered with (resource links from 2025-06-18).
   */
  protocol?: string
  /** How it names a server's tools before its model, `<server>` and `<tool>` standing for the two names. */
  namePattern?: string
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
}

/** Measured 2026-12-01 by driving each host for whole turns against a loopback stand-in for its model API. */
const MEASURED = (version: string) => `measured on ${version}, driven through its own client and a loopback stand-in for its model API (2026-12-01)`

export const AGENT_HOSTS: Record<AgentHostId, AgentHost> = {
  'claude-code': {
    clientName: /^claude-code$/i,
    descriptionChars: 4096,
    elicitation: true,
    id: 'claude-code',
    label: 'Claude Code',
    nameLimit: 64,
    namePattern: 'mcp__<server>__<tool>',
    protocol: '2026-07-28',
    // Up to 50,000 characters stay in the model's view; a longer result is saved to a file and the model gets a
    // 2,000-character preview. The per-tool _meta key raises the limit and skips the 25,000-token check.
    resultLimit: 50_000,
    resultLimitByMeta: 500_000,
    shows: 'structured',
    source: MEASURED('Claude Code 2.1.332'),
    tools: 'deferred',
  },
  'claude-desktop': {
    clientName: /^claude-ai$/i,
    elicitation: false,
    id: 'claude-desktop',
    label: 'Claude Desktop',
    nameLimit: 64,
    resultLimit: 40_000,
    shows: 'either',
    source: 'documented, not measured here (not on the npm registry): no elicitation',
    tools: 'all',
  },
  codex: {
    clientName: /^codex/i,
    elicitation: true,
    id: 'codex',
    label: 'Codex',
    nameLimit: 64,
    namePattern: 'mcp__<server>__<tool>',
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
  },
  cursor: {
    clientName: /^cursor/i,
    elicitation: false,
    id: 'cursor',
    label: 'Cursor',
    nameLimit: 64,
    resultLimit: 40_000,
    shows: 'either',
    source: 'documented, not measured here (not on the npm registry): offers at most 40 tools',
    toolCap: 40,
    tools: 'capped',
  },
  gemini: {
    clientName: /^gemini-cli/i,
    elicitation: false,
    id: 'gemini',
    label: 'Gemini CLI',
    nameLimit: 64,
    namePattern: 'mcp_<server>_<tool>',
    protocol: '2025-06-18',
    // A result with a single text part is cut at 40,000 characters (its first 8,000 and last 32,000 kept).
    resultLimit: 40_000,
    shows: 'text',
    source: MEASURED('Gemini CLI 0.61.0'),
    tools: 'all',
  },
  goose: {
    elicitation: false,
    id: 'goose',
    label: 'Goose',
    nameLimit: 64,
    resultLimit: 40_000,
    shows: 'either',
    source: 'documented, not measured here (not on the npm registry)',
    tools: 'all',
  },
  vscode: {
    clientName: /^visual studio code/i,
    elicitation: true,
    id: 'vscode',
    label: 'VS Code',
    nameLimit: 64,
    resultLimit: 40_000,
    shows: 'either',
    source: 'documented, not measured here (not on the npm registry): at most 128 tools, grouped past 64',
    toolCap: 128,
    tools: 'capped',
  },
  windsurf: {
    clientName: /^windsurf/i,
    elicitation: false,
    id: 'windsurf',
    label: 'Windsurf',
    nameLimit: 64,
    resultLimit: 40_000,
    shows: 'either',
    source: 'documented, not measured here (not on the npm registry): at most 50 tools',
    toolCap: 50,
    tools: 'capped',
  },
  zed: {
    elicitation: false,
    id: 'zed',
    label: 'Zed',
    nameLimit: 64,
    resultLimit: 40_000,
    shows: 'either',
    source: 'documented, not measured here (not on the npm registry)',
    tools: 'all',
  },
}

/**
 * A host no request and no set-up names: results fit what every known host keeps (the smallest of their limits), in
 * the text and in structuredContent alike; every tool listed up front. Hosts documented but not measured are given
 * the same result limit.
 */
export const UNKNOWN_HOST: AgentHost = {
  elicitation: false,
  id: 'unknown',
  label: 'an unknown host',
  nameLimit: 64,
  resultLimit: 40_000,
  shows: 'either',
  source: 'the smallest limits of the hosts measured',
  tools: 'all',
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
