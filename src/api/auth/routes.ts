import { Type } from '@sinclair/typebox'
import { Elysia, t } from 'elysia'
import { logIn, logOut } from '../../core/auth/authentication.ts'
import type { Deps } from '../../deps.ts'
import { docs, named } from '../../http/docs.ts'
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
        description: [
          "A login from another site's page is refused with 403 before the password is checked or the",
          'throttles count it: a browser request with `Sec-Fetch-Site: cross-site`, or with an `Origin`',
          "that is not the box's own (`null` included). The box's own origin is the configured public",
          'URL, or the host the request was sent to (over http or https). `Sec-Fetch-Site: same-site`',
          "passes only with the box's own `Origin`. Clients that send neither header (curl,",
          'integrations) log in as before.',
        ].join(' '),
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
        body: named('LogoutRequest', NoFields),
        ok: { status: 204, schema: null, description: 'Logged out: the token no longer authenticates' },
      }),
    },
  )
