/**
 * The session login's cookies. `sessionid` holds the session's key: HttpOnly, so the page's scripts
 * cannot read it. `csrftoken` holds the CSRF token the page sends back in `X-CSRFToken`: readable
 * by scripts, as Django's. Both are browser-session cookies (no Max-Age: closing the browser
 * forgets them; the box ends the session itself after its idle time and maximum age), `Path=/`,
 * `SameSite=Lax`, and `Secure` when the box's public URL is https.
 */

export const SESSION_COOKIE = 'sessionid'
export const CSRF_COOKIE = 'csrftoken'

const attributes = (publicUrl: string | null, httpOnly: boolean) => [
  'Path=/',
  ...(httpOnly ? ['HttpOnly'] : []),
  'SameSite=Lax',
  ...(publicUrl?.startsWith('https:') ? ['Secure'] : []),
]

const cookie = (name: string, value: string, extra: string[]) => [`${name}=${value}`, ...extra].join('; ')

/** The two Set-Cookie values that start a session. */
export const sessionCookies = (key: string, csrfToken: string, publicUrl: string | null): string[] => [
  cookie(SESSION_COOKIE, key, attributes(publicUrl, true)),
  cookie(CSRF_COOKIE, csrfToken, attributes(publicUrl, false)),
]

/** The two Set-Cookie values that clear them (logout). */
export const clearedSessionCookies = (publicUrl: string | null): string[] => [
  cookie(SESSION_COOKIE, '', ['Max-Age=0', ...attributes(publicUrl, true)]),
  cookie(CSRF_COOKIE, '', ['Max-Age=0', ...attributes(publicUrl, false)]),
]

/** The value of cookie `name` in a `Cookie` header; null when it is absent or empty. */
export function cookieValue(header: string | null, name: string): string | null {
  if (header === null) return null
  for (const part of header.split(';')) {
    const eq = part.indexOf('=')
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim() || null
  }
  return null
}
