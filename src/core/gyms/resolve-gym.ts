import type { Database as BunDatabase } from 'bun:sqlite'
import type { StaffUser } from '../../db/schema.ts'
import { getGym, getOnlyGymId, type Gym } from './queries.ts'

/**
 * The gym a request at the desk or the door is for: the given location, else the organization's
 * only gym, else the requesting user's default gym. Undefined when the id it settles on names no
 * gym. Synchronous on the raw connection, so the door runs it inside its check-in transaction.
 */
export function resolveGym(
  sqlite: BunDatabase,
  locationId: number | null,
  user: Pick<StaffUser, 'default_gym_id'>,
): Gym | undefined {
  const id = locationId ?? getOnlyGymId(sqlite) ?? user.default_gym_id
  return getGym(sqlite, id) ?? undefined
}
