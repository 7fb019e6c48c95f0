import { sql, type SqlBool } from 'kysely'

/**
 * The check-ins with ids after `after`, through `through`; those that arrived below the ids
 * counted already ('late': another site's, listed in check_in_metrics_late); or, to count afresh,
 * every one there is.
 */
export type CheckInIds = { after: number; through: number } | 'late' | 'all'

/**
 * Whether the check-in whose id is `column` is one of `ids`: a range of ids, which SQLite reads by
 * rowid; for every check-in, no condition at all, so a statement reads the table straight through.
 */
export const isAmong = (ids: CheckInIds, column = 'id') =>
  ids === 'all'
    ? sql<SqlBool>`1`
    : ids === 'late'
      ? sql<SqlBool>`${sql.ref(column)} IN (SELECT check_in_id FROM check_in_metrics_late)`
      : sql<SqlBool>`${sql.ref(column)} > ${ids.after} AND ${sql.ref(column)} <= ${ids.through}`
