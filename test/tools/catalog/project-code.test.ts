import {describe, expect, it} from '@jest/globals'

import {projectCodeReason, runsGivenInputReason} from '../../../src/tools/catalog/project-code.js'

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

describe('runsGivenInputReason: a command that runs what it is given is not read-only', () => {
  it.each([
    // @prismatic-io/prism 10.4 `graphql:query`, which ran a deleteIntegration mutation under --read-only
    'Execute an arbitrary GraphQL query',
    'Run a GraphQL query against the API.',
    'Send raw HTTP requests to the platform API.',
    'Runs any SQL statement against the database.',
    'Evaluate JavaScript in the app context.',
    'Makes an authenticated API request and prints the response.',
  ])('%p', (text) => {
    expect(runsGivenInputReason({flags: [], text})).toMatch(/^its text says it runs what it is given/)
  })

  it('a flag choosing the HTTP method of the request', () => {
    expect(runsGivenInputReason({flags: [{name: 'method', options: ['GET', 'POST', 'DELETE'], type: 'option'}], text: 'Call an endpoint.'})).toBe('flag --method chooses the HTTP method of the request it sends')
    expect(runsGivenInputReason({flags: [{name: 'X', summary: 'HTTP method to use', type: 'option'}], text: 'Call an endpoint.'})).toBe('flag --X chooses the HTTP method of the request it sends')
  })

  it.each([
    // @salesforce/cli `data query`: SOQL only reads
    'Execute a SOQL query.',
    'List the queries saved in the project.',
    'Show the status of the last request.',
    'Display the methods an API offers.',
  ])('not %p', (text) => {
    expect(runsGivenInputReason({flags: [{name: 'query', type: 'option'}, {name: 'method', options: ['sync', 'async'], summary: 'Sorting method.', type: 'option'}], text})).toBeUndefined()
  })
})
