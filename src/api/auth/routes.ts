import { Type } from '@sinclair/typebox'
import { Elysia, t } from 'elysia'
import { logIn, logOut } from '../../core/auth/authentication.ts'
import type { Deps } from '../../deps.ts'
import { docs, named, paragraphs } from '../../http/docs.ts'
import { authenticated } from '../../http/auth.ts'
import { throttled, ValidationError } from '../../http/errors.ts'
import { field } from '../../http/fields.ts'
import { requires } from '../../http/permissions.ts'
import { checkBody } from '../../http/validation.ts'
import { CrossSiteLoginRefusal, refuseCrossSiteLogin } from './cross-site.ts'

export const GET_TOKEN_PATH = '/api/get-token/'
const LOGOUT_PATH = '/api/logout/'

const Credentials = Type.Object({
  username: field.text({ description: "The staff user's email (any case)" }),
  password: field.secret(),
})

/** What a login answers, what a token is, and when a login is refused: get-token's description. */
const LOG_IN_RULES = paragraphs(
  [
    'Public. `username` is the staff user\'s email, in any case. Answers `{"token": "<key>"}`: send it',
    'on every other request as `Authorization: Token <key>`. Each successful login issues a new',
    "token; older ones keep working until they are revoked (logout, a new password, an admin's",
    '`revoke-tokens`) or, when the box runs with `--token-lifetime-hours`, expire. Only a SHA-256',
    'hash of each token is stored.',
  ],
  [
    'Wrong credentials or an inactive user are',
    '`400 {"non_field_errors": ["Unable to log in with provided credentials."]}`, and so is a login',
    'whose password check was under way when the password changed or the user was deactivated. A',
    'login for an unknown email takes as long as one with a wrong password, so answers do not reveal',
    'which emails exist.',
  ],
  [
    'A login costs a password verification (argon2id: a tenth of a second or more of a core, and',
    '64 MiB), so one verification runs at a time and four more wait; a login past that is `429`',
    'with `Retry-After: 1`. Failed logins are throttled twice, each `429` with `Retry-After` for the',
    'rest of its window: 10 failures for one username (any case) within 15 minutes, and 20 from one',
    'client address (whatever the usernames) within 15 minutes. Both are kept in memory: a restart',
    'forgets them; an organization admin lets a username back in at once with',
    '`POST /api/users/{id}/unlock/`. Every refused login (past the queue or throttled) is answered',
    'after a pause of one second, so a client that retries as soon as it is answered costs the',
    'server next to nothing.',
  ],
  [
    "A login from another site's page is refused with 403 before the password is checked or the",
    'throttles count it, so a web page open at the desk cannot lock anyone out: a browser request',
    "with `Sec-Fetch-Site: cross-site`, or with an `Origin` that is not the box's own (`null`",
    "included). The box's own origin is the configured public URL, or the host the request was sent",
    "to (over http or https). `Sec-Fetch-Site: same-site` passes only with the box's own `Origin`.",
    'Clients that send neither header (curl, integrations) log in as before.',
  ],
)

/**
 * POST /api/get-token/: staff email + password -> a new token (DRF's ObtainAuthToken).
 * POST /api/logout/: the presented token is revoked, 204 with no body (knox's LogoutView).
 */
export const tokenRoutes = (deps: Deps) => new Elysia().use(logInRoute(deps)).use(logOutRoute(deps))

const logInRoute = (deps: Deps) =>
  new Elysia().post(
    GET_TOKEN_PATH,
    async ({ body, request, server }) => {
      // Before the body, the throttles and the password: a refused login from another site counts
      // against nobody.
      refuseCrossSiteLogin(request, deps.config.publicUrl)
      const { username, password } = checkBody(Credentials, body).valid()
      // No server when the app is called without listening (app.handle): one unnamed client.
      const address = server?.requestIP(request)?.address ?? ''
      const result = await logIn(deps, username, password, address)
      if ('token' in result) return { token: result.token }
      if (result.error === 'throttled') throw throttled(result.retryAfter)
      throw new ValidationError({ non_field_errors: ['Unable to log in with provided credentials.'] })
    },
    {
      ...docs({
        body: named('TokenRequest', Credentials),
        bodyAlso: { 'application/x-www-form-urlencoded': named('TokenRequest', Credentials) },
        tag: 'Authentication',
        summary: 'Obtain an API token (JSON or form-encoded body)',
        description: LOG_IN_RULES,
        public: true,
        ok: {
          status: 200,
          schema: named('Token', t.Object({ token: t.String({ description: '40 hex characters' }) })),
        },
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

/** Logout takes no fields: no body, or `{}`, as a record action without a body. */
const NoFields = Type.Object({})

const logOutRoute = (deps: Deps) =>
  new Elysia().use(authenticated(deps)).post(
    LOGOUT_PATH,
    async ({ token, body, set }) => {
      checkBody(NoFields, body).valid()
      await logOut(deps, token)
      set.status = 204
      return ''
    },
    {
      ...requires('staff'),
      ...docs({
        tag: 'Authentication',
        summary: "Revoke the request's own token (the user's other tokens keep working)",
        description: [
          'Any staff user. No body, or `{}`. Revokes the token the request presents and answers 204',
          "with no body, as knox's `LogoutView`; the user's other tokens keep working.",
        ].join(' '),
        body: named('LogoutRequest', NoFields),
        ok: { status: 204, schema: null, description: 'Logged out: the token no longer authenticates' },
      }),
    },
  )
