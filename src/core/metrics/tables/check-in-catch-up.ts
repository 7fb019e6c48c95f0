import type { Db } from '../../../db/connection.ts'
import { countCheckInDays } from './check-in-day-counts.ts'
import type { CheckInIds } from './check-in-ids.ts'
import { countCheckInLocalTimes } from './check-in-local-times.ts'
import { countFirstVisitDays } from './customer-first-visit-days.ts'
import { countFirstUses } from './product-first-uses.ts'
import { listSameDayCheckIns } from './same-day-check-ins.ts'

/*
 * Keeping the check-in metrics' own tables (the check-ins by local day and time, per-day counts,
 * first uses of products, first visit days, same-day check-ins) current without the door's help.
 * The door's transaction writes the check-in and nothing for the metrics, not even an index;
 * before a metric reads those tables, bringCheckInMetricsCurrent counts every check-in added since
 * they were last brought current, a chunk of ids at a time, each table by one statement over the
 * chunk.
 * check_in_metrics_state.counted_through is the last id counted (migrations 0019 and 0020 also
 * have the triggers that keep the tables when a check-in is deleted or changed).
 */

/**
 * Check-ins counted per transaction. Each transaction holds the one writer connection, and so the
 * door: a check-in arriving meanwhile waits until that chunk is counted.
 */
export const CHECK_INS_PER_CHUNK = 1_000

/** The catch-up under way on each connection, which every caller meanwhile waits for. */
const underWay = new WeakMap<Db, Promise<void>>()

/**
 * Counts the check-ins added since the last catch-up into the check-in metrics' tables, on the
 * writer `db`, in short transactions that let the event loop (and the door) run between them.
 * Only one runs at a time per connection: a caller arriving while one is under way waits for it.
 */
export function bringCheckInMetricsCurrent(db: Db): Promise<void> {
  const running = underWay.get(db)
  if (running) return running
  const catchUp = countNewCheckIns(db).finally(() => underWay.delete(db))
  underWay.set(db, catchUp)
  return catchUp
}

async function countNewCheckIns(db: Db): Promise<void> {
  // Looked at outside a transaction first: when nothing is new, as for most queries, nothing
  // commits, so nothing waits for the disk.
  while (await hasUncounted(db)) {
    await db.transaction().execute(async (trx) => {
      const { countedThrough, lastId } = await readProgress(trx)
      if (lastId <= countedThrough) return
      const through = Math.min(lastId, countedThrough + CHECK_INS_PER_CHUNK)
      await countInto(trx, { after: countedThrough, through })
      await markCounted(trx, through)
    })
    // Requests waiting for the connection (a check-in at the door) go before the next chunk.
    await new Promise((resolve) => setImmediate(resolve))
  }
  // Another site's check-ins that came in below the ids counted (few: those since the last catch-up).
  if (await hasLate(db)) {
    await db.transaction().execute(async (trx) => {
      await countInto(trx, 'late')
      await trx.deleteFrom('check_in_metrics_late').execute()
    })
  }
}

const hasLate = async (db: Db) =>
  (await db.selectFrom('check_in_metrics_late').select('check_in_id').limit(1).executeTakeFirst()) !==
  undefined

const hasUncounted = async (db: Db) => {
  const { countedThrough, lastId } = await readProgress(db)
  return lastId > countedThrough
}

/** The tables the catch-up keeps, every one of which countInto writes. */
export const CHECK_IN_METRIC_TABLES = [
  'check_in_local_times',
  'check_in_day_counts',
  'product_first_uses',
  'customer_first_visit_days',
  'same_day_check_ins',
] as const

/**
 * Empties the check-in metrics' tables and counts every check-in there is into them at once: for
 * a bulk load of check-ins (the demo), inside its transaction.
 */
export async function recountCheckInMetrics(db: Db): Promise<void> {
  for (const table of CHECK_IN_METRIC_TABLES) await db.deleteFrom(table).execute()
  await db.deleteFrom('check_in_metrics_late').execute()
  await countInto(db, 'all')
  await markCounted(db, (await readProgress(db)).lastId)
}

async function readProgress(db: Db): Promise<{ countedThrough: number; lastId: number }> {
  const row = await db
    .selectFrom('check_in_metrics_state')
    .select((eb) => [
      'counted_through',
      eb
        .selectFrom('check_ins')
        .select((inner) => inner.fn.max('id').as('id'))
        .as('last_id'),
    ])
    .executeTakeFirstOrThrow()
  return { countedThrough: row.counted_through, lastId: row.last_id ?? 0 }
}

/**
 * Counts the check-ins of `ids` into every table; into check_in_local_times first, where the
 * same-day check-ins look for a customer's other check-ins of the day.
 */
async function countInto(db: Db, ids: CheckInIds): Promise<void> {
  await countCheckInLocalTimes(db, ids)
  await countCheckInDays(db, ids)
  await countFirstUses(db, ids)
  await countFirstVisitDays(db, ids)
  await listSameDayCheckIns(db, ids)
}

const markCounted = (db: Db, through: number) =>
  db.updateTable('check_in_metrics_state').set({ counted_through: through }).execute()
