import { sql, type SqlBool } from 'kysely'

/** The check-ins with ids after `after`, through `through`; or, to count afresh, every one there is. */
export type CheckInIds = { after: number; through: number } | 'all'

/**
 * Whether the check-in whose id is `column` is one of `ids`: a range of ids, which SQLite reads by
 * rowid; for every check-in, no condition at all, so a statement reads the table straight through.
 */
export const isAmong = (ids: CheckInIds, column = 'id') =>
  ids === 'all'
    ? sql<SqlBool>`1`
    : sql<SqlBool>`${sql.ref(column)} > ${ids.after} AND ${sql.ref(column)} <= ${ids.through}`
