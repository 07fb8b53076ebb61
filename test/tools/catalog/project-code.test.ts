import {describe, expect, it} from '@jest/globals'

import {projectCodeReason} from '../../../src/tools/catalog/project-code.js'

const bool = (name: string, allowNo = false) => ({allowNo, name, type: 'boolean'})
const option = (name: string) => ({name, type: 'option'})

describe('projectCodeReason: a flag that turns off a step the command takes by default', () => {
  it.each([
    ['skip-build', 'build'],
    ['no-install', 'install'],
    ['ignore-scripts', 'scripts'],
    ['skip-tests', 'tests'],
    ['without-hooks', 'hooks'],
    ['disable-postinstall', 'postinstall'],
    ['skip_compile', 'compile'],
  ])('--%s', (name, word) => {
    expect(projectCodeReason({flags: [bool(name)], text: ''})).toBe(`flag --${name} turns off a step it takes by default ("${word}")`)
  })

  it('--[no-]install, a flag that allows its negation', () => {
    expect(projectCodeReason({flags: [bool('install', true)], text: ''})).toBe('flag --[no-]install turns off a step it takes by default ("install")')
  })

  it.each([bool('skip-validation'), bool('no-color'), bool('without-style'), bool('skip-cache'), bool('install'), option('skip-build'), bool('dry-run'), bool('color', true)])('not for %p', (flag) => {
    expect(projectCodeReason({flags: [flag], text: ''})).toBeUndefined()
  })
})

describe('projectCodeReason: text that says the command runs the project\'s code', () => {
  it.each([
    'Runs the _zapier-build script before validating.',
    'Validate the app. This first runs your npm scripts.',
    'Check the project: executes the project\'s tests and reports coverage.',
    'Builds the project, then prints what would be uploaded.',
    'Shows the bundle size after compiling the app.',
    'Installs the project\'s dependencies and lists outdated ones.',
    'Evaluates the app config code to print the resolved configuration.',
  ])('%p', (text) => {
    expect(projectCodeReason({flags: [], text})).toMatch(/^its text says it runs the project's code/)
  })

  it.each([
    "When you run 'sf logic run test' to test Apex classes and Flows asynchronously, it returns a test run ID.",
    'Use `mycli build` to build the project first.',
    'Lists the scripts you can run.',
    'Shows which hooks run on deploy.',
    'Displays the status of the last build.',
    'Get the results of a test run. Use the --code-coverage flag to see coverage for each test method run.',
  ])('not %p', (text) => {
    expect(projectCodeReason({flags: [], text})).toBeUndefined()
  })
})
