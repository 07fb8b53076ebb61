/** Command-id globs: `tasks:*` matches one level below `tasks`, `tasks:**` any depth. Spaces count as `:`. */
export function idPattern(glob: string): RegExp {
  return new RegExp(`^${globSource(glob)}$`)
}

/** A glob that matches a command by id (`apps:create`, `apps:*`) or by topic (`apps` covers `apps:**`). */
export function idOrTopicPattern(glob: string): RegExp {
  return new RegExp(`^${globSource(glob)}(?::.*)?$`)
}

function globSource(glob: string): string {
  return glob
    .trim()
    .replaceAll(' ', ':')
    .split(/(\*\*|\*)/)
    .map((part) => (part === '**' ? '.*' : part === '*' ? '[^:]*' : part.replaceAll(/[.+?^${}()|[\]\\]/g, '\\$&')))
    .join('')
}
