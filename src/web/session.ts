/**
 * What the desk remembers. The login is a session the box keeps: its key is in an HttpOnly cookie
 * the page's scripts cannot read, so nothing here holds a credential. The page reads only the
 * `csrftoken` cookie, which it sends back on every unsafe request (and whose presence says a
 * login was made in this browser session). The desk's gym is the computer's (localStorage):
 * chosen once, kept across logins; it is no credential.
 */

const CSRF_COOKIE = 'csrftoken'
const GYM = 'belay.gym'

/** The session's CSRF token, for `X-CSRFToken`; null before a login. */
export function csrfToken(): string | null {
  for (const part of document.cookie.split(';')) {
    const eq = part.indexOf('=')
    if (eq > 0 && part.slice(0, eq).trim() === CSRF_COOKIE) return part.slice(eq + 1).trim() || null
  }
  return null
}

/** Whether this browser session has logged in (the box may since have ended the session). */
export const hasLoggedIn = (): boolean => csrfToken() !== null

/** Forgets the CSRF token once the session is known to have ended (the box clears it on logout). */
export function forgetSession(): void {
  document.cookie = `${CSRF_COOKIE}=; Max-Age=0; Path=/; SameSite=Lax`
}

export function storedGymId(): number | null {
  const id = Number(localStorage.getItem(GYM))
  return Number.isInteger(id) && id > 0 ? id : null
}

export function storeGymId(id: number | null): void {
  if (id === null) localStorage.removeItem(GYM)
  else localStorage.setItem(GYM, String(id))
}
