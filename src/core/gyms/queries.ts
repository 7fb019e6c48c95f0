import type { Database as BunDatabase } from 'bun:sqlite'
import { compiledStatement, type RowOf } from '../../db/compiled-statement.ts'

/**
 * The gym reads every engine that works at a location shares (the door on each scan, a sale once):
 * compiled once and run synchronously on the raw connection, as the door's statements are.
 */

const gymById = compiledStatement((db, p: { id: number }) =>
  db
    .selectFrom('gyms')
    .select(['id', 'name', 'time_zone', 'combine_same_day_check_ins'])
    .where('id', '=', p.id),
)

/** Two gyms at most: enough to tell whether there is only one. */
const firstGyms = compiledStatement((db) => db.selectFrom('gyms').select('id').orderBy('id').limit(2))

/** The statements above, for tests that ask SQLite how each one reaches its rows. */
export const gymStatements = { gymById, firstGyms }

export type Gym = RowOf<typeof gymById>

export const getGym = (sqlite: BunDatabase, id: number): Gym | null => gymById.get(sqlite, { id })

/** The only gym's id when the organization has exactly one, else null. */
export function getOnlyGymId(sqlite: BunDatabase): number | null {
  const rows = firstGyms.all(sqlite)
  return rows.length === 1 ? rows[0]!.id : null
}
