// Every code this product's errors and refusals carry, once, with what it means: the `code` of an error class, of a
// refused tool call's structuredContent, of an HTTP refusal's body. docs/calls.md lists them (bin/docs-tables.mjs).

export const ERROR_CODES = {
  CONFIRMATION_UNAVAILABLE: "A destructive command needs the person's yes, and this client cannot be asked: nothing ran.",
  HOST_MALFORMED: 'An HTTP request whose Host header is not a host name or address.',
  HOST_NOT_ALLOWED: 'An HTTP request for a host name the server does not answer to (--allowed-host adds one).',
  INVALID_ARGUMENTS: "A call's arguments cannot be given to the command (not JSON, not an object, or a value its command line cannot carry): nothing ran.",
  INVALID_MCP_CONFIG: "The CLI's oclif.mcp settings are not valid: the server does not start.",
  NO_SCHEMA_REPRESENTATION: 'A command whose inputs have no faithful JSON Schema: it is not offered.',
  NOT_CONFIRMED: 'The person declined a destructive command, or did not answer: nothing ran.',
  OAUTH_SETUP: 'The OAuth settings of mcp serve are incomplete or its issuer cannot be used: the server does not start.',
  ORIGIN_NOT_ALLOWED: 'An HTTP request from a browser origin the server does not accept (--allowed-origin adds one).',
  QUESTION_DECLINED: 'A running command asked the person a question, and they declined or cancelled: the command was ended.',
  QUESTION_GONE: 'An answer came back for a command that no longer waits for it (it ended, expired, or runs in another server process): nothing was given to a command.',
  QUESTION_SECRET: 'A running command asked for a secret (a password, a token), which is never asked through a form: the command was ended, and the result names the flag or environment variable that supplies it.',
  QUESTION_UNANSWERED: 'A running command asked a question nobody could answer (the client cannot be asked, the call had become a job, too many questions, no answer in time): the command was ended, and the result names flags that avoid the question.',
  REMOTE_BIND_REFUSED: 'mcp serve asked to listen beyond loopback without --allow-remote and a token or OAuth.',
  STALE_DEFINITION: 'run_command was given a definitionHash that is not the command\'s current one: nothing ran.',
  STATE_STORE_UNAVAILABLE: 'The shared state store (--state) cannot be reached.',
  TOKEN_INVALID: 'An HTTP request with a bearer token that is not the server\'s.',
  TOKEN_REQUIRED: 'An HTTP request without the bearer token (or OAuth access token) the server requires.',
  TOKEN_UNUSABLE: 'The token file of mcp serve cannot be used (missing, empty, or readable by others).',
  UNKNOWN_JOB: 'No job of that id is known to this caller.',
  UNKNOWN_OUTPUT: 'No kept output of that id is known to this caller.',
  UNKNOWN_TOOL: 'mcp call named a tool the server does not have.',
  UNPARSABLE_CLIENT_CONFIG: 'A client config file that cannot be read with certainty: it is left untouched.',
  UNSAFE_CLIENT_CONFIG: 'A client config file or skill folder that is unsafe to write (a link out of the project, another owner, a key given twice): it is left untouched.',
} as const

export type ErrorCode = keyof typeof ERROR_CODES

/** An error of this product: a code from the list, and a message that says what is wrong and what to do. */
export class CodedError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message)
  }
}

/** The codes as a Markdown table (docs/calls.md). */
export function errorCodesMarkdown(): string {
  const rows = Object.entries(ERROR_CODES).map(([code, meaning]) => `| \`${code}\` | ${meaning} |`)
  return ['| code | what it means |', '| --- | --- |', ...rows].join('\n')
}
