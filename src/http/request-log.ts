import type { Logger } from '../lib/log.ts'
import type { RequestRecorder } from './monitoring.ts'

/** The staff user each authenticated request was answered for, noted by http/auth.ts. */
const requestUsers = new WeakMap<Request, number>()

export function noteRequestUser(request: Request, userId: number): void {
  requestUsers.set(request, userId)
}

/**
 * Wraps the app's handler so every request leaves one log line: a generated id (also sent back as
 * `x-request-id`, so a desk's complaint can be matched to its line), method, path without the query
 * string (which may hold a customer's search), status, duration and the user's id when
 * authenticated. Never a header or body: tokens and passwords stay out of the log. The same
 * measurement goes to `recordRequest` (the request metrics, http/monitoring.ts). It adds no await
 * of its own, so the door's answer is not held up.
 */
export function withRequestLog(
  log: Logger,
  handle: (request: Request) => Response | Promise<Response>,
  recordRequest?: RequestRecorder,
): (request: Request) => Promise<Response> {
  return async (request) => {
    const started = performance.now()
    const requestId = crypto.randomUUID()
    const response = await handle(request)
    try {
      response.headers.set('x-request-id', requestId)
    } catch {
      // An immutable response (none of the app's own) goes out without the header.
    }
    const url = request.url
    const pathStart = url.indexOf('/', url.indexOf('//') + 2)
    const queryStart = url.indexOf('?', pathStart)
    const path = pathStart < 0 ? '/' : url.slice(pathStart, queryStart < 0 ? undefined : queryStart)
    const userId = requestUsers.get(request)
    const elapsedMs = performance.now() - started
    log.info('request', {
      request_id: requestId,
      method: request.method,
      path,
      status: response.status,
      duration_ms: Math.round(elapsedMs * 1000) / 1000,
      ...(userId === undefined ? {} : { user_id: userId }),
    })
    recordRequest?.(request.method, path, response.status, elapsedMs / 1000)
    return response
  }
}
