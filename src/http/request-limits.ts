import { ApiError } from './errors.ts'

/**
 * The longest request target (path and query) the API reads. No list's filters come near it; a
 * longer one is 414 with a JSON body before routing.
 */
export const MAX_URL_BYTES = 8 * 1024

/** The most the request's header fields may add up to (names, values, separators); else 431. */
export const MAX_HEADER_BYTES = 16 * 1024

/**
 * What the server itself reads of a request's head before answering a bare 431 on its own. Larger
 * than both limits above, so that a request over them still reaches the app and gets a JSON body.
 * The executable is built with it (build/build.ts); a test checks the two agree.
 */
export const SERVER_HEADER_READ_LIMIT_BYTES = 64 * 1024

export const uriTooLong = () => new ApiError(414, { detail: 'Request URL is too long.' })
export const headerFieldsTooLarge = () =>
  new ApiError(431, { detail: 'Request header fields are too large.' })

/** The 414 or 431 a request's head deserves, if any. */
export function requestHeadError(request: Request): ApiError | undefined {
  const url = request.url
  const pathStart = url.indexOf('/', url.indexOf('//') + 2)
  if (pathStart >= 0 && url.length - pathStart > MAX_URL_BYTES) return uriTooLong()
  let headerBytes = 0
  request.headers.forEach((value, name) => {
    headerBytes += name.length + value.length + 4 // ": " and CRLF
  })
  if (headerBytes > MAX_HEADER_BYTES) return headerFieldsTooLarge()
  return undefined
}
