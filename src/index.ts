export {type AuthorConfig, type CommandSettings, parseAuthorConfig, resolveSettings, type Settings} from './config.js'
export {buildServerPlan, PROTOCOL_REVISIONS} from './mcp/plan.js'
export {createServerFactory, type ServerPlan} from './mcp/server.js'
export {buildRegistry, type CommandTool, type Registry} from './tools/registry.js'
