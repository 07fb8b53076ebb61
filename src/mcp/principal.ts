import type {ServerContext} from '@modelcontextprotocol/server'

/**
 * Who a request comes from, when the server knows (OAuth): the subject of its access token (the person), else the
 * client the token was issued to. Undefined without OAuth, where everyone who gets in is one caller.
 */
export function principalOf(ctx: ServerContext): string | undefined {
  const auth = ctx.http?.authInfo
  if (!auth) return undefined
  const subject = auth.extra?.subject
  return typeof subject === 'string' && subject !== '' ? `sub:${subject}` : `client:${auth.clientId}`
}
