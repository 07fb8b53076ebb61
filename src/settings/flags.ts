// What a set-up writes into a client's launch line of `mcp stdio`: the server flags it was given (the flags
// themselves are declared in server-options.ts).

/** What launchArguments needs of a flag's definition. */
interface FlagDefinition {
  allowNo?: boolean
  multiple?: boolean
  type: string
}

/**
 * The flags of a server command a set-up writes into its launch line (`mcp config` passes on the server flags it was
 * given): only the flags given, each as the server command parses it — `--name value` (once per value of a repeated
 * flag), `--name` for a boolean set, `--no-name` for one turned off. Paths must already be absolute.
 */
export function launchArguments(given: Readonly<Record<string, unknown>>, definitions: Readonly<Record<string, FlagDefinition>>): string[] {
  return Object.entries(definitions).flatMap(([name, definition]) => {
    const value = given[name]
    if (value === undefined) return []
    if (definition.type === 'boolean') return value ? [`--${name}`] : definition.allowNo ? [`--no-${name}`] : []
    return (Array.isArray(value) ? value : [value]).flatMap((item) => [`--${name}`, String(item)])
  })
}
