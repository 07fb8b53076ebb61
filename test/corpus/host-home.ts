import {mkdirSync} from 'node:fs'
import {join} from 'node:path'

/** Under `base`: a project directory and a HOME of its own for a host, with Claude Code kept offline and quiet. */
export function hostScratch(base: string): {env: Record<string, string>; project: string} {
  const project = join(base, 'project')
  mkdirSync(project, {recursive: true})
  const home = join(base, 'home')
  mkdirSync(home, {recursive: true})
  const env = {
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_AUTOUPDATER: '1',
    HOME: home,
    PATH: process.env.PATH ?? '',
    XDG_CACHE_HOME: join(home, 'cache'),
    XDG_CONFIG_HOME: join(home, 'config'),
    XDG_DATA_HOME: join(home, 'data'),
  }
  return {env, project}
}
