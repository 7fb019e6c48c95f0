import { notFound } from './errors.ts'
import { jsonResponse } from './error-handler.ts'
import { NO_SNIFF } from './security-headers.ts'

/**
 * The most path segments a request may have. No route of the API has half as many; a longer path
 * is 404 (see `rawPathRoutes`).
 */
export const MAX_PATH_SEGMENTS = 16

type Fetch = (request: Request) => Response | Promise<Response>

const notFoundResponse = () => jsonResponse(404, notFound().body, NO_SNIFF)

/**
 * The server builds `request.url` as `http://` and the Host header (any host: `pi`, `[::1]:8080`);
 * from a Host that names no host (empty, or with a space, a slash, `?`, `#` or `@` in it) it cannot
 * build one, and the request arrives with its path alone, which no route or URL of the API can be
 * made from. It is 400, as HTTP asks of a Host that is not a valid host.
 */
const hasNoHost = (request: Request) => !request.url.startsWith('http://')
const invalidHostResponse = () => jsonResponse(400, { detail: 'Invalid Host header.' }, NO_SNIFF)

/**
 * A segment that the URL parser would fold into its neighbours: `.`, `..` (also spelled `%2e`), one
 * with an encoded slash (`%2f`), or one with a backslash (read as a slash).
 */
export const isFoldedSegment = (segment: string) =>
  segment === '.' || segment === '..' || segment.includes('/') || segment.includes('\\')

/**
 * The server's routes that see the path as the client sent it. `request.url` has its dot segments
 * already resolved (`/api/customers/5/alerts/%2e%2e/` reads as `/api/customers/5/`), so a client
 * could reach a record the path does not name; the server's own route table matches the raw path
 * instead, one pattern per number of segments, and its parameters carry each raw segment, decoded.
 * A path with such a segment is 404, as a non-numeric id is; any other goes on to `fetch`.
 */
export function rawPathRoutes(
  fetch: Fetch,
): Record<string, (request: Request) => Response | Promise<Response>> {
  const guarded = (request: Request) => {
    if (hasNoHost(request)) return invalidHostResponse()
    const params = (request as Request & { params?: Record<string, string> }).params ?? {}
    for (const segment of Object.values(params)) {
      if (isFoldedSegment(segment)) return notFoundResponse()
    }
    return fetch(request)
  }
  const routes: Record<string, (request: Request) => Response | Promise<Response>> = {}
  let pattern = ''
  for (let i = 0; i < MAX_PATH_SEGMENTS; i++) {
    pattern += `/:s${i}`
    routes[pattern] = guarded
    routes[`${pattern}/`] = guarded
  }
  return routes
}

/**
 * What the server answers for a path no pattern of `rawPathRoutes` matched: the root goes on to
 * `fetch`; any other (an empty segment, more than MAX_PATH_SEGMENTS) names no resource and is 404.
 */
export function rawPathFallback(fetch: Fetch): Fetch {
  return (request) => {
    if (hasNoHost(request)) return invalidHostResponse()
    return new URL(request.url).pathname === '/' ? fetch(request) : notFoundResponse()
  }
}
