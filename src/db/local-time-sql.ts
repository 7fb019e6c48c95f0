import { sql, type RawBuilder } from 'kysely'
import type { OffsetPeriod } from '../lib/local-time.ts'

/*
 * SQLite knows no time zones. A statement that needs the wall clock of stored instants (UTC ISO
 * text, as every created_at is written) is given the zone's offsets over the instants it can meet
 * (lib/wall-clock.ts utcOffsetPeriods), written into it as a CASE, latest first; ISO texts compare
 * as the instants they name.
 */

/** The SQLite date-function modifier ('-420 minutes') that moves `instant` onto the zone's wall clock. */
export function utcOffsetModifier(instant: RawBuilder<unknown>, offsets: readonly OffsetPeriod[]) {
  const modifier = (period: OffsetPeriod) => `${period.offsetMinutes} minutes`
  const [first, ...changes] = offsets
  if (!first) throw new Error('utcOffsetModifier needs the offset of at least one period')
  return changes.length
    ? sql<string>`CASE ${sql.join(
        changes
          .toReversed()
          .map(
            (period) =>
              sql`WHEN ${instant} >= ${new Date(period.startMs).toISOString()} THEN ${modifier(period)}`,
          ),
        sql` `,
      )} ELSE ${modifier(first)} END`
    : sql<string>`${modifier(first)}`
}

/** The local date (YYYY-MM-DD) of `instant`. */
export const localDateOf = (instant: RawBuilder<unknown>, offsets: readonly OffsetPeriod[]) =>
  sql<string>`date(${instant}, ${utcOffsetModifier(instant, offsets)})`

/** The local time of day (HH:MM:SS) of `instant`. */
export const localTimeOf = (instant: RawBuilder<unknown>, offsets: readonly OffsetPeriod[]) =>
  sql<string>`time(${instant}, ${utcOffsetModifier(instant, offsets)})`
