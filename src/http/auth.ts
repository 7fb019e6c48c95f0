import { timingSafeEqual } from 'node:crypto'
import { noteRequestUser } from './request-log.ts'
import { Elysia } from 'elysia'
import { authenticateToken, type Credential } from '../core/auth/authentication.ts'
import { authenticateSession } from '../core/auth/sessions.ts'
import type { StaffUser } from '../db/schema.ts'
import type { Deps } from '../deps.ts'
import { csrfTokenFor } from '../lib/secrets.ts'
import { ApiError, invalidToken, notAuthenticated, throttled } from './errors.ts'
import { checkPin } from '../core/auth/pins.ts'
import { SESSION_COOKIE, cookieValue } from './session-cookies.ts'
import { Urls } from './urls.ts'

/** Reads `Authorization: Token <key>` ("Token" in any case), as DRF's TokenAuthentication does. */
export function tokenFromHeader(header: string | undefined): string | null {
  const parts = (header ?? '').trim().split(/\s+/)
  if (parts.length !== 2 || parts[0]!.toLowerCase() !== 'token') return null
  return parts[1]!
}

/** Methods that change nothing: a session needs no CSRF token for them (DRF's SAFE_METHODS). */
const SAFE_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS', 'TRACE'])

export const csrfMissing = 'CSRF Failed: CSRF token missing.'
export const csrfIncorrect = 'CSRF Failed: CSRF token incorrect.'

export type Authenticated = {
  user: StaffUser
  /** What authenticated the request: logout ends it, a password change keeps it. */
  credential: Credential
  /** A session logged in by a user with `pin_mode_required` (always false for a token). */
  pinMode: boolean
  /** In PIN mode, the account signed in at the desk; `user` is then the staff member acting. */
  signedIn?: StaffUser
  /** A session locked to the self check-in kiosk (always false for a token). */
  kiosk: boolean
}

export const kioskOnly = 'This screen is a self check-in kiosk: a staff member must log in to use the desk.'

/**
 * What a kiosk session may call: the kiosk's own endpoints, its account (the page asks whether it is
 * a kiosk) and logout; login needs no session. Exact paths, so that nothing reached by another
 * spelling of a path gets through; everything else, known route or not, is 403 `kioskOnly`.
 */
const KIOSK_CALLS: ReadonlyArray<readonly [methods: ReadonlySet<string>, path: string]> = [
  [new Set(['POST']), '/api/kiosk/check-in/'],
  [new Set(['POST']), '/api/kiosk/start/'],
  [new Set(['GET', 'HEAD']), '/api/my-account/'],
  [new Set(['POST']), '/api/logout/'],
]

/** The request's path as sent (`request.url` is always `http://host/path?query`; see app.ts). */
function pathOf(url: string): string {
  const start = url.indexOf('/', url.indexOf('//') + 2)
  if (start < 0) return '/'
  const query = url.indexOf('?', start)
  return url.slice(start, query < 0 ? undefined : query)
}

const kioskMayCall = (request: Request) => {
  const path = pathOf(request.url)
  return KIOSK_CALLS.some(([methods, allowed]) => methods.has(request.method) && allowed === path)
}

export const pinHeadersIncomplete = 'PIN mode needs both X-Staff-Email and X-Staff-PIN.'
export const wrongPin = 'Wrong staff email or PIN.'
export const pinRequired =
  "This desk is in PIN mode: each change needs the acting staff member's email and PIN (X-Staff-Email and X-Staff-PIN)."

/**
 * PIN mode: an unsafe request that names a staff member in `X-Staff-Email` with their PIN in
 * `X-Staff-PIN` runs as that member (their permissions; recorded as theirs). A PIN-mode session's
 * unsafe requests must name one. Routes built with `pin: false` take none: the door's scans and logout.
 */
async function actAs(deps: Deps, request: Request, signedIn: Authenticated): Promise<Authenticated> {
  const email = request.headers.get('x-staff-email')
  const pin = request.headers.get('x-staff-pin')
  if (email === null && pin === null) {
    if (signedIn.pinMode) throw new ApiError(403, { detail: pinRequired })
    return signedIn
  }
  if (!email || !pin) throw new ApiError(403, { detail: pinHeadersIncomplete })
  const checked = await checkPin(deps, email.trim(), pin, signedIn.user.id)
  if ('user' in checked) return { ...signedIn, user: checked.user, signedIn: signedIn.user }
  if (checked.error === 'throttled') {
    await deps.loginGate.pauseBeforeRefusal()
    throw throttled(checked.retryAfter)
  }
  throw new ApiError(403, { detail: wrongPin })
}

/**
 * The active staff user behind the request: a token in `Authorization` first (unchanged, and never
 * asked for CSRF), else the session in the `sessionid` cookie, whose unsafe requests must send the
 * session's CSRF token in `X-CSRFToken` (403 otherwise, as DRF's SessionAuthentication). The
 * cookie is read only when there is no token, so a token's request costs what it did. 401 (DRF's
 * bodies) when neither authenticates. A kiosk session is 403 outside the kiosk's few calls.
 */
export async function authenticateRequest(deps: Deps, request: Request): Promise<Authenticated> {
  const headers = request.headers
  const authorization = headers.get('authorization')
  const key = tokenFromHeader(authorization ?? undefined)
  if (key !== null) {
    const result = await authenticateToken(deps, key)
    if ('error' in result) throw invalidToken()
    return { user: result.user, credential: { kind: 'token', key }, pinMode: false, kiosk: false }
  }
  const sessionKey = cookieValue(headers.get('cookie'), SESSION_COOKIE)
  if (sessionKey === null) throw notAuthenticated()
  const session = await authenticateSession(deps, sessionKey)
  if ('error' in session) throw notAuthenticated()
  if (!SAFE_METHODS.has(request.method)) checkCsrf(headers.get('x-csrftoken'), sessionKey)
  if (session.kiosk && !kioskMayCall(request)) throw new ApiError(403, { detail: kioskOnly })
  return {
    user: session.user,
    credential: { kind: 'session', key: sessionKey },
    pinMode: session.pinMode,
    kiosk: session.kiosk,
  }
}

function checkCsrf(sent: string | null, sessionKey: string): void {
  if (sent === null || sent === '') throw new ApiError(403, { detail: csrfMissing })
  const expected = Buffer.from(csrfTokenFor(sessionKey))
  const given = Buffer.from(sent)
  if (given.length !== expected.length || !timingSafeEqual(given, expected))
    throw new ApiError(403, { detail: csrfIncorrect })
}

/** The active staff user behind the request; 401 (DRF's two bodies) otherwise. */
export async function requireStaffUser(deps: Deps, request: Request): Promise<StaffUser> {
  return (await authenticateRequest(deps, request)).user
}

/**
 * The staff user behind the request, what authenticated it, and the URL builder, for every route
 * of the feature that uses this. It runs as a derive, before body validation, so a request with
 * neither credentials nor a valid body gets 401 first, as in DRF. Each feature uses its own
 * (unnamed) instance. An unsafe request may act as another staff member by PIN (`actAs`), except
 * on the routes built with `pin: false` (the door's scans, logout).
 */
export function authenticated(deps: Deps, options: { pin?: boolean } = {}) {
  return new Elysia().derive(
    { as: 'scoped' },
    async ({ request }): Promise<Authenticated & { urls: Urls }> => {
      let authenticated = await authenticateRequest(deps, request)
      if (options.pin !== false && !SAFE_METHODS.has(request.method))
        authenticated = await actAs(deps, request, authenticated)
      noteRequestUser(request, authenticated.user.id)
      return { ...authenticated, urls: Urls.forRequest(request, deps.config.publicUrl) }
    },
  )
}
