import type {Param} from './schema.js'

export class ArgvError extends Error {
  readonly code = 'INVALID_ARGUMENTS'
}

function scalar(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value)
}

/**
 * Tool input → the command line after the command id. Flags are passed as `--name=value`, so a value can never be
 * read as another flag; `--` ends the flags, and every positional comes after it.
 */
export function buildArgv(params: readonly Param[], input: Readonly<Record<string, unknown>>, json: boolean): string[] {
  const flags: string[] = []
  const positionals: string[] = []
  let missingArg: string | undefined

  for (const param of params) {
    const value = input[param.property]
    if (param.kind === 'flag') {
      if (value === undefined) continue
      if (param.type === 'boolean') {
        if (value === true) flags.push(`--${param.name}`)
        else if (param.allowNo) flags.push(`--no-${param.name}`)
        continue
      }

      for (const item of param.multiple ? (value as unknown[]) : [value]) flags.push(`--${param.name}=${scalar(item)}`)
    } else if (param.kind === 'arg') {
      if (value === undefined) {
        missingArg ??= param.property
        continue
      }

      if (missingArg) throw new ArgvError(`"${param.property}" was given but "${missingArg}", which comes before it, was not.`)
      positionals.push(scalar(value))
    } else if (value !== undefined) {
      if (missingArg && (value as unknown[]).length > 0) {
        throw new ArgvError(`"${param.property}" was given but "${missingArg}", which comes before it, was not.`)
      }

      positionals.push(...(value as unknown[]).map(scalar))
    }
  }

  if (json) flags.push('--json')
  return positionals.length > 0 ? [...flags, '--', ...positionals] : flags
}
