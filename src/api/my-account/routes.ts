import { loadOrganization } from '../organization/queries.ts'
import { Elysia } from 'elysia'
import { changeMyAccount } from './rules.ts'
import type { StaffUser } from '../../db/schema.ts'
import type { Deps } from '../../deps.ts'
import { authenticated } from '../../http/auth.ts'
import { docs, named } from '../../http/docs.ts'
import { requires } from '../../http/permissions.ts'
import type { Urls } from '../../http/urls.ts'
import { checkBody } from '../../http/validation.ts'
import { getUser } from '../users/queries.ts'
import { ChangePassword, MyAccountOut, MyAccountReplace, MyAccountUpdate } from './schema.ts'
import { serializeMyAccount } from './serializer.ts'

const tag = 'My account'
const ok = { status: 200, schema: named('MyAccount', MyAccountOut) }

/** The signed-in user's own account (/api/my-account/) and password change (/api/change-password/). */
export const myAccountRoutes = (deps: Deps) => {
  const read = async (user: StaffUser, urls: Urls) =>
    serializeMyAccount((await getUser(deps.db, user.id))!, await loadOrganization(deps.db), urls)
  const write = async (
    user: StaffUser,
    urls: Urls,
    schema: typeof MyAccountReplace | typeof MyAccountUpdate | typeof ChangePassword,
    body: unknown,
    currentPasswordField: 'previous_password' | 'old_password',
  ) => {
    await changeMyAccount(deps, user, checkBody(schema, body), currentPasswordField)
    return read(user, urls)
  }
  return new Elysia()
    .use(authenticated(deps))
    .get('/api/my-account/', ({ user, urls }) => read(user, urls), {
      ...requires('staff'),
      ...docs({ tag, summary: 'Read my account', ok }),
    })
    .put(
      '/api/my-account/',
      ({ user, urls, body }) => write(user, urls, MyAccountReplace, body, 'previous_password'),
      {
        ...requires('staff'),
        ...docs({
          tag,
          summary: 'Replace my account (a password change needs previous_password)',
          body: named('MyAccountReplace', MyAccountReplace),
          ok,
        }),
      },
    )
    .patch(
      '/api/my-account/',
      ({ user, urls, body }) => write(user, urls, MyAccountUpdate, body, 'previous_password'),
      {
        ...requires('staff'),
        ...docs({ tag, summary: 'Update my account', body: named('PatchedMyAccount', MyAccountUpdate), ok }),
      },
    )
    .patch(
      '/api/change-password/',
      ({ user, urls, body }) => write(user, urls, ChangePassword, body, 'old_password'),
      {
        ...requires('staff'),
        ...docs({ tag, summary: 'Change my password', body: named('ChangePassword', ChangePassword), ok }),
      },
    )
}
