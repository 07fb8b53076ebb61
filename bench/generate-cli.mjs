// A plain oclif CLI of `count` commands, written as package.json + oclif.manifest.json (no command files: the
// registry works from the manifest alone). A small port of test/fixtures/generate-cli.ts, sized for benchmarks.
import {writeFileSync} from 'node:fs'
import {join} from 'node:path'

const TOPICS = ['apps', 'org', 'data', 'project', 'package', 'sobject', 'schema', 'limits', 'community', 'agent', 'flow', 'lightning']
const SUBTOPICS = ['config', 'metadata', 'record', 'user', 'field', 'permission-set', 'sandbox', 'source']
const VERBS = ['list', 'create', 'delete', 'update', 'display', 'deploy', 'retrieve', 'open', 'get', 'set', 'report', 'generate']
const VERB_TEXT = {
  create: 'Create a new', delete: 'Delete a', deploy: 'Deploy a', display: 'Display details of a', generate: 'Generate a',
  get: 'Get one', list: 'List every', open: 'Open in a browser the', report: 'Report the status of a', retrieve: 'Retrieve a',
  set: 'Set a value on a', update: 'Update a',
}

function flag(name, type, summary, extra = {}) {
  return {hasDynamicHelp: false, multiple: false, name, summary, type, ...extra}
}

function command(id, i) {
  const parts = id.split(':')
  const verb = parts.at(-1)
  const subject = parts.slice(0, -1).join(' ')
  const flags = {
    'api-version': flag('api-version', 'option', 'Override the API version used for API requests made by this command.'),
    json: {allowNo: false, name: 'json', summary: 'Format output as json.', type: 'boolean'},
    'target-org': flag('target-org', 'option', 'Username or alias of the target org.', {char: 'o'}),
  }
  if (i % 3 === 0) flags.verbose = {allowNo: false, name: 'verbose', summary: 'Show more detail.', type: 'boolean'}
  if (i % 5 === 0) flags['result-format'] = flag('result-format', 'option', 'Format of the results.', {options: ['human', 'csv', 'json']})
  if (i % 7 === 0) flags.limit = flag('limit', 'option', 'Most records to return.', {default: 50})
  return {
    aliases: [],
    args: i % 2 === 0 ? {name: {description: 'Name of the record.', name: 'name'}} : {},
    description: `${VERB_TEXT[verb]} ${subject} in the target org.\n\nMentions <%= config.bin %> and other details only a careful reader needs.`,
    enableJsonFlag: true,
    examples: [`<%= config.bin %> <%= command.id %> --target-org me@example.com`],
    flags,
    hasDynamicHelp: false,
    hidden: false,
    hiddenAliases: [],
    id,
    isESM: true,
    pluginAlias: 'bench-cli',
    pluginName: 'bench-cli',
    pluginType: 'core',
    strict: true,
    summary: `${VERB_TEXT[verb]} ${subject}.`,
  }
}

/** Ids topic:verb, topic:sub:verb, topic:sub:sub2:verb … in a fixed order until there are `count`. */
function ids(count) {
  const out = []
  const push = (id) => out.length < count && out.push(id)
  for (const topic of TOPICS) for (const verb of VERBS) push(`${topic}:${verb}`)
  for (const topic of TOPICS) for (const sub of SUBTOPICS) for (const verb of VERBS) push(`${topic}:${sub}:${verb}`)
  for (const topic of TOPICS) for (const sub of SUBTOPICS) for (const deep of SUBTOPICS) for (const verb of VERBS) push(`${topic}:${sub}:${deep}:${verb}`)
  return out
}

export function generateCli(root, count) {
  const commands = Object.fromEntries(ids(count).map((id, i) => [id, command(id, i)]))
  const pjson = {bin: {bench: './bin/run.js'}, name: 'bench-cli', oclif: {bin: 'bench', commands: './commands', topicSeparator: ' '}, private: true, type: 'module', version: '1.0.0'}
  writeFileSync(join(root, 'package.json'), JSON.stringify(pjson, null, 2))
  writeFileSync(join(root, 'oclif.manifest.json'), JSON.stringify({commands, version: '1.0.0'}))
  return Object.keys(commands)
}
