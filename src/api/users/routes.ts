import { changeStaffUser, createStaffUser } from './rules.ts'
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
  })
