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
    // a brand of several words before "CLI" (@commercelayer/cli 6.9 `cli:update`), and ids that name it in other spellings
    ['cli:update', '@commercelayer/cli', 'Update Commerce Layer CLI.'],
    ['cli:upgrade', 'mycli', 'Move to the newest release.'],
    ['self-update', 'mycli', 'Replace this program with its newest release.'],
    ['tool update', 'mycli', 'Upgrade the Acme Cloud Platform CLI to the latest version.'],
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
    ['apps:upgrade', 'mycli', 'Upgrade an app to a larger plan.'],
    ['releases:latest', 'mycli', 'Show the latest release.'],
    ['stack:update', 'mycli', 'Update the stack of the Acme CLI project.'],
  ])('%s (%s) does not', (id, pluginName, summary) => {
    expect(selfManagementReason({id, pluginName}, summary)).toBeUndefined()
  })

  it('reads its aliases and what its description says it installs', () => {
    expect(selfManagementReason({aliases: ['upgrade', 'latest'], id: 'cli:refresh', pluginName: '@commercelayer/cli'}, 'Get the newest release.')).toBe('it updates the CLI itself (its alias "upgrade")')
    expect(selfManagementReason({aliases: ['cli:latest'], id: 'refresh', pluginName: 'x'}, 'Get the newest release.')).toBe('it updates the CLI itself (its alias "cli:latest")')
    const description = 'Checks the registry, then runs `npm install --location=global @commercelayer/cli@latest` in a shell.'
    expect(selfManagementReason({description, id: 'refresh', pluginName: 'x'}, 'Get the newest release.')).toMatch(/installs a package globally \("npm install --location=global/)
    // A global install named in passing is not one, nor is a project's own install.
    expect(selfManagementReason({description: 'Runs npm install in the project before building.', id: 'build', pluginName: 'x'}, 'Build the project.')).toBeUndefined()
    expect(selfManagementReason({aliases: ['latest'], id: 'releases:latest', pluginName: 'x'}, 'Show the latest release of an app.')).toBeUndefined()
  })

  it('says who provides it', () => {
    expect(selfManagementReason({id: 'plugins:link', pluginName: '@oclif/plugin-plugins'}, '')).toBe('provided by @oclif/plugin-plugins, which manages the CLI itself')
  })
})
