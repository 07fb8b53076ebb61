import {isAbsolute, relative, sep} from 'node:path'

/** Whether `path` is `dir` or below it, both given as real paths (a name such as `..x` below `dir` is below it). */
export function isWithin(path: string, dir: string): boolean {
  const rel = relative(dir, path)
  return rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel)
}
