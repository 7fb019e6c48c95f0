import { Elysia } from 'elysia'
import { changeMyAccount, type MyAccountInput } from '../../core/my-account.ts'
import { loadOrganization } from '../../core/organization.ts'
import type { StaffUser } from '../../db/schema.ts'
import type { Deps } from '../../deps.ts'
import { authenticated } from '../../http/auth.ts'
import { docs } from '../../http/docs.ts'
import { requires } from '../../http/permissions.ts'
import type { Urls } from '../../http/urls.ts'
import { getUser } from '../users/queries.ts'
import { ChangePassword, MyAccountOut, MyAccountReplace, MyAccountUpdate } from './schema.ts'
import { serializeMyAccount } from './serializer.ts'

const tag = 'My account'
const ok = { status: 200, schema: MyAccountOut }

/** The signed-in user's own account (/api/my-account/) and password change (/api/change-password/). */
export const myAccountRoutes = (deps: Deps) => {
  const read = async (user: StaffUser, urls: Urls) =>
    serializeMyAccount((await getUser(deps.db, user.id))!, await loadOrganization(deps), urls)
  const write = async (user: StaffUser, urls: Urls, body: typeof MyAccountUpdate.static) => {
    const input: MyAccountInput = { ...body, current_password: body.previous_password }
    await changeMyAccount(deps, user, input, 'previous_password')
    return read(user, urls)
  }
  return new Elysia()
    .use(authenticated(deps))
    .get('/api/my-account/', ({ user, urls }) => read(user, urls), {
      ...requires('staff'),
      ...docs({ tag, summary: 'Read my account', ok }),
    })
    .put('/api/my-account/', ({ user, urls, body }) => write(user, urls, body), {
      body: MyAccountReplace,
      ...requires('staff'),
      ...docs({
        tag,
        summary: 'Replace my account (password change needs previous_password)',
        ok,
        errors: [400],
      }),
    })
    .patch('/api/my-account/', ({ user, urls, body }) => write(user, urls, body), {
      body: MyAccountUpdate,
      ...requires('staff'),
      ...docs({ tag, summary: 'Update my account', ok, errors: [400] }),
    })
    .patch(
      '/api/change-password/',
      async ({ user, urls, body }) => {
        const current = body.old_password ?? body.previous_password
        await changeMyAccount(
          deps,
          user,
          { new_password: body.new_password, current_password: current },
          'old_password',
        )
        return read(user, urls)
      },
      {
        body: ChangePassword,
        ...requires('staff'),
        ...docs({ tag, summary: 'Change my password', ok, errors: [400] }),
      },
    )
}
