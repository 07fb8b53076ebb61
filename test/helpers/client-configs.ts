/** A launch line and the JSON entry clients keep for it, as the client-config tests write them. */
export const launch = {args: ['/opt/tb/bin/run.js', 'mcp', 'stdio'], command: '/usr/bin/node'}
export const entry = {command: launch.command, args: launch.args}

/** JSON text as an editor saves it: indented, with a final newline. */
export const json = (value: unknown, indent: number | string = 2) => `${JSON.stringify(value, null, indent)}\n`
