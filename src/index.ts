export {type AuthorConfig, type CommandSettings, parseAuthorConfig, resolveSettings, type Settings} from './settings/settings.js'
export {buildServerPlan, PROTOCOL_REVISIONS} from './mcp/plan.js'
export {createServerFactory, type ServerPlan} from './mcp/factory.js'
export {buildRegistry, type CommandTool, type Registry} from './tools/catalog/registry.js'
