import { Type } from '@sinclair/typebox'
import { Elysia, t } from 'elysia'
import { logIn } from '../../core/auth/authentication.ts'
import type { Deps } from '../../deps.ts'
import { docs, named } from '../../http/docs.ts'
import { throttled, ValidationError } from '../../http/errors.ts'
import { field } from '../../http/fields.ts'
import { checkBody } from '../../http/validation.ts'

export const GET_TOKEN_PATH = '/api/get-token/'

const Credentials = Type.Object({
  username: field.text({ description: "The staff user's email (any case)" }),
  password: field.secret(),
})

/** POST /api/get-token/: staff email + password -> a new token (DRF's ObtainAuthToken). */
export const tokenRoutes = (deps: Deps) =>
  new Elysia().post(
    GET_TOKEN_PATH,
    async ({ body }) => {
      const { username, password } = checkBody(Credentials, body).valid()
      const result = await logIn(deps, username, password)
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
        public: true,
        ok: {
          status: 200,
          schema: named('Token', t.Object({ token: t.String({ description: '40 hex characters' }) })),
        },
        errors: [429],
      }),
    },
  )
