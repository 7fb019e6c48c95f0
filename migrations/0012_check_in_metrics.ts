import { sql, type Kysely } from 'kysely'
import { runStatements } from './migration.ts'

// The check-in metrics read a year of check-ins at the speed of a dashboard, not row by row.
//
// check_ins.local_time is the gym's wall-clock time of day (HH:MM:SS) beside local_date, written by
// the door with the row, so a time-of-day window compares stored text instead of working out every
// row's wall clock from created_at. check_ins_local_day holds both, then what a check-in count
// filters on and counts, so a window of every day of a year is read from the index alone, one
// seek per day.
//
// check_in_day_counts is the number of check-ins (and of first-ever ones: check_in_count 1) per
// gym-local day, gym, entry method and product used (the membership type for MEM and for GUE, a
// host's membership; the entry pass type for ENT; the event type for EVE; 0 for FRE and MIG).
// Triggers keep it with every write of check_ins, whoever writes them, so counting five years of
// check-ins reads some thousands of rows instead of every check-in.

/** The product a check-in row (`row` is NEW or OLD in a trigger, or a table alias) was let in on. */
export const productOf = (row: string) => `CASE
    WHEN ${row}.entry_method IN ('MEM', 'GUE') THEN
      (SELECT membership_type_id FROM customer_memberships WHERE id = ${row}.customer_membership_id)
    WHEN ${row}.entry_method = 'ENT' THEN
      (SELECT entry_pass_type_id FROM customer_entry_passes WHERE id = ${row}.customer_entry_pass_id)
    WHEN ${row}.entry_method = 'EVE' THEN
      (SELECT events.event_type_id FROM reservations JOIN events ON events.id = reservations.event_id
        WHERE reservations.id = ${row}.reservation_id)
  END`

/** Counts the check-in `row` (NEW or OLD in a trigger) into its day's row. */
export const countIn = (row: string) => `INSERT INTO check_in_day_counts
      (local_date, gym_id, entry_method, product_id, check_ins, first_check_ins)
      VALUES (${row}.local_date, ${row}.gym_id, ${row}.entry_method, coalesce(${productOf(row)}, 0), 1,
        ${row}.check_in_count IS 1)
      ON CONFLICT DO UPDATE SET check_ins = check_ins + 1,
        first_check_ins = first_check_ins + excluded.first_check_ins;`

/**
 * Counts the check-in `row` (NEW or OLD in a trigger) out of its day's row; with `onlyIf`, only
 * when that condition holds.
 */
export const countOut = (row: string, onlyIf?: string) => `UPDATE check_in_day_counts
      SET check_ins = check_ins - 1, first_check_ins = first_check_ins - (${row}.check_in_count IS 1)
      WHERE local_date = ${row}.local_date AND gym_id = ${row}.gym_id
        AND entry_method = ${row}.entry_method AND product_id = coalesce(${productOf(row)}, 0)${
          onlyIf === undefined ? '' : `\n        AND ${onlyIf}`
        };`

export async function up(db: Kysely<any>): Promise<void> {
  await runStatements(db, [`ALTER TABLE check_ins ADD COLUMN local_time TEXT NOT NULL DEFAULT ''`])
  await fillLocalTimes(db)
  await runStatements(db, [
    `CREATE INDEX check_ins_local_day
      ON check_ins (local_date, local_time, gym_id, entry_method, customer_id, check_in_count)`,
    `CREATE TABLE check_in_day_counts (
      local_date TEXT NOT NULL,
      gym_id INTEGER NOT NULL,
      entry_method TEXT NOT NULL,
      product_id INTEGER NOT NULL,
      check_ins INTEGER NOT NULL,
      first_check_ins INTEGER NOT NULL,
      PRIMARY KEY (local_date, gym_id, entry_method, product_id)
    ) WITHOUT ROWID`,
    `INSERT INTO check_in_day_counts
      (local_date, gym_id, entry_method, product_id, check_ins, first_check_ins)
      SELECT ci.local_date, ci.gym_id, ci.entry_method, coalesce(${productOf('ci')}, 0), count(*),
        sum(ci.check_in_count IS 1)
      FROM check_ins AS ci
      GROUP BY 1, 2, 3, 4`,
    `CREATE TRIGGER check_in_day_counts_insert AFTER INSERT ON check_ins BEGIN
      ${countIn('new')}
    END`,
    `CREATE TRIGGER check_in_day_counts_delete AFTER DELETE ON check_ins BEGIN
      ${countOut('old')}
    END`,
    `CREATE TRIGGER check_in_day_counts_update AFTER UPDATE OF local_date, gym_id, entry_method,
      customer_membership_id, customer_entry_pass_id, reservation_id, check_in_count ON check_ins BEGIN
      ${countOut('old')}
      ${countIn('new')}
    END`,
  ])
}

const MINUTE_MS = 60_000
const DAY_MS = 86_400_000

/** `zone`'s UTC offset at `ms`, in minutes east of UTC, from Intl's "GMT-07:00". */
function offsetMinutes(format: Intl.DateTimeFormat, ms: number): number {
  const text = format.format(ms)
  const match = /GMT([+\u2212-])(\d{2}):(\d{2})/.exec(text)
  if (!match) return 0
  return (match[1] === '+' ? 1 : -1) * (Number(match[2]) * 60 + Number(match[3]))
}

/**
 * The existing check-ins' local_time, gym by gym in the gym's zone: the zone's offsets over the
 * gym's check-ins (sampled day by day, each change narrowed to its minute) written into one UPDATE
 * as a CASE on created_at, so SQLite computes every row's wall clock itself.
 */
async function fillLocalTimes(db: Kysely<any>): Promise<void> {
  const gyms = await sql<{ id: number; time_zone: string; first: string; last: string }>`
    SELECT gyms.id, gyms.time_zone, min(check_ins.created_at) AS first, max(check_ins.created_at) AS last
    FROM gyms JOIN check_ins ON check_ins.gym_id = gyms.id GROUP BY gyms.id`.execute(db)
  for (const gym of gyms.rows) {
    const format = new Intl.DateTimeFormat('en-US', { timeZone: gym.time_zone, timeZoneName: 'longOffset' })
    const to = Date.parse(gym.last)
    let at = Date.parse(gym.first)
    let offset = offsetMinutes(format, at)
    const changes: { fromMs: number; offset: number }[] = []
    while (at < to) {
      const next = Math.min(at + DAY_MS, to)
      const nextOffset = offsetMinutes(format, next)
      if (nextOffset !== offset) {
        let low = at
        let high = next
        while (high - low > MINUTE_MS) {
          const middle = low + Math.floor((high - low) / 2 / MINUTE_MS) * MINUTE_MS
          if (offsetMinutes(format, middle) === offset) low = middle
          else high = middle
        }
        changes.push({ fromMs: high, offset: nextOffset })
        offset = nextOffset
      }
      at = next
    }
    const modifier = (minutes: number) => `${minutes} minutes`
    const firstOffset = offsetMinutes(format, Date.parse(gym.first))
    const cases = changes
      .toReversed()
      .map(
        (change) =>
          sql`WHEN created_at >= ${new Date(change.fromMs).toISOString()} THEN ${modifier(change.offset)}`,
      )
    const shift =
      cases.length === 0
        ? sql`${modifier(firstOffset)}`
        : sql`CASE ${sql.join(cases, sql` `)} ELSE ${modifier(firstOffset)} END`
    await sql`UPDATE check_ins SET local_time = time(created_at, ${shift}) WHERE gym_id = ${gym.id}`.execute(
      db,
    )
  }
}
