import {describe, expect, it} from '@jest/globals'

import type {CommandTool} from '../../../src/tools/catalog/registry.js'

import {answerFrom, asksForSecret, avoidingFlags, type FormElicitation, formOf} from '../../../src/tools/execution/command-questions.js'
import {parseQuestion} from '../../../src/tools/execution/prompt-channel.js'

/** The parts of a command tool the question helpers read: its parameters and its flags' definitions. */
function tool(params: CommandTool['input']['params'], flags: Record<string, {description?: string}> = {}): CommandTool {
  return {command: {flags}, input: {params}} as unknown as CommandTool
}

const flag = (name: string, extra: Partial<{env: string; secret: boolean; type: 'boolean' | 'option'}> = {}) => ({allowNo: false, kind: 'flag' as const, multiple: false, name, property: name, secret: false, type: 'option' as const, ...extra})

/** A question that is not a page to open becomes a form. */
const form = (...args: Parameters<typeof formOf>) => formOf(...args) as FormElicitation

describe('a question as a form', () => {
  it('takes the field of its kind, with its default', () => {
    expect(formOf({choices: ['a', 'b'], default: 1, kind: 'select', library: 'x', message: 'Which?'}, '"cli cmd"')).toEqual({
      message: '"cli cmd" asks: Which?',
      requestedSchema: {properties: {answer: {default: 'b', enum: ['a', 'b'], title: 'Choice', type: 'string'}}, required: ['answer'], type: 'object'},
    })
    expect(form({choices: ['a', 'b', 'c'], default: [0, 2], kind: 'checkbox', library: 'x', message: 'Which?'}, 'c').requestedSchema.properties.answer).toEqual({default: ['a', 'c'], items: {enum: ['a', 'b', 'c'], type: 'string'}, title: 'Choices', type: 'array'})
    expect(form({default: true, kind: 'confirm', library: 'x', message: 'Sure?'}, 'c').requestedSchema.properties.answer).toEqual({default: true, title: 'Yes', type: 'boolean'})
    expect(form({default: 3, kind: 'number', library: 'x', message: 'How many?'}, 'c').requestedSchema.properties.answer).toEqual({default: 3, title: 'Number', type: 'number'})
    expect(form({default: 'x', kind: 'text', library: 'x', message: 'Name?'}, 'c').requestedSchema).toEqual({properties: {answer: {default: 'x', title: 'Answer', type: 'string'}}, required: [], type: 'object'})
  })

  it('a page the command opens is a page for the person to open, not a form', () => {
    expect(formOf({kind: 'url', library: 'open', message: 'Open this page in a browser to continue', url: 'https://example.com/login?state=1'}, '"cli login"')).toEqual({
      message: '"cli login" opens a page for you: Open this page in a browser to continue',
      mode: 'url',
      url: 'https://example.com/login?state=1',
    })
    expect(parseQuestion({kind: 'url', library: 'open', message: 'm', url: 'file:///etc/passwd'})).toBeUndefined()
  })

  it('maps the content back to what the command gets, and refuses content that does not answer', () => {
    const select = {choices: ['a', 'b'], kind: 'select' as const, library: 'x', message: 'm'}
    expect(answerFrom(select, {answer: 'b'})).toEqual({value: 1})
    expect(answerFrom(select, {answer: 'z'})).toBeUndefined()
    expect(answerFrom({...select, kind: 'checkbox'}, {answer: ['b', 'a']})).toEqual({value: [1, 0]})
    expect(answerFrom({...select, kind: 'checkbox'}, {answer: ['b', 'q']})).toBeUndefined()
    expect(answerFrom({kind: 'confirm', library: 'x', message: 'm'}, {answer: false})).toEqual({value: false})
    expect(answerFrom({kind: 'confirm', library: 'x', message: 'm'}, {answer: 'maybe'})).toBeUndefined()
    expect(answerFrom({kind: 'number', library: 'x', message: 'm'}, {answer: '42'})).toEqual({value: 42})
    expect(answerFrom({kind: 'number', library: 'x', message: 'm'}, {answer: 'many'})).toBeUndefined()
    expect(answerFrom({default: 'dflt', kind: 'text', library: 'x', message: 'm'}, {})).toEqual({value: 'dflt'})
  })
})

describe('which questions ask for a secret', () => {
  it.each([
    [{kind: 'secret', message: 'Anything'}, true],
    [{kind: 'text', message: 'Your API token'}, true],
    [{kind: 'text', message: 'Password:'}, true],
    [{kind: 'text', message: 'Email', name: 'apiKey'}, true],
    [{kind: 'text', message: 'Project name?'}, false],
    [{kind: 'text', message: 'Enter your GitHub token:'}, true],
    [{kind: 'text', message: 'Paste your token here'}, true],
    [{kind: 'text', message: 'Your one-time code'}, true],
    // A question wrongly taken for a secret only ends the command, naming the flags: the safe side.
    [{kind: 'text', message: 'Token count limit per request?'}, true],
    [{kind: 'text', message: 'Which port?'}, false],
    [{kind: 'confirm', message: 'Rotate the password?'}, false],
  ])('%j → %s', (question, secret) => {
    expect(asksForSecret({library: 'x', ...question} as Parameters<typeof asksForSecret>[0])).toBe(secret)
  })
})

describe('the flags that avoid a question', () => {
  const deploy = tool([flag('environment'), flag('yes', {type: 'boolean'}), flag('dry-run', {type: 'boolean'}), flag('no-wait', {type: 'boolean'}), {kind: 'arg', name: 'app', property: 'app', secret: false}], {'no-wait': {description: 'Do not wait for the deploy.'}})
  it('names the parameters whose names the question uses, and for a yes/no question the flags that skip it', () => {
    expect(avoidingFlags(deploy, {kind: 'select', library: 'x', message: 'Which environment?'})).toEqual(['--environment'])
    expect(avoidingFlags(deploy, {kind: 'text', library: 'x', message: 'Type the app name to confirm'})).toEqual(['<app>'])
    expect(avoidingFlags(deploy, {kind: 'confirm', library: 'x', message: 'Really go on?'})).toEqual(['--yes'])
    expect(avoidingFlags(tool([flag('force', {type: 'boolean'}), flag('quiet', {type: 'boolean'})], {quiet: {description: 'Answer every prompt with its default.'}}), {kind: 'confirm', library: 'x', message: 'Sure?'})).toEqual(['--force', '--quiet'])
  })

  it('names no flag that skips a confirmation when asked not to (the person let it lapse)', () => {
    expect(avoidingFlags(deploy, {kind: 'confirm', library: 'x', message: 'Really go on?'}, false)).toEqual([])
  })

  it('for a secret, the secret flags and the variables they read, nothing else', () => {
    const login = tool([flag('token', {env: 'CLI_TOKEN', secret: true}), flag('user')])
    expect(avoidingFlags(login, {kind: 'secret', library: 'x', message: 'Token for user'})).toEqual(['--token or the environment variable CLI_TOKEN'])
  })
})

describe('what the channel takes as a question', () => {
  it('checks the kind, message and choices, and cuts what is too long', () => {
    expect(parseQuestion({kind: 'select', library: 'x', message: 'm'})).toBeUndefined()
    expect(parseQuestion({kind: 'shell', library: 'x', message: 'm'})).toBeUndefined()
    expect(parseQuestion('text')).toBeUndefined()
    expect(parseQuestion({choices: [1, 'b'], kind: 'select', library: 'x', message: 'm'.repeat(5000)})).toEqual({choices: ['1', 'b'], kind: 'select', library: 'x', message: 'm'.repeat(4000)})
  })
})
