import { Type } from '@sinclair/typebox'
import { Elysia, t } from 'elysia'
import { logIn, logOut } from '../../core/auth/authentication.ts'
import type { Deps } from '../../deps.ts'
import { docs, named, paragraphs } from '../../http/docs.ts'
import { authenticated } from '../../http/auth.ts'
import { throttled, ValidationError } from '../../http/errors.ts'
import { requires } from '../../http/permissions.ts'
import { checkBody } from '../../http/validation.ts'
import { clearedSessionCookies } from '../../http/session-cookies.ts'
import { CrossSiteLoginRefusal, refuseCrossSiteLogin } from './cross-site.ts'
import { Credentials, LOG_IN_REFUSALS } from './credentials.ts'
import { LOGIN_PATH, sessionLogInRoute } from './session-routes.ts'

export const GET_TOKEN_PATH = '/api/get-token/'
const LOGOUT_PATH = '/api/logout/'

/** What a login answers, what a token is, and when a login is refused: get-token's description. */
const LOG_IN_RULES = paragraphs(
  [
    'Public. `username` is the staff user\'s email, in any case. Answers `{"token": "<key>"}`: send it',
    'on every other request as `Authorization: Token <key>`. Each successful login issues a new',
    "token; older ones keep working until they are revoked (logout, a new password, an admin's",
    '`revoke-tokens`) or, when the box runs with `--token-lifetime-hours`, expire. Only a SHA-256',
    'hash of each token is stored. A browser logs in with `POST /api/login/` instead (a session).',
  ],
  ...LOG_IN_REFUSALS,
)

/**
 * POST /api/get-token/: staff email + password -> a new token (DRF's ObtainAuthToken).
 * POST /api/logout/: the presented token is revoked, 204 with no body (knox's LogoutView).
 */
export const tokenRoutes = (deps: Deps) =>
  new Elysia().use(logInRoute(deps)).use(sessionLogInRoute(deps)).use(logOutRoute(deps))

/** The paths whose body may be form-encoded: both logins. */
export const LOGIN_PATHS = [GET_TOKEN_PATH, LOGIN_PATH]

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
  new Elysia().use(authenticated(deps, { pin: false })).post(
    LOGOUT_PATH,
    async ({ credential, body, set }) => {
      checkBody(NoFields, body).valid()
      await logOut(deps, credential)
      if (credential.kind === 'session')
        (set.headers as Record<string, unknown>)['set-cookie'] = clearedSessionCookies(deps.config.publicUrl)
      set.status = 204
      return ''
    },
    {
      ...requires('staff'),
      ...docs({
        tag: 'Authentication',
        summary: "End the request's own token or session (the user's others keep working)",
        description: [
          'Any staff user. No body, or `{}`. Ends what authenticated the request and answers 204 with',
          "no body, as knox's `LogoutView`: the token it presents is revoked, or, for a browser",
          "session, the session ends and both its cookies are cleared (`Max-Age=0`); a session's",
          "logout needs `X-CSRFToken` as every unsafe request does. The user's other tokens and",
          'sessions keep working.',
        ].join(' '),
        body: named('LogoutRequest', NoFields),
        ok: {
          status: 204,
          schema: null,
          description: 'Logged out: the token or session no longer authenticates',
        },
      }),
    },
  )
