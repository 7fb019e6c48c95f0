import { Type as t } from '@sinclair/typebox'
import { Elysia } from 'elysia'
import { changeStaffUser, createStaffUser } from './rules.ts'
import { revokeTokens } from '../../core/auth/authentication.ts'
import type { Deps } from '../../deps.ts'
import { compareNames, staffName } from '../../domain/staff-names.ts'
import { authenticated } from '../../http/auth.ts'
import { collectionRoutes } from '../../http/crud.ts'
import { docs, named, paragraphs } from '../../http/docs.ts'
import { defineFilters } from '../../http/filters.ts'
import { requires, whoMay } from '../../http/permissions.ts'
import { getUser, listPinHolders, listUsers } from './queries.ts'
import { PinHolderOut, UserCreate, UserOut, UserReplace } from './schema.ts'
import { serializeUser } from './serializer.ts'

/** What a change to a staff user does beyond its fields: PUT's and PATCH's description. */
const CHANGE_RULES = paragraphs(
  [
    '`email` cannot change (`This field cannot be changed.`; the same address in another case is',
    'accepted). Nobody may deactivate themselves (`You cannot deactivate your own account.` on',
    '`is_active`) or drop their own admin flag (`You cannot remove your own organization admin',
    'rights.` on `is_organization_admin`), so the organization keeps an admin who can undo mistakes.',
  ],
  [
    "Setting `password` revokes all of the user's tokens, all but the one this request presents",
    'when admins set their own, in the same transaction. Deactivating a user or changing their',
    'flags applies from their very next request. There is no DELETE: set `is_active` false.',
  ],
)

/**
 * GET /api/users/pin-holders/: whom the PIN prompt offers, for a desk account that is not an admin
 * and so cannot list the staff. The router prefers this literal path to the records' `:id` (digits).
 */
const pinHolderRoutes = (deps: Deps) =>
  new Elysia()
    .use(authenticated(deps))
    .get(
      '/api/users/pin-holders/',
      async () =>
        (await listPinHolders(deps.db))
          .map((user) => ({ id: user.id, name: staffName(user), email: user.email }))
          .sort((a, b) => compareNames(a.name, b.name) || a.id - b.id),
      {
        ...requires('staff'),
        ...docs({
          tag: 'Staff users',
          summary: 'Who can act in PIN mode: the active staff with a PIN',
          description: whoMay(
            'staff',
            [
              'A plain list (no envelope), by name: every active staff user with a PIN set (`has_pin`),',
              'named "First Last", or by their email when they have no name, with the email a PIN-mode',
              'change sends in `X-Staff-Email`. An inactive user and one without a PIN are left out:',
              'neither can act. A GET takes no PIN, so a shared desk account in PIN mode reads it',
              "without being an admin; `/api/users/` stays admins' only.",
            ].join(' '),
          ),
          ok: { status: 200, schema: t.Array(named('PinHolder', PinHolderOut)) },
        }),
      },
    )

/** The staff accounts, managed by organization admins. No DELETE: deactivate instead. */
const userCollectionRoutes = (deps: Deps) =>
  collectionRoutes(deps, {
    path: '/api/users',
    tag: 'Staff users',
    noun: 'staff user',
    read: 'admin',
    write: 'admin',
    descriptions: {
      list: [
        'Ordered by id. `search` takes space-separated words, each found in the email, first or last',
        'name; `default_gym_id` is exact.',
      ].join(' '),
      create: [
        'An email already taken is `{"email": ["staff user with this email already exists."]}`;',
        '`default_gym_id` must name a gym. `password` (at least 8 characters) lets the user log in;',
        '`pin` (4 to 8 digits) sets the PIN behind `has_pin`; both are write-only.',
      ].join(' '),
      replace: CHANGE_RULES,
      update: CHANGE_RULES,
    },
    filters: defineFilters({ default_gym_id: 'id', search: 'text' }),
    output: UserOut,
    list: ({ deps }, filters) => listUsers(deps.db, filters),
    get: ({ deps }, id) => getUser(deps.db, id),
    serialize: serializeUser,
    create: { body: UserCreate, run: ({ deps }, body) => createStaffUser(deps, body) },
    replace: {
      body: UserReplace,
      run: ({ deps }, user, body, actor) => changeStaffUser(deps, user, body, actor),
    },
    actions: [
      {
        // Every token of the user, the request's own too when admins name themselves: a lost
        // device or a leaked key is shut out without deactivating the account.
        name: 'revoke-tokens',
        summary: 'Revoke every token of a staff user (answers the user; they log in again)',
        description: [
          'No body, or `{}`. Revokes every token of the user, the one this request presents too when',
          'admins name themselves, and answers 200 with the user. The account stays active, so they',
          'can log in again: a lost device or a leaked key is shut out without deactivating anyone.',
        ].join(' '),
        body: t.Object({}),
        run: ({ deps }, user) => revokeTokens(deps, user.id),
      },
      {
        // Anyone can fail ten logins with someone's email and lock them out; an admin lets them back in.
        name: 'unlock',
        summary: "Clear the login throttle of a staff user's email (its failed logins are forgotten)",
        description: [
          "No body, or `{}`. Anyone can fail ten logins with someone's email and so lock them out for",
          "15 minutes: this forgets the user's failed logins at once, without a restart, and answers",
          '200 with the user. It does not lift the per-address throttle of the address the failures',
          'came from.',
        ].join(' '),
        body: t.Object({}),
        run: async ({ deps }, user) => deps.loginThrottle.clear(user.email),
      },
    ],
  })

/** /api/users/: staff accounts, and who can act in PIN mode. */
export const userRoutes = (deps: Deps) =>
  new Elysia().use(pinHolderRoutes(deps)).use(userCollectionRoutes(deps))
