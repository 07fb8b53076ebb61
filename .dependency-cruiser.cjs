/**
 * The dependency direction of src/ (npm test fails on anything else). Data moves one way, and so do imports:
 *
 *   host, settings                      facts about the host CLI; the author's config and the user's flags
 *   ← tools/catalog                     manifest → command tools (names, help text, hints, input schemas)
 *   ← tools/exposure                    the projection: boundary, band, the tools/list entry, search, suggestions
 *   ← tools/records                     what outlives a call: idempotency records, the audit log
 *   ← tools/execution                   the one call pipeline and everything that runs a command
 *   ← tools/builtins                    the server's own tools
 *   ← mcp                               the protocol side: plan, lifecycle, factory, elicitation, stdio, http
 *   clients                             host client configs (JSON, JSONC, TOML, YAML edited in place)
 *   skill                               the Agent Skill: written from the catalog, installed where a client reads it
 *   cli                                 what the oclif commands show and ask at a terminal (mcp tools, mcp call)
 *   pack                                each host's package of the CLI (plugins, extension, bundle, registry entry)
 *   ← commands (and hooks)              the oclif commands; the init hook
 *
 * A module may import from its own folder and from the folders above it, never from below; any may import
 * src/error-codes.ts, the one list of the codes errors and refusals carry. The protocol side knows
 * nothing of child processes: of tools/execution it sees the pipeline, the call environment and the result helpers.
 * Only the production dependencies may be imported by src/ (devDependencies are for tests and benchmarks).
 */
const EXTERNAL = {dependencyTypes: ['core', 'npm', 'type-only']}

/** `from` may import what matches `to`. */
const allow = (from, to) => ({from: {path: from}, to: {path: to}})

module.exports = {
  allowed: [
    {from: {path: '^src/'}, to: EXTERNAL},
    allow('^src/index\\.ts$', '^src/'),
    // The one list of error codes, which every layer's errors and refusals use.
    allow('^src/', '^src/error-codes\\.ts$'),
    allow('^src/host/', '^src/host/'),
    allow('^src/settings/', '^src/settings/'),
    allow('^src/tools/catalog/', '^src/(tools/catalog|settings|host)/'),
    allow('^src/tools/exposure/', '^src/(tools/(catalog|exposure)|settings|host)/'),
    allow('^src/tools/records/', '^src/(tools/(catalog|records)|settings)/'),
    allow('^src/tools/execution/', '^src/(tools/(catalog|exposure|records|execution)|settings|host)/'),
    allow('^src/tools/builtins/', '^src/(tools/(catalog|exposure|records|execution|builtins)|settings|host)/'),
    allow('^src/mcp/', '^src/(mcp|tools/(catalog|exposure|builtins)|tools/execution/(pipeline|call-environment|tool-result)\\.ts$|settings|host)'),
    allow('^src/clients/', '^src/(clients|settings|host)/'),
    allow('^src/skill/', '^src/(skill|clients|tools/(catalog|exposure)|settings|host)/'),
    allow('^src/cli/', '^src/(cli|mcp|tools/(catalog|exposure)|settings|host)/'),
    allow('^src/pack/', '^src/(pack|skill|mcp|clients|tools/(catalog|exposure)|settings|host)/'),
    allow('^src/commands/', '^src/(cli|pack|skill|mcp|clients|settings|host)/'),
    allow('^src/hooks/', '^src/host/'),
  ],
  allowedSeverity: 'error',
  forbidden: [
    {
      comment: 'An import cycle: two modules that need each other are one concern, or one of them holds what both need.',
      from: {},
      name: 'no-cycles',
      severity: 'error',
      to: {circular: true},
    },
  ],
  options: {
    doNotFollow: {path: 'node_modules'},
    // Resolve packages as Node does for ES modules, so their `exports` maps are read.
    enhancedResolveOptions: {conditionNames: ['import', 'node', 'default', 'types'], exportsFields: ['exports'], extensions: ['.ts', '.cts', '.js', '.cjs', '.d.ts']},
    // Type-only imports obey the direction too: a type lives with the module that owns it.
    tsPreCompilationDeps: true,
    tsConfig: {fileName: 'tsconfig.json'},
  },
}
