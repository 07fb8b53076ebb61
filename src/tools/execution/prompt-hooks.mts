/**
 * Module hooks (registered by prompt-bridge.cts, run in Node's hook thread): an `import` of a prompt library gets a
 * small module in front of it that re-exports the library with its prompts wrapped by the bridge of the command's
 * own thread. The library itself loads unchanged, from its own file.
 */
const NAMES = /^(?:inquirer|prompts|enquirer|open|@inquirer\/(?:checkbox|confirm|editor|expand|input|number|password|rawlist|search|select))$/
const MARK = 'oclif-mcp-prompt'

interface Resolved {
  format?: null | string
  url: string
}

type NextResolve = (specifier: string, context: unknown) => Promise<Resolved>
type NextLoad = (url: string, context: unknown) => Promise<unknown>

export async function resolve(specifier: string, context: unknown, next: NextResolve): Promise<Resolved & {shortCircuit?: boolean}> {
  const resolved = await next(specifier, context)
  if (!NAMES.test(specifier) || !resolved.url.startsWith('file:')) return resolved
  const url = new URL(resolved.url)
  url.searchParams.set(MARK, specifier)
  return {format: 'module', shortCircuit: true, url: url.href}
}

export async function load(url: string, context: unknown, next: NextLoad): Promise<unknown> {
  const name = url.startsWith('file:') && url.includes(MARK) ? new URL(url).searchParams.get(MARK) : null
  if (!name) return next(url, context)
  const real = new URL(url)
  real.searchParams.delete(MARK)
  const from = JSON.stringify(real.href)
  const source = [
    `import * as real from ${from};`,
    `export * from ${from};`,
    `const bridge = globalThis[Symbol.for('oclif-plugin-mcp/prompt-bridge')];`,
    `const own = 'default' in real ? real.default : undefined;`,
    `export default bridge ? bridge.wrap(${JSON.stringify(name)}, own) : own;`,
  ].join('\n')
  return {format: 'module', shortCircuit: true, source}
}
