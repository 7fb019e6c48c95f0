import type { Db } from '../../db/connection.ts'
import { addDays } from '../../lib/local-time.ts'
import type { Logger } from '../../lib/log.ts'
import { prepareSpans, rollDays } from './roll.ts'

/*
 * Keeping the daily membership rollup current. Nothing rolls at midnight: before the rollup is read,
 * bringMembershipRollupCurrent rolls every day it is missing (those after the last day rolled,
 * through today) and every day the triggers of migration 0010 marked dirty since. So it is current
 * whenever it is read, also after the box was off or its clock moved.
 */

/** Days rolled per transaction: each holds the one writer connection (and the door) briefly. */
export const DAYS_PER_CHUNK = 60

export interface RollupProgress {
  /** the first day this catch-up rolls */
  from: string
  /** today: the last day it rolls */
  through: string
  /** the last day rolled so far */
  rolledThrough: string
  /** days rolled so far, of `days` */
  rolled: number
  days: number
}

export interface CatchUpOptions {
  /** After each chunk of days. */
  onProgress?: (progress: RollupProgress) => void
  /** Days rolled per transaction; default DAYS_PER_CHUNK. */
  daysPerChunk?: number
  /** Stops between chunks (serve stopping): what is rolled stays, the rest waits for the next catch-up. */
  signal?: AbortSignal
}

/** The catch-up under way on each connection, which every caller meanwhile waits for. */
const underWay = new WeakMap<Db, Promise<void>>()

/**
 * Rolls the days the rollup is missing or has marked dirty, through `today` (organization-local),
 * on the writer `db`, in short transactions that let the event loop run between them. Only one
 * runs at a time per connection: a caller arriving while one is under way waits for that one.
 */
export function bringMembershipRollupCurrent(
  db: Db,
  today: string,
  options: CatchUpOptions = {},
): Promise<void> {
  const running = underWay.get(db)
  if (running) return running
  const catchUp = catchUpThrough(db, today, options).finally(() => underWay.delete(db))
  underWay.set(db, catchUp)
  return catchUp
}

/**
 * Clears the rollup and rolls all history again through `today`, with today's billing locations,
 * members and add-ons for every day.
 */
export async function rebuildMembershipRollup(
  db: Db,
  today: string,
  options: CatchUpOptions = {},
): Promise<void> {
  // A catch-up under way finishes first, so the two never interleave their chunks.
  await underWay.get(db)
  await db.transaction().execute(async (trx) => {
    for (const table of [
      'membership_day_counts',
      'member_day_counts',
      'add_on_day_counts',
      'member_holding_set_items',
      'member_holding_sets',
      'membership_holdings',
    ] as const) {
      await trx.deleteFrom(table).execute()
    }
    await trx.updateTable('membership_rollup_state').set({ rolled_through: null, dirty_from: null }).execute()
  })
  await bringMembershipRollupCurrent(db, today, options)
}

async function catchUpThrough(db: Db, today: string, options: CatchUpOptions): Promise<void> {
  // Looked at outside a transaction first: rolled through today with nothing marked, as for most
  // queries, nothing is claimed, so nothing commits and nothing waits for the disk.
  const state = await readState(db)
  if (state.rolled_through === today && state.dirty_from === null) return
  pass: for (;;) {
    const from = await startPass(db, today)
    if (from === null) return
    const days = daysBetween(from, today) + 1
    let rolled = 0
    const chunkDays = options.daysPerChunk ?? DAYS_PER_CHUNK
    for (let chunkFrom = from; chunkFrom <= today; chunkFrom = addDays(chunkFrom, chunkDays)) {
      if (options.signal?.aborted) return
      const chunkThrough = minDay(addDays(chunkFrom, chunkDays - 1), today)
      const rolledChunk = await db.transaction().execute(async (trx) => {
        // A write since the pass began may have changed days its spans cover: begin again.
        if ((await readState(trx)).dirty_from !== null) return false
        await rollDays(trx, chunkFrom, chunkThrough, { dropLater: chunkThrough === today })
        await trx.updateTable('membership_rollup_state').set({ rolled_through: chunkThrough }).execute()
        return true
      })
      if (!rolledChunk) continue pass
      rolled += daysBetween(chunkFrom, chunkThrough) + 1
      options.onProgress?.({ from, through: today, rolledThrough: chunkThrough, rolled, days })
      // Requests waiting for the connection (a check-in at the door) go before the next chunk.
      await new Promise((resolve) => setImmediate(resolve))
    }
    if ((await readState(db)).dirty_from === null) return
  }
}

const readState = (db: Db) =>
  db.selectFrom('membership_rollup_state').select(['rolled_through', 'dirty_from']).executeTakeFirstOrThrow()

/**
 * Claims the days to roll, from the first one (null: the rollup is current) through today, in one
 * transaction that also reads their history into spans: the dirty mark is cleared and rolled_through
 * set to the day before, so any write after this marks the rollup dirty again and the pass, which
 * checks before each chunk, begins again from the earliest day it touched.
 */
async function startPass(db: Db, today: string): Promise<string | null> {
  return db.transaction().execute(async (trx) => {
    const state = await readState(trx)
    let from: string
    if (state.rolled_through === null) {
      const first = await trx
        .selectFrom('membership_status_changes')
        .select((eb) => eb.fn.min('changed_on').as('day'))
        .executeTakeFirst()
      from = minDay(first?.day ?? today, today)
    } else {
      const next = addDays(state.rolled_through, 1)
      from = state.dirty_from === null ? next : minDay(state.dirty_from, next)
      // A clock set back: today is rolled again, and the days rolled ahead of it dropped.
      if (state.rolled_through > today) from = minDay(from, today)
      if (from > today) return null
    }
    await trx
      .updateTable('membership_rollup_state')
      .set({ rolled_through: addDays(from, -1), dirty_from: null })
      .execute()
    await prepareSpans(trx, from, today)
    return from
  })
}

const minDay = (a: string, b: string) => (a < b ? a : b)

const daysBetween = (from: string, to: string) =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000)

/**
 * serve's catch-up at start: after the box was off (or, on the first start after the upgrade, all
 * history), logged as it goes. It runs beside the door; a metrics query arriving meanwhile waits
 * for it. Resolves once it is done or stopped by `signal`; a failure is logged, and the next query
 * tries again.
 */
export async function catchUpAtStart(db: Db, today: string, log: Logger, signal: AbortSignal): Promise<void> {
  const started = performance.now()
  let days = 0
  try {
    await bringMembershipRollupCurrent(db, today, {
      signal,
      onProgress(progress) {
        days = progress.days
        if (progress.days > DAYS_PER_CHUNK)
          log.info('membership rollup: rolling', {
            rolled_through: progress.rolledThrough,
            through: progress.through,
            days_rolled: progress.rolled,
            days: progress.days,
          })
      },
    })
    if (days > 0)
      log.info('membership rollup current', {
        through: today,
        days_rolled: days,
        ms: Math.round(performance.now() - started),
      })
  } catch (error) {
    log.error('membership rollup: catch-up failed', {
      error: error instanceof Error ? error.message : String(error),
    })
  }
}
