import {type AuthInfo, type McpRequestContext, type McpServer, WebStandardStreamableHTTPServerTransport} from '@modelcontextprotocol/server'

/** A legacy (2025-era) request that asks for progress needs an event stream; anything else gets one JSON body. */
function wantsProgress(body: unknown): boolean {
  const messages = Array.isArray(body) ? body : [body]
  return messages.some((m) => (m as {params?: {_meta?: {progressToken?: unknown}}} | undefined)?.params?._meta?.progressToken !== undefined)
}

/** The response body, passed through, with `done` called once it ends or the client goes away. */
function watchEnd(response: Response, done: () => void): Response {
  const reader = response.body!.getReader()
  let ended = false
  const end = () => {
    if (!ended) {
      ended = true
      done()
    }
  }

  const body = new ReadableStream<Uint8Array>({
    cancel(reason) {
      end()
      return reader.cancel(reason).catch(() => {})
    },
    async pull(controller) {
      try {
        const {done: finished, value} = await reader.read()
        if (finished) {
          end()
          controller.close()
        } else controller.enqueue(value)
      } catch (error) {
        end()
        controller.error(error)
      }
    },
  })
  return new Response(body, {headers: response.headers, status: response.status, statusText: response.statusText})
}

/**
 * Stateless serving of 2025-era requests, as the SDK's own legacy fallback does it, except that the answer is a
 * plain JSON body unless the request asked for progress (the SDK's fallback always streams). Each request gets a
 * fresh server instance from the shared factory; no session id is ever minted.
 */
export function legacyJsonFirst(factory: (context: McpRequestContext, message: unknown) => McpServer): (request: Request, body: unknown, authInfo?: AuthInfo) => Promise<Response> {
  return async (request, body, authInfo) => {
    const server = factory({era: 'legacy', requestInfo: request, ...(authInfo ? {authInfo} : {})}, body)
    const transport = new WebStandardStreamableHTTPServerTransport({enableJsonResponse: !wantsProgress(body), sessionIdGenerator: undefined})
    const teardown = () => {
      transport.close().catch(() => {})
      server.close().catch(() => {})
    }

    try {
      await server.connect(transport)
      request.signal.addEventListener('abort', teardown, {once: true})
      const response = await transport.handleRequest(request, {authInfo, parsedBody: body})
      const streaming = response.body !== null && (response.headers.get('content-type') ?? '').startsWith('text/event-stream')
      if (!streaming) {
        teardown()
        return response
      }

      return watchEnd(response, teardown)
    } catch (error) {
      teardown()
      throw error
    }
  }
}
