import { sql, type Kysely } from 'kysely'
import { runStatements } from './migration.ts'

// Check-ins that arrive below the check-in metrics' high-water mark. The catch-up counts the ids
// after check_in_metrics_state.counted_through; on a box that is a site of a hub, another site's
// check-in arrives with an id of that site's, often below the ids this box has counted already.
// Such a check-in is listed here as it is inserted, and the catch-up counts the listed ones too.
// The triggers that take a counted check-in back out of the tables when it changes or goes now
// pass over a listed one: it was never counted. (A listed check-in deleted before it is counted
// stays listed until the catch-up, which counts what check_ins holds and empties the list.)
const COUNTED = 'old.id <= (SELECT counted_through FROM check_in_metrics_state)'
const COUNTED_AND_NOT_LATE = `(${COUNTED} AND old.id NOT IN (SELECT check_in_id FROM check_in_metrics_late))`
const TAKING_OUT = ['check_in_day_counts_update', 'check_in_local_times_update', 'check_in_metrics_delete']

export async function up(db: Kysely<any>): Promise<void> {
  await runStatements(db, [
    `CREATE TABLE check_in_metrics_late (check_in_id INTEGER PRIMARY KEY)`,
    `CREATE TRIGGER check_in_metrics_late_insert AFTER INSERT ON check_ins
      WHEN new.id <= (SELECT counted_through FROM check_in_metrics_state) BEGIN
      INSERT OR IGNORE INTO check_in_metrics_late (check_in_id) VALUES (new.id);
    END`,
  ])
  for (const name of TAKING_OUT) {
    const row = await sql<{
      sql: string
    }>`SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = ${name}`
      .execute(db)
      .then((result) => result.rows[0])
    if (!row || !row.sql.includes(COUNTED))
      throw new Error(`trigger ${name} is not as migration 0019 made it`)
    await sql.raw(`DROP TRIGGER ${name}`).execute(db)
    await sql.raw(row.sql.replaceAll(COUNTED, COUNTED_AND_NOT_LATE)).execute(db)
  }
}
