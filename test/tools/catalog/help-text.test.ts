import type {Command, Config} from '@oclif/core'

import {describe, expect, it} from '@jest/globals'

import {commandSummary, MAX_DESCRIPTION, renderTemplate, toolDescription} from '../../../src/tools/catalog/help-text.js'

const spaced = {bin: 'acme', name: 'acme-cli', topicSeparator: ' ', version: '1.2.3'} as unknown as Config
const colon = {bin: 'acme', name: 'acme-cli', topicSeparator: ':', version: '1.2.3'} as unknown as Config

function command(fields: Record<string, unknown> = {}): Command.Cached {
  return {aliases: [], args: {}, flags: {}, id: 'tasks:add', pluginName: 'acme-cli', ...fields} as unknown as Command.Cached
}

describe('renderTemplate', () => {
  const withMethods = {...spaced, pjson: {oclif: {}}, scopedEnvVarKey: (k: string) => `ACME_${k}`} as unknown as Config

  it.each([
    ['<%= config.bin %> <%= command.id %>', spaced, 'acme tasks add'],
    ['<%= config.bin %> <%= command.id %>', colon, 'acme tasks:add'],
    ['<%- config.bin %>', spaced, 'acme'],
    ['v<%= config.version %> of <%= config.name %>', spaced, 'v1.2.3 of acme-cli'],
    ['<%= command.pluginName %>', spaced, 'acme-cli'],
    ['<%= command.timeout %>', spaced, '30'],
    // As oclif's help renders them (ejs): expressions, methods, the config spread, no HTML escaping.
    ['<%- config.pjson.oclif.examplePlugin || "myplugin" %>', withMethods, 'myplugin'],
    ["<%= config.scopedEnvVarKey('NPM_LOG_LEVEL') %>", withMethods, 'ACME_NPM_LOG_LEVEL'],
    ['<%= bin %>', spaced, 'acme'],
    ['<% if (config.bin) { %>x<% } %>', spaced, 'x'],
    ["<%= 'a & \"b\" <c>' %>", spaced, 'a & "b" <c>'],
    ['no templates here', spaced, 'no templates here'],
    // A template that throws costs its own tag only.
    ['before <%= config.missing.deeper %> after <%= config.bin %>', spaced, 'before  after acme'],
    ['<%= nothing.here %>', spaced, ''],
    ['<% if (x %>broken', spaced, 'broken'],
  ])('%s', (template, config, rendered) => {
    expect(renderTemplate(template, config, command({timeout: 30}))).toBe(rendered)
  })
})

describe('commandSummary', () => {
  it.each([
    ['the summary, rendered', {description: 'Long text.', summary: 'Add a task to <%= config.bin %>.'}, 'Add a task to acme.'],
    ['the first paragraph of the description', {description: 'Add a task.\nIt is saved.\n\nMore detail here.'}, 'Add a task. It is saved.'],
    ['a paragraph break with blank-ish lines', {description: 'First part.\n   \nSecond part.'}, 'First part.'],
    ['whitespace collapsed onto one line', {summary: '  Add\n\ta   task  '}, 'Add a task'],
    ['nothing when there is no text', {}, ''],
  ])('%s', (_, fields, summary) => {
    expect(commandSummary(command(fields), spaced)).toBe(summary)
  })
})

describe('toolDescription', () => {
  describe('text', () => {
    it.each([
      ['falls back to what the command runs', {}, 'Runs "acme tasks add".'],
      ['uses the summary alone', {summary: 'Add a task.'}, 'Add a task.'],
      ['adds the description after the summary', {description: 'Saved in <%= config.bin %>.', summary: 'Add a task.'}, 'Add a task.\n\nSaved in acme.'],
      ['uses a one-paragraph description as the summary', {description: 'Add a task.\nIt is saved.'}, 'Add a task. It is saved.'],
      [
        'keeps the rest of a description that has no summary',
        {description: 'Add a task.\n\nDetails about <%= config.bin %>.\n\nMore details.'},
        'Add a task.\n\nDetails about acme.\n\nMore details.',
      ],
      ['treats an empty summary as a summary', {description: 'Long text.', summary: ''}, 'Runs "acme tasks add".\n\nLong text.'],
    ])('%s', (_, fields, text) => {
      expect(toolDescription(command(fields), spaced)).toBe(text)
    })

    it('shows the id with the CLI\'s own separator in the fallback', () => {
      expect(toolDescription(command(), colon)).toBe('Runs "acme tasks:add".')
    })
  })

  describe('deprecation', () => {
    it.each([
      ['state only', {state: 'deprecated'}, spaced, 'DEPRECATED.'],
      ['a message', {deprecationOptions: {message: 'Use the web app.'}, state: 'deprecated'}, spaced, 'DEPRECATED: Use the web app.'],
      ['a message wins over to/version', {deprecationOptions: {message: 'Gone.', to: 'tasks:new', version: '3.0'}, state: 'deprecated'}, spaced, 'DEPRECATED: Gone.'],
      ['a replacement', {deprecationOptions: {to: 'tasks:new'}, state: 'deprecated'}, spaced, 'DEPRECATED. Use "tasks new" instead.'],
      ['a replacement, colon separator', {deprecationOptions: {to: 'tasks:new'}, state: 'deprecated'}, colon, 'DEPRECATED. Use "tasks:new" instead.'],
      ['a version', {deprecationOptions: {version: '3.0'}, state: 'deprecated'}, spaced, 'DEPRECATED (removed in 3.0).'],
      ['version and replacement', {deprecationOptions: {to: 'tasks:new', version: '3.0'}}, spaced, 'DEPRECATED (removed in 3.0). Use "tasks new" instead.'],
    ])('%s', (_, fields, config, note) => {
      const text = toolDescription(command({...fields, summary: 'Add a task.'}), config)
      expect(text).toBe(`${note}\n\nAdd a task.`)
    })

    it.each([['beta'], [undefined]])('says nothing for state %p', (state) => {
      expect(toolDescription(command({state, summary: 'Add a task.'}), spaced)).toBe('Add a task.')
    })
  })

  describe('examples', () => {
    it('renders string and {command, description} examples under a heading', () => {
      const text = toolDescription(
        command({
          examples: [
            '<%= config.bin %> <%= command.id %> "Buy milk"',
            {command: '<%= config.bin %> <%= command.id %> "Call mum" --due=tomorrow', description: 'with a due date'},
            {command: 'acme tasks add x', description: ''},
          ],
          summary: 'Add a task.',
        }),
        spaced,
      )
      expect(text).toBe(
        [
          'Add a task.',
          '',
          'Examples:',
          '  acme tasks add "Buy milk"',
          '  acme tasks add "Call mum" --due=tomorrow  # with a due date',
          '  acme tasks add x',
        ].join('\n'),
      )
    })

    it('keeps at most three', () => {
      const text = toolDescription(command({examples: ['one', 'two', 'three', 'four', 'five'], summary: 'S.'}), spaced)
      expect(text).toBe('S.\n\nExamples:\n  one\n  two\n  three')
    })

    it('adds no heading when the list is empty', () => {
      expect(toolDescription(command({examples: [], summary: 'S.'}), spaced)).toBe('S.')
    })
  })

  describe('length', () => {
    const longProse = Array.from({length: 300}, (_, i) => `word${i}`).join(' ')

    it.each([
      ['a long description', {description: longProse, summary: 'Add a task.'}],
      ['a long summary', {summary: longProse}],
      ['a long deprecation message', {deprecationOptions: {message: longProse}, state: 'deprecated'}],
      ['long examples', {examples: [longProse, longProse, longProse], summary: 'Add a task.'}],
    ])('is bounded for %s', (_, fields) => {
      const text = toolDescription(command(fields), spaced)
      expect(text.length).toBeLessThanOrEqual(MAX_DESCRIPTION)
      expect(text.length).toBeGreaterThan(MAX_DESCRIPTION - 20)
    })

    it('keeps small examples whole and clips the prose before them', () => {
      const examples = ['acme tasks add "Buy milk"', 'acme tasks add "Call mum" --due=tomorrow']
      const text = toolDescription(command({description: longProse, examples, summary: 'Add a task.'}), spaced)
      expect(text.length).toBeLessThanOrEqual(MAX_DESCRIPTION)
      expect(text.startsWith('Add a task.\n\nword0 word1')).toBe(true)
      expect(text.endsWith(`…\n\nExamples:\n  ${examples[0]}\n  ${examples[1]}`)).toBe(true)
      expect(text).not.toContain('word299')
    })

    it('clips the whole text when the examples are large', () => {
      const bigExample = `acme tasks add ${'x'.repeat(2000)}`
      const text = toolDescription(command({examples: [bigExample], summary: 'Add a task.'}), spaced)
      expect(text.length).toBe(MAX_DESCRIPTION)
      expect(text.startsWith('Add a task.\n\nExamples:\n  acme tasks add xxx')).toBe(true)
      expect(text.endsWith('x…')).toBe(true)
    })

    it('leaves text of exactly the limit alone', () => {
      const summary = 'a'.repeat(MAX_DESCRIPTION)
      expect(toolDescription(command({summary}), spaced)).toBe(summary)
      expect(toolDescription(command({summary: `${summary}b`}), spaced)).toBe(`${'a'.repeat(MAX_DESCRIPTION - 1)}…`)
    })
  })
})
