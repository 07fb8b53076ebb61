export {type AuthorConfig, type CommandSettings, parseAuthorConfig, resolveSettings, type Settings} from './settings/settings.js'
export {createServerFactory} from './mcp/factory.js'
export {buildServerPlan, PROTOCOL_REVISIONS, type ServerPlan} from './mcp/plan.js'
export {buildRegistry, type CommandTool, type Registry} from './tools/catalog/registry.js'
