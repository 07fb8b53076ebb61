import {describe, expect, it} from '@jest/globals'

import type {ToolAnnotationSettings} from '../../../src/settings/author-config.js'

import {classifyCommand, type Hints, resolveHints, SPEC_DEFAULTS, summaryVerb, writingFlagReason} from '../../../src/tools/catalog/hints.js'

const READ: Hints = {destructiveHint: false, idempotentHint: true, openWorldHint: true, readOnlyHint: true}
const DESTROY: Hints = {destructiveHint: true, idempotentHint: false, openWorldHint: true, readOnlyHint: false}
const DESTROY_IDEMPOTENT: Hints = {...DESTROY, idempotentHint: true}
const WRITE: Hints = {destructiveHint: false, idempotentHint: false, openWorldHint: true, readOnlyHint: false}
const WRITE_IDEMPOTENT: Hints = {...WRITE, idempotentHint: true}

const hints = (id: string, summary = '', isTopicIndex = false) => classifyCommand({id, isTopicIndex, summary}).hints

describe('SPEC_DEFAULTS', () => {
  it('is the conservative reading of the MCP specification', () => {
    expect(SPEC_DEFAULTS).toEqual({destructiveHint: true, idempotentHint: false, openWorldHint: true, readOnlyHint: false})
  })
})

describe('classifyCommand: the id', () => {
  it.each([
    ['tasks:list', READ],
    ['tasks:show', READ],
    ['apps:info', READ],
    ['logs', READ],
    ['org:display', READ],
    ['whoami', READ],
    ['org:list:users', READ],
    ['org:auth:show-access-token', READ],
    ['version', READ],
    ['apps:destroy', DESTROY],
    ['tasks:delete', DESTROY],
    ['cache:purge', DESTROY],
    ['db:reset', DESTROY],
    ['config:unset', DESTROY_IDEMPOTENT],
    ['env:remove-var', DESTROY],
    ['tasks:add', WRITE],
    ['apps:create', WRITE],
    ['project:deploy', WRITE],
    ['config:set', WRITE_IDEMPOTENT],
    ['tasks:done', WRITE_IDEMPOTENT],
    ['features:enable', WRITE_IDEMPOTENT],
    ['app:dev', WRITE],
    ['agent:preview:end', WRITE],
    ['tasks list', READ],
    ['Tasks:LIST', READ],
  ])('%s', (id, expected) => {
    expect(hints(id)).toEqual(expected)
  })

  it.each([
    // a word that writes anywhere in the id outweighs a read at its end ("id words lie")
    ['project:deploy:report', WRITE],
    ['delete:version', DESTROY],
    ['config:set:log', WRITE_IDEMPOTENT],
    ['apps:destroy:status', DESTROY],
    ['package:version:create:list', WRITE],
    ['org:delete:scratch', DESTROY],
    ['tasks:list:delete', DESTROY],
  ])('%s: conflicting words are not read-only', (id, expected) => {
    expect(hints(id)).toEqual(expected)
  })

  it.each([
    // a compound word is not its last part
    'pg:settings:log-statement',
    'pg:settings:log-lock-waits',
    'pg:vacuum-stats',
    // a noun that names a read counts only at the end
    'package:version:displaydependencies',
    'frobnicate',
    'tasks:frobnicate',
    'listing:things',
    '',
  ])('%p says nothing that makes it read-only', (id) => {
    expect(hints(id).readOnlyHint).toBe(false)
  })
})

describe('classifyCommand: the summary', () => {
  it.each([
    ['apex:tail:log', 'Activate debug logging and display logs in the terminal.', WRITE],
    ['logs', 'Delete the old logs.', DESTROY],
    ['theme:info', 'Displays information about your theme environment.', READ],
    ['data:query', 'Execute a SOQL query.', READ],
    ['apps:info', '', READ],
  ])('%s: %p', (id, summary, expected) => {
    expect(hints(id, summary)).toEqual(expected)
  })

  it('alone makes a command read-only only when it plainly shows and no flag writes', () => {
    const classify = (id: string, summary: string, writingFlags = false) => classifyCommand({id, summary, writingFlags})
    // No word of the id says what it does: a plain "show", "list", "display", "print"... decides, unless a flag writes.
    for (const [id, summary] of [['pg:vacuum-stats', 'show dead rows'], ['balance', 'Display your account balance'], ['os:versions', 'Show available balenaOS versions for the given device type'], ['settings', 'Print current settings']]) {
      expect(classify(id, summary)).toEqual({evidence: ['no word of the id says what it does', expect.stringMatching(/^summary begins with "\w+" \(read\)$/), 'no flag writes'], hints: READ, source: 'summary'})
      expect(classify(id, summary, true).hints).toEqual(SPEC_DEFAULTS)
    }

    // A reading verb that is not plain ("check", "validate", "analyze") is not enough on its own.
    for (const summary of ['Check the balance.', 'Validate the schema.', 'Analyze the project.']) expect(classify('balance', summary).hints).toEqual(SPEC_DEFAULTS)
  })

  it('reads a topic that could be a verb as a noun when the last id word reads and the summary plainly shows', () => {
    const classify = (id: string, summary: string, writingFlags = false) => classifyCommand({id, summary, writingFlags})
    expect(classify('release:list', 'List all releases')).toEqual({evidence: ['id word "list" reads', '"release" before it names the topic', 'summary begins with "list" (read)', 'no flag writes'], hints: READ, source: 'summary'})
    for (const id of ['tag:list', 'load-balancer:list', 'deploy:logs']) expect(classify(id, 'Show them.').hints).toEqual(READ)
    // Not when a flag writes, the summary does not plainly read, a word destroys, or the reading word is not the last.
    expect(classify('release:list', 'List all releases', true).hints).toEqual(WRITE)
    expect(classify('project:deploy:validate', 'Validate a deployment without running it.').hints).toEqual(WRITE)
    expect(classify('project:deploy:report', 'Check the status of a deploy.').hints).toEqual(WRITE)
    expect(classify('delete:list', 'List what it deletes.').hints).toEqual(DESTROY)
    expect(classify('list:create', 'Show the new list.').hints).toEqual(WRITE)
  })

  it('reads "cancel" as destroying: a cancelled order, number or deploy is given up', () => {
    expect(hints('numbers:cancel', 'Cancel a number.')).toEqual(DESTROY)
    expect(hints('subscription', 'Cancel the subscription.')).toEqual(DESTROY)
  })

  it.each<[string, string, Hints]>([
    // a topic index is read-only only when its summary says it reads
    ['apps', 'list your apps', READ],
    ['config', 'display the config vars for an app', READ],
    ['local', 'run heroku app locally', WRITE],
    ['hydrogen:setup', 'Scaffold routes and core functionality.', WRITE],
    ['store:auth', 'Authenticate an app against a store for store commands.', WRITE],
    ['config', 'CLI config settings', SPEC_DEFAULTS],
    ['apps', '', SPEC_DEFAULTS],
  ])('topic index %s: %p', (id, summary, expected) => {
    expect(hints(id, summary, true)).toEqual(expected)
  })

  it.each([
    ['Lists your add-ons.', 'list', 'read'],
    ['Upgrades Shopify CLI.', 'upgrade', 'write'],
    ['EXPERIMENTAL: Upgrades the project to use Vite.', 'upgrade', 'write'],
    ['Automatically fix offenses', 'fix', 'write'],
    ['Applies JSON overrides to a theme.', 'apply', 'write'],
    ['Removes a plugin from the CLI.', 'remove', 'destructive'],
    ['Pushes the theme.', 'push', 'write'],
    ['Uses the app URL.', 'use', 'write'],
    ['Shopify CLI version currently installed.', 'shopify', undefined],
  ])('the verb of %p', (summary, word, kind) => {
    expect(summaryVerb(summary)).toEqual({kind, word})
  })

  it('says what decided, in words', () => {
    expect(classifyCommand({id: 'apps:info', summary: 'show detailed app information'}).evidence).toEqual([
      'id word "info" reads',
      'summary begins with "show" (read)',
    ])
    expect(classifyCommand({id: 'project:deploy:report', summary: 'Check the status.'}).evidence).toEqual([
      'id word "report" reads',
      'id word "deploy" writes',
      'summary begins with "check" (read)',
    ])
  })
})

describe('resolveHints: the author', () => {
  const resolve = (id: string, layers: (ToolAnnotationSettings | undefined)[]) => {
    const {hints, source} = resolveHints({id, summary: ''}, layers)
    return {hints, source}
  }

  it.each<[string, string, (ToolAnnotationSettings | undefined)[], Hints & {title?: string}, string]>([
    ['no verb, no layers', 'tasks:frobnicate', [], SPEC_DEFAULTS, 'default'],
    ['verb, no layers', 'tasks:list', [], READ, 'verb'],
    ['empty layers do not count', 'tasks:list', [undefined, {}], READ, 'verb'],
    ['a layer of only undefined keys does not count', 'tasks:list', [{readOnlyHint: undefined}], READ, 'verb'],
    ['author overrides the verb', 'tasks:add', [{idempotentHint: true}], WRITE_IDEMPOTENT, 'author'],
    ['author overrides the defaults', 'x:y', [{destructiveHint: false, openWorldHint: false}], {...SPEC_DEFAULTS, destructiveHint: false, openWorldHint: false}, 'author'],
    ['a title passes through', 'tasks:list', [{title: 'List tasks'}], {...READ, title: 'List tasks'}, 'author'],
    ['later layers win', 'tasks:add', [{idempotentHint: true, openWorldHint: false}, {idempotentHint: false}], {...WRITE, openWorldHint: false}, 'author'],
    ['read-only implies not destructive', 'apps:destroy', [{readOnlyHint: true}], READ, 'author'],
    ['read-only implies idempotent unless said otherwise', 'x:y', [{idempotentHint: false, readOnlyHint: true}], {...READ, idempotentHint: false}, 'author'],
    ['read-only beats destructive in a later layer', 'x:y', [{readOnlyHint: true}, {destructiveHint: true}], READ, 'author'],
    ['a later layer can take read-only back', 'tasks:list', [{readOnlyHint: false}], {...READ, readOnlyHint: false}, 'author'],
  ])('%s', (_, id, layers, expected, source) => {
    expect(resolve(id, layers)).toEqual({hints: expected, source})
  })

  it('says the author decided', () => {
    expect(resolveHints({id: 'x:y', summary: ''}, [{readOnlyHint: true}]).evidence.at(-1)).toBe('the CLI author set annotations')
  })

  it('never changes SPEC_DEFAULTS', () => {
    resolveHints({id: 'x:y', summary: ''}, [{readOnlyHint: true}])
    expect(SPEC_DEFAULTS).toEqual({destructiveHint: true, idempotentHint: false, openWorldHint: true, readOnlyHint: false})
  })
})

describe('writingFlagReason', () => {
  // Flags of read-only commands in the published CLIs of the corpus (test/corpus).
  it.each([
    [{name: 'clean', summary: 'Remove all local org authorizations for non-active scratch orgs.', type: 'boolean'}],
    [{name: 'auto-correct', summary: 'Automatically fix offenses', type: 'boolean'}],
    [{name: 'init', summary: 'Generate a .theme-check.yml file', type: 'boolean'}],
    [{name: 'reset', summary: 'Reset all your settings.', type: 'boolean'}],
    [{name: 'output-file', summary: 'File where records are written.', type: 'option'}],
    [{name: 'output-dir', summary: 'Directory for saving the log files.', type: 'option'}],
    [{name: 'results-dir', summary: 'Where the results go.', type: 'option'}],
    [{name: 'save-output', summary: 'The output file name.', type: 'option'}],
    [{name: 'result-format', summary: 'Format to display the results, or to write to disk if you specify "csv".', type: 'option'}],
    [{name: 'command', summary: 'Command to run in debug mode.', type: 'option'}],
    [{name: 'start-cmd', summary: 'command to run as web when no Procfile is present', type: 'option'}],
    [{name: 'force', summary: 'Overwrites the destination.', type: 'boolean'}],
  ])('%p writes', (flag) => {
    expect(writingFlagReason(flag)).toEqual(expect.any(String))
  })

  it.each([
    [{name: 'flags-dir', summary: 'Import flag values from a directory.', type: 'option'}],
    [{name: 'use-tooling-api', summary: 'Use Tooling API so you can retrieve a record.', type: 'boolean'}],
    [{name: 'result-format', summary: 'Format of the test results.', type: 'option'}],
    [{name: 'all-rows', summary: 'Include deleted records. By default, deleted records are not returned.', type: 'boolean'}],
    [{name: 'start-date', summary: 'Only show log events on or after this date', type: 'option'}],
    [{name: 'test-run-id', summary: 'ID of the test run.', type: 'option'}],
    [{name: 'no-update', summary: 'Uses the app URL from the toml file instead.', type: 'boolean'}],
    [{name: 'skip-trace-flag', summary: 'Skip trace flag setup.', type: 'boolean'}],
    [{name: 'dry-run', summary: 'Show what would be deleted.', type: 'boolean'}],
    [{name: 'file', summary: 'File that contains the SOQL query.', type: 'option'}],
    [{name: 'output', summary: 'The output format to use', type: 'option'}],
    [{name: 'tail', summary: 'continually stream logs', type: 'boolean'}],
  ])('%p does not', (flag) => {
    expect(writingFlagReason(flag)).toBeUndefined()
  })
})

describe('classifyCommand: what the text says past its first verb', () => {
  const classify = (facts: Partial<Parameters<typeof classifyCommand>[0]> & {id: string}) => classifyCommand({summary: '', ...facts})

  it('a writing command whose text says it overwrites, wipes, resets or cannot be undone destroys', () => {
    for (const details of ['Uploads the theme, overwriting the remote files.', 'This cannot be undone.', 'Flash the image to the drive.', 'Deactivate the key and reset the config file.']) {
      const found = classify({details, id: 'theme:push', summary: 'Push the theme.'})
      expect(found.hints).toEqual(DESTROY)
      expect(found.evidence.at(-1)).toMatch(/^its text says "/)
    }

    // A command that reads stays read-only whatever its text mentions ("Show what would be overwritten").
    expect(classify({details: 'Shows what a push would overwrite.', id: 'theme:diff', summary: 'Show the changes.'}).hints).toEqual(READ)
  })

  it('a plain reading summary is not enough when the text offers to change things or an argument gives a value to set', () => {
    expect(classify({id: 'device:local-mode', summary: 'Get or manage the local mode status for a device.'}).hints).toEqual(SPEC_DEFAULTS)
    expect(classify({details: 'Also used to change what is collected.', id: 'analytics', summary: 'Show the status of the analytics.'}).hints).toEqual(SPEC_DEFAULTS)
    expect(classify({argumentNames: ['database', 'value'], id: 'pg:settings:log-statement', summary: 'displays the statements logged'}).hints).toEqual(SPEC_DEFAULTS)
    expect(classify({id: 'local:token', summary: "Prints the user's auth token and copies it to the clipboard."}).hints).toEqual(SPEC_DEFAULTS)
    expect(classify({argumentNames: ['database'], id: 'pg:bloat', summary: 'show table and index bloat in your database'}).hints).toEqual(READ)
    expect(classify({id: 'apps:recent', summary: 'List the apps created this week.'}).hints).toEqual(READ)
  })
})

describe('writingFlagReason: switches', () => {
  it('a flag that only switches state on or off writes; a longer name with such a word does not', () => {
    expect(writingFlagReason({name: 'enable', type: 'boolean'})).toBe('it switches what the command shows ("enable")')
    expect(writingFlagReason({name: 'disable', type: 'boolean'})).toBe('it switches what the command shows ("disable")')
    expect(writingFlagReason({name: 'disable-masking', type: 'boolean'})).toBeUndefined()
  })
})
