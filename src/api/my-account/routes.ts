import type { Actor } from '../../domain/actor.ts'
import { loadOrganization } from '../organization/queries.ts'
import { Elysia } from 'elysia'
import { changeMyAccount } from './rules.ts'
import type { Deps } from '../../deps.ts'
import { authenticated } from '../../http/auth.ts'
import type { RequestActor } from '../../http/crud.ts'
import { singletonRoutes } from '../../http/singleton.ts'
import { docs, named, paragraphs } from '../../http/docs.ts'
import { requires, whoMay } from '../../http/permissions.ts'
import { checkBody } from '../../http/validation.ts'
import { getUser } from '../users/queries.ts'
import { ChangePassword, MyAccountOut, MyAccountReplace } from './schema.ts'
import { serializeMyAccount } from './serializer.ts'

const tag = 'My account'

/** What a new password does, on either operation that sets one. */
const NEW_PASSWORD = [
  '`new_password` is at least 8 characters (`This password is too short. It must contain at least 8',
  'characters.`). It revokes every other token and ends every other browser session of the user, in',
  'the same transaction, and keeps the token or session this request presents.',
].join(' ')

const MY_ACCOUNT_CHANGE = paragraphs(
  [
    'Changes your own name and default gym. `email` and the permission flags are not yours to edit:',
    'sent along, they are ignored, as read-only fields are.',
  ],
  [
    'A `new_password` needs the current one in `previous_password`: missing, it is `This field is',
    'required.`, wrong, `Your old password was entered incorrectly. Please enter it again.`, both on',
    '`previous_password`.',
    NEW_PASSWORD,
  ],
)

/** The signed-in user's own account (/api/my-account/) and password change (/api/change-password/). */
export const myAccountRoutes = (deps: Deps) => {
  // The token's user is active and exists, so their row is always found.
  const readAccount = async (
    deps: Deps,
    { user, pinMode, kiosk }: Actor & { pinMode?: boolean; kiosk?: boolean },
  ) => ({
    user: (await getUser(deps.db, user.id))!,
    organization: await loadOrganization(deps.db),
    pinMode: pinMode ?? false,
    kiosk: kiosk ?? false,
  })
  const serialize = (account: Awaited<ReturnType<typeof readAccount>>, urls: RequestActor['urls']) =>
    serializeMyAccount(account.user, account.organization, urls, account.pinMode, account.kiosk)
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
        descriptions: {
          read: [
            'The account of the user whose token or session the request presents, with their',
            'organization. `pin_mode` is true on a session in PIN mode (its user has',
            '`pin_mode_required`): each of its unsafe requests must name the acting staff member by',
            'email and PIN (see `POST /api/login/`).',
          ].join(' '),
          replace: MY_ACCOUNT_CHANGE,
          update: MY_ACCOUNT_CHANGE,
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
        async ({ user, credential, pinMode, urls, body }) => {
          await changeMyAccount(deps, { user, credential }, checkBody(ChangePassword, body), 'old_password')
          return serialize(await readAccount(deps, { user, pinMode }), urls)
        },
        {
          ...requires('staff'),
          ...docs({
            tag,
            summary: 'Change my password (revokes my other tokens)',
            description: whoMay(
              'staff',
              paragraphs(
                [
                  'The current password goes in `old_password` (or `previous_password`); missing, it is',
                  '`This field is required.`, wrong, `Your old password was entered incorrectly. Please',
                  'enter it again.`, both on `old_password`.',
                ],
                [NEW_PASSWORD],
              ),
            ),
            body: named('ChangePassword', ChangePassword),
            ok: { status: 200, schema: named('MyAccount', MyAccountOut) },
          }),
        },
      ),
    )
}
