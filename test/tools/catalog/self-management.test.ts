import {describe, expect, it} from '@jest/globals'

import {selfManagementReason} from '../../../src/tools/catalog/self-management.js'

describe('selfManagementReason', () => {
  // Cases from the published CLIs of the corpus (test/corpus): heroku, @salesforce/cli, @shopify/cli, twilio-cli.
  it.each<[string, string, string]>([
    // by the plugin that provides it, whatever its id
    ['plugins:link', '@oclif/plugin-plugins', 'Links a plugin into the CLI for development.'],
    ['plugins', '@oclif/plugin-plugins', 'List installed plugins.'],
    ['update', '@oclif/plugin-update', 'update the heroku CLI'],
    ['autocomplete:create', '@oclif/plugin-autocomplete', 'create autocomplete setup scripts and completion functions'],
    ['node:info', '@salesforce/plugin-trust', 'Returns the path to node and npx files bundled by the Salesforce CLI.'],
    // bundled (shopify reports every command as @shopify/cli's) or vendored (heroku's own autocomplete)
    ['plugins:install', '@shopify/cli', 'Installs a plugin into shopify.'],
    ['plugins:available', 'twilio-cli', 'list available plugins for installation'],
    ['autocomplete:script', 'heroku', 'display autocomplete setup script for shell'],
    ['upgrade', '@shopify/cli', 'Upgrades Shopify CLI.'],
    // by what its summary says it does
    ['config:autoupgrade:on', '@shopify/cli', 'Enable automatic upgrades for Shopify CLI.'],
    ['cli:reinstall', 'mycli', 'Reinstalls the CLI from scratch.'],
  ])('%s (%s) manages the CLI', (id, pluginName, summary) => {
    expect(selfManagementReason({id, pluginName}, summary)).toEqual(expect.any(String))
  })

  it.each<[string, string, string]>([
    ['addons:upgrade', 'heroku', 'change add-on plan.'],
    ['pg:upgrade:run', 'heroku', 'starts a Postgres version upgrade'],
    ['package:install', '@salesforce/plugin-packaging', 'Install or upgrade a version of a package in the target org.'],
    ['hydrogen:upgrade', '@shopify/cli', 'Upgrade Remix and Hydrogen npm dependencies.'],
    ['auth:token', 'heroku', 'outputs current CLI authentication token.'],
    ['cache:clear', '@shopify/cli', 'Clear the CLI cache, used to store some API responses and handle notifications status'],
    ['apps:update', 'mycli', 'Update an app.'],
    ['config:set', 'twilio-cli', 'update Twilio CLI configurations'],
    ['which', '@oclif/plugin-which', 'Show which plugin a command is in.'],
  ])('%s (%s) does not', (id, pluginName, summary) => {
    expect(selfManagementReason({id, pluginName}, summary)).toBeUndefined()
  })

  it('says who provides it', () => {
    expect(selfManagementReason({id: 'plugins:link', pluginName: '@oclif/plugin-plugins'}, '')).toBe('provided by @oclif/plugin-plugins, which manages the CLI itself')
  })
})
