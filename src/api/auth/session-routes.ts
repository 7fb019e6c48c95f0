import { Elysia } from 'elysia'
import { endSession, logInSession } from '../../core/auth/sessions.ts'
import type { Deps } from '../../deps.ts'
import { docs, named, paragraphs } from '../../http/docs.ts'
import { throttled, ValidationError } from '../../http/errors.ts'
import { cookieValue, SESSION_COOKIE, sessionCookies } from '../../http/session-cookies.ts'
import { Urls } from '../../http/urls.ts'
import { checkBody } from '../../http/validation.ts'
import { loadOrganization } from '../organization/queries.ts'
import { MyAccountOut } from '../my-account/schema.ts'
import { serializeMyAccount } from '../my-account/serializer.ts'
import { getUser } from '../users/queries.ts'
import { CrossSiteLoginRefusal, refuseCrossSiteLogin } from './cross-site.ts'
import { Credentials, LOG_IN_REFUSALS } from './credentials.ts'

export const LOGIN_PATH = '/api/login/'

/** What a session is and what it asks of a browser: login's description. */
export const SESSION_RULES = paragraphs(
  [
    "Public. The browser's login (the desk page): the same `username` and `password` as get-token,",
    'JSON or form-encoded. Answers 200 with the account as `GET /api/my-account/` shows it, and',
    "sets two cookies: `sessionid`, the session's key (`HttpOnly; SameSite=Lax; Path=/`, so the",
    "page's scripts cannot read it), and `csrftoken` (`SameSite=Lax; Path=/`, readable by scripts).",
    "Both get `Secure` when the box's public URL (`--public-url`) is https, and neither has a",
    'Max-Age: closing the browser forgets them. Only a SHA-256 hash of the key is stored. A',
    'session the browser presented with the login ends: it is replaced (this is how a staff member',
    'takes a self check-in kiosk back to the desk, see `POST /api/kiosk/start/`).',
  ],
  [
    'The browser then sends the cookie on every request and is authenticated by it, unless the',
    "request carries `Authorization: Token <key>`: a request with both is the token's. Every unsafe",
    "request (POST, PUT, PATCH, DELETE) on a session must send the `csrftoken` cookie's value in",
    '`X-CSRFToken`: without it, `403 {"detail": "CSRF Failed: CSRF token missing."}`; with another',
    'value, `403 {"detail": "CSRF Failed: CSRF token incorrect."}`. Token requests never need it.',
  ],
  [
    'A session ends at `POST /api/logout/`, after `--session-idle-hours` (default 12) without a',
    'request (counted to within a minute), `--session-max-age-hours` (default 168) after the login',
    "however busy, and when the user's password changes (except the session that changed it), the",
    "user is deactivated or an admin runs `revoke-tokens`. An ended session's requests are",
    '`401 {"detail": "Authentication credentials were not provided."}`.',
  ],
  [
    '**PIN mode.** A desk can stay signed in as a shared account while each change is made, and',
    'recorded, as the staff member acting: an unsafe request that sends `X-Staff-Email: <email>` and',
    '`X-Staff-PIN: <pin>` (the PIN set with `pin` on `/api/users/`) runs as that member, with their',
    "permissions, and whatever it records (an invoice's `staff_user`, a free entry's granting",
    "user, a credit's `created_by`) names them. It works on a token or a session alike. A wrong",
    'PIN, an unknown or inactive email or a member without a PIN are',
    '`403 {"detail": "Wrong staff email or PIN."}`; one header without the other is',
    '`403 {"detail": "PIN mode needs both X-Staff-Email and X-Staff-PIN."}`. Wrong PINs are',
    'throttled as logins are (10 per email and 20 per signed-in account within 15 minutes, then 429',
    'with `Retry-After`, answered after a pause of one second). Safe requests ignore the headers.',
    '`GET /api/users/pin-holders/` lists the staff who can act, for any staff user to pick from.',
  ],
  [
    'A user with `pin_mode_required` logs in to a session **in PIN mode** (`pin_mode: true` in this',
    'answer and on `GET /api/my-account/`): every unsafe request on it without the two headers is',
    '`403 {"detail": "This desk is in PIN mode: each change needs the acting staff member\'s email and',
    'PIN (X-Staff-Email and X-Staff-PIN)."}`. Check-ins take the door\'s decision, not a staff',
    "member's, so they take no PIN: the door's scans (`barcode-check-in`, `open-door-check-in`), the",
    "desk's (`/api/customers/check-in-by-barcode/`, `/api/customers/{customer_id}/check-in/`), and",
    'logout; the headers are ignored there.',
  ],
  ...LOG_IN_REFUSALS,
)

/** POST /api/login/: a browser session (Django's session login, for the desk page). */
export const sessionLogInRoute = (deps: Deps) =>
  new Elysia().post(
    LOGIN_PATH,
    async ({ body, request, server, set }) => {
      refuseCrossSiteLogin(request, deps.config.publicUrl)
      const { username, password } = checkBody(Credentials, body).valid()
      const address = server?.requestIP(request)?.address ?? ''
      const result = await logInSession(deps, username, password, address)
      if ('error' in result) {
        if (result.error === 'throttled') throw throttled(result.retryAfter)
        throw new ValidationError({ non_field_errors: ['Unable to log in with provided credentials.'] })
      }
      // The browser keeps one session: the one it presented (a kiosk's, say) ends with this login.
      const previous = cookieValue(request.headers.get('cookie'), SESSION_COOKIE)
      if (previous !== null) await endSession(deps, previous)
      // Elysia sends each value of an array as its own Set-Cookie header.
      ;(set.headers as Record<string, unknown>)['set-cookie'] = sessionCookies(
        result.key,
        result.csrfToken,
        deps.config.publicUrl,
      )
      // The user was just found active, so their row is there.
      const user = (await getUser(deps.db, result.user.id))!
      return serializeMyAccount(
        user,
        await loadOrganization(deps.db),
        Urls.forRequest(request, deps.config.publicUrl),
        result.pinMode,
      )
    },
    {
      ...docs({
        body: named('LoginRequest', Credentials),
        bodyAlso: { 'application/x-www-form-urlencoded': named('LoginRequest', Credentials) },
        tag: 'Authentication',
        summary: 'Log in a browser: a session cookie and a CSRF token (JSON or form-encoded body)',
        description: SESSION_RULES,
        public: true,
        ok: { status: 200, schema: named('MyAccount', MyAccountOut) },
        errors: [429],
        errorBodies: {
          403: {
            description: "A login from another site's page: refused before it counts",
            json: named('CrossSiteLoginRefusal', CrossSiteLoginRefusal),
          },
        },
      }),
    },
  )
