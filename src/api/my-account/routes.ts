import type { Actor } from '../../domain/actor.ts'
import { loadOrganization } from '../organization/queries.ts'
import { Elysia } from 'elysia'
import { changeMyAccount } from './rules.ts'
import type { Deps } from '../../deps.ts'
import { authenticated } from '../../http/auth.ts'
import type { RequestActor } from '../../http/crud.ts'
import { singletonRoutes } from '../../http/singleton.ts'
import { docs, named } from '../../http/docs.ts'
import { requires } from '../../http/permissions.ts'
import { checkBody } from '../../http/validation.ts'
import { getUser } from '../users/queries.ts'
import { ChangePassword, MyAccountOut, MyAccountReplace } from './schema.ts'
import { serializeMyAccount } from './serializer.ts'

const tag = 'My account'

/** The signed-in user's own account (/api/my-account/) and password change (/api/change-password/). */
export const myAccountRoutes = (deps: Deps) => {
  // The token's user is active and exists, so their row is always found.
  const readAccount = async (deps: Deps, { user }: Actor) => ({
    user: (await getUser(deps.db, user.id))!,
    organization: await loadOrganization(deps.db),
  })
  const serialize = (account: Awaited<ReturnType<typeof readAccount>>, urls: RequestActor['urls']) =>
    serializeMyAccount(account.user, account.organization, urls)
  return new Elysia()
    .use(
      singletonRoutes(deps, {
        path: '/api/my-account',
        tag,
        summaries: {
          read: 'Read my account',
          replace:
            'Replace my account (a password change needs previous_password and revokes my other tokens)',
          update: 'Update my account (a new password revokes my other tokens)',
        },
        read: 'staff',
        write: 'staff',
        output: MyAccountOut,
        get: readAccount,
        serialize,
        replace: {
          body: MyAccountReplace,
          run: (deps, body, actor) => changeMyAccount(deps, actor, body, 'previous_password'),
        },
      }),
    )
    .use(
      new Elysia().use(authenticated(deps)).patch(
        '/api/change-password/',
        async ({ user, token, urls, body }) => {
          await changeMyAccount(deps, { user, token }, checkBody(ChangePassword, body), 'old_password')
          return serialize(await readAccount(deps, { user }), urls)
        },
        {
          ...requires('staff'),
          ...docs({
            tag,
            summary: 'Change my password (revokes my other tokens)',
            body: named('ChangePassword', ChangePassword),
            ok: { status: 200, schema: named('MyAccount', MyAccountOut) },
          }),
        },
      ),
    )
}
