import { Type as t } from '@sinclair/typebox'
import { changeStaffUser, createStaffUser } from './rules.ts'
import { revokeTokens } from '../../core/auth/authentication.ts'
import type { Deps } from '../../deps.ts'
import { collectionRoutes } from '../../http/crud.ts'
import { defineFilters } from '../../http/filters.ts'
import { getUser, listUsers } from './queries.ts'
import { UserCreate, UserOut, UserReplace } from './schema.ts'
import { serializeUser } from './serializer.ts'

/** /api/users/: staff accounts, managed by organization admins. No DELETE: deactivate instead. */
export const userRoutes = (deps: Deps) =>
  collectionRoutes(deps, {
    path: '/api/users',
    tag: 'Staff users',
    noun: 'staff user',
    read: 'admin',
    write: 'admin',
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
        body: t.Object({}),
        run: ({ deps }, user) => revokeTokens(deps, user.id),
      },
      {
        // Anyone can fail ten logins with someone's email and lock them out; an admin lets them back in.
        name: 'unlock',
        summary: "Clear the login throttle of a staff user's email (its failed logins are forgotten)",
        body: t.Object({}),
        run: async ({ deps }, user) => deps.loginThrottle.clear(user.email),
      },
    ],
  })
