import type { Selectable } from 'kysely'
import { DateTime } from 'luxon'
import type { Db } from '../../db/connection.ts'
import type { EventScheduleTable } from '../../db/schema.ts'
import { SITE_ID_MODULUS } from '../../db/site-ids.ts'
import { weekdayOf, type ScheduleWeekday } from '../../domain/schedules.ts'
import type { Clock } from '../../lib/clock.ts'
import { addDays, localDate } from '../../lib/local-time.ts'
import type { Logger } from '../../lib/log.ts'
import { cancelEventIn } from './booking.ts'
import { promoteAroundIn, promoteForTypeIn } from './waitlist.ts'

/*
 * The generator of an event type's schedules (classes.md, "Schedules"): it keeps each active
 * schedule's events made `booking_horizon_days` ahead (on its event type), one event per matching
 * local date, never two for one date (the unique index events_schedule_date; each date is looked up
 * before its event is inserted, inside the caller's transaction). A date matches a schedule when the
 * schedule is active, the date is within its start_date..end_date, falls on one of its weekdays, and
 * has no exception.
 *
 * An occurrence starts on its date at the schedule's wall-clock start_time in its gym's zone, on
 * both sides of a daylight-saving change. A wall time that does not exist that day (02:30 on a
 * spring-forward day in America/Denver) is shifted forward by the length of the gap, as luxon does
 * (03:30 local); a wall time that happens twice (01:30 on a fall-back day) is the second of the two,
 * in standard time, as luxon reads it.
 *
 * It runs:
 * - when a schedule is created or changed, and when an exception is made or removed: in the
 *   request's transaction, before the answer (`makeScheduleEventsIn`, `applyScheduleChangeIn`,
 *   `cancelOccurrenceIn`, `restoreOccurrenceIn`);
 * - as days pass, without a request: `belay serve` runs `makeAllScheduleEvents` at its start and
 *   every hour after (`startScheduleRuns`), one short transaction per schedule.
 *
 * On a box that is a site of a hub (src/core/sites/), only the site that made a schedule makes new
 * events for it: a site gives the rows it makes ids congruent to its number modulo 1024, so that
 * site is the one whose number is the schedule's id modulo 1024 (a box without a hub owns every
 * schedule). Any site applies a change of a schedule, or an exception, to the events already made:
 * those are updates of rows every site holds, never a second event for a date.
 */

export type ScheduleRow = Selectable<EventScheduleTable>

/** A schedule with what its events need from its gym and its event type. */
interface ScheduleForEvents extends ScheduleRow {
  time_zone: string
  booking_horizon_days: number
  type_name: string
  type_status: 'DRA' | 'ACT' | 'RET'
}

/** One event a schedule made, with how many live (not cancelled) reservations it holds. */
interface MadeEvent {
  id: number
  schedule_date: string
  gym_id: number
  start_at: string
  end_at: string
  capacity: number | null
  price_cents: number
  is_cancelled: 0 | 1
  live: number
}

/** The instants of a schedule's occurrence on a local date, as the events table stores them. */
export function occurrenceTimes(
  schedule: Pick<ScheduleRow, 'start_time' | 'duration_minutes'>,
  date: string,
  zone: string,
): { start_at: string; end_at: string } {
  const start = DateTime.fromISO(`${date}T${schedule.start_time}`, { zone })
  return {
    start_at: start.toJSDate().toISOString(),
    end_at: start.plus({ minutes: schedule.duration_minutes }).toJSDate().toISOString(),
  }
}

const weekdaysOf = (schedule: Pick<ScheduleRow, 'weekdays'>) =>
  new Set(JSON.parse(schedule.weekdays) as ScheduleWeekday[])

/** Whether `date` is one of the schedule's: active, within its dates, on its weekdays, no exception. */
function matches(schedule: ScheduleRow, date: string, exceptions: ReadonlySet<string>): boolean {
  return (
    schedule.is_active === 1 &&
    date >= schedule.start_date &&
    (schedule.end_date === null || date <= schedule.end_date) &&
    weekdaysOf(schedule).has(weekdayOf(date)) &&
    !exceptions.has(date)
  )
}

/** The number of this box as a site of a hub; null for a box on its own. */
async function siteNumber(db: Db): Promise<number | null> {
  const row = await db.selectFrom('sync_state').select('site_number').where('id', '=', 1).executeTakeFirst()
  return row?.site_number ?? null
}

/** Whether the box numbered `site` (null: a box without a hub) makes the schedule's events. */
const owns = (site: number | null, scheduleId: number) =>
  site === null || scheduleId % SITE_ID_MODULUS === site

/** Whether this box makes the schedule's events: its own on a box without a hub, else its site's. */
export const ownsSchedule = async (db: Db, scheduleId: number): Promise<boolean> =>
  owns(await siteNumber(db), scheduleId)

const loadSchedule = (db: Db, scheduleId: number): Promise<ScheduleForEvents | undefined> =>
  db
    .selectFrom('event_schedules as s')
    .innerJoin('gyms as g', 'g.id', 's.gym_id')
    .innerJoin('event_types as et', 'et.id', 's.event_type_id')
    .selectAll('s')
    .select(['g.time_zone', 'et.booking_horizon_days', 'et.name as type_name', 'et.status as type_status'])
    .where('s.id', '=', scheduleId)
    .executeTakeFirst()

/** The dates from `today` on that have an exception. */
async function exceptionDates(db: Db, scheduleId: number, today: string): Promise<Set<string>> {
  const rows = await db
    .selectFrom('event_schedule_exceptions')
    .select('date')
    .where('schedule_id', '=', scheduleId)
    .where('date', '>=', today)
    .execute()
  return new Set(rows.map((row) => row.date))
}

/** The events the schedule made for `today` and later, by date, cancelled ones too. */
async function madeEvents(db: Db, scheduleId: number, today: string): Promise<Map<string, MadeEvent>> {
  const rows = await db
    .selectFrom('events as e')
    .select([
      'e.id',
      'e.schedule_date',
      'e.gym_id',
      'e.start_at',
      'e.end_at',
      'e.capacity',
      'e.price_cents',
      'e.is_cancelled',
    ])
    .select((eb) =>
      eb
        .selectFrom('reservations as r')
        .select(eb.fn.countAll<number>().as('n'))
        .whereRef('r.event_id', '=', 'e.id')
        .where('r.is_cancelled', '=', 0)
        .as('live'),
    )
    .where('e.schedule_id', '=', scheduleId)
    .where('e.schedule_date', '>=', today)
    .execute()
  return new Map(
    rows.map((row) => [
      row.schedule_date!,
      { ...row, schedule_date: row.schedule_date!, live: row.live ?? 0 },
    ]),
  )
}

/** Where the schedule stands at `now`: its local today, its exceptions and its events from today. */
async function situation(db: Db, schedule: ScheduleForEvents, now: Date) {
  const today = localDate(now, schedule.time_zone)
  return {
    today,
    exceptions: await exceptionDates(db, schedule.id, today),
    made: await madeEvents(db, schedule.id, today),
  }
}

/** What an event of the schedule on `date` holds: its times, gym, capacity and price. */
const eventTerms = (schedule: ScheduleForEvents, date: string) => ({
  ...occurrenceTimes(schedule, date, schedule.time_zone),
  gym_id: schedule.gym_id,
  capacity: schedule.capacity,
  price_cents: schedule.price_cents,
})

/**
 * Makes the events missing from today to the horizon: one for each matching date with no event yet
 * (a cancelled one counts: it is kept, never made twice) whose start is still to come. Only the box
 * that owns the schedule makes any, only while it is active and its event type is not retired.
 * Returns how many it made.
 */
async function makeMissing(
  trx: Db,
  schedule: ScheduleForEvents,
  at: { today: string; exceptions: ReadonlySet<string>; made: ReadonlyMap<string, MadeEvent> },
  now: Date,
): Promise<number> {
  if (schedule.is_active !== 1 || schedule.type_status === 'RET') return 0
  if (!(await ownsSchedule(trx, schedule.id))) return 0
  const stamp = now.toISOString()
  let count = 0
  for (let day = 0; day < schedule.booking_horizon_days; day++) {
    const date = addDays(at.today, day)
    if (at.made.has(date) || !matches(schedule, date, at.exceptions)) continue
    const terms = eventTerms(schedule, date)
    if (terms.start_at <= stamp) continue
    await trx
      .insertInto('events')
      .values({
        event_type_id: schedule.event_type_id,
        name: schedule.type_name,
        includes_entry: 1,
        is_cancelled: 0,
        ...terms,
        schedule_id: schedule.id,
        schedule_date: date,
        created_at: stamp,
        updated_at: stamp,
      })
      .execute()
    count++
  }
  return count
}

/**
 * Makes a schedule's missing events inside the caller's transaction (a schedule just created, and
 * each of serve's runs). Returns how many it made.
 */
export async function makeScheduleEventsIn(trx: Db, scheduleId: number, now: Date): Promise<number> {
  const schedule = await loadSchedule(trx, scheduleId)
  if (!schedule) return 0
  return makeMissing(trx, schedule, await situation(trx, schedule, now), now)
}

/**
 * Applies a change of a schedule (`before` is its row as it was) to its events that have not
 * started and hold no live reservation, inside the caller's transaction, then makes the missing
 * ones and offers the spots that opened to the type's waitlists. An event on a date that no longer matches (a weekday taken off, the dates shortened, the
 * schedule deactivated) is cancelled with cancelEventIn; the others take what changed: the times
 * when the start time, duration or gym changed them, the gym, the capacity, the price. A cancelled
 * event on a date the change brings back (a weekday put back, the schedule reactivated) is made
 * again (uncancelled, with the schedule's terms); one cancelled on a date that matched before and
 * after stays cancelled (by hand, or by an exception). Events with live reservations stay as they
 * are.
 */
export async function applyScheduleChangeIn(trx: Db, before: ScheduleRow, now: Date): Promise<void> {
  const schedule = await loadSchedule(trx, before.id)
  if (!schedule) return
  const at = await situation(trx, schedule, now)
  const stamp = now.toISOString()
  for (const [date, event] of at.made) {
    if (event.start_at <= stamp || event.live > 0) continue
    const terms = eventTerms(schedule, date)
    const wanted = matches(schedule, date, at.exceptions) && terms.start_at > stamp
    if (event.is_cancelled === 1) {
      if (wanted && !matches(before, date, at.exceptions))
        await updateMade(trx, event.id, { ...terms, is_cancelled: 0 }, stamp)
      continue
    }
    if (!wanted) {
      await cancelEventIn(trx, event.id, now)
      continue
    }
    const old = occurrenceTimes(before, date, schedule.time_zone)
    const changes = {
      ...(old.start_at !== terms.start_at || old.end_at !== terms.end_at || before.gym_id !== schedule.gym_id
        ? { start_at: terms.start_at, end_at: terms.end_at }
        : {}),
      ...(before.gym_id !== schedule.gym_id ? { gym_id: terms.gym_id } : {}),
      ...(before.capacity !== schedule.capacity ? { capacity: terms.capacity } : {}),
      ...(before.price_cents !== schedule.price_cents ? { price_cents: terms.price_cents } : {}),
    }
    if (Object.keys(changes).length > 0) await updateMade(trx, event.id, changes, stamp)
  }
  await makeMissing(trx, schedule, at, now)
  // A raised capacity, or an event moved or cancelled out of its type's overlap, may open spots.
  await promoteForTypeIn(trx, schedule.event_type_id, now)
}

async function updateMade(
  trx: Db,
  eventId: number,
  changes: Partial<
    Pick<MadeEvent, 'start_at' | 'end_at' | 'gym_id' | 'capacity' | 'price_cents' | 'is_cancelled'>
  >,
  stamp: string,
): Promise<void> {
  await trx
    .updateTable('events')
    .set({ ...changes, updated_at: stamp })
    .where('id', '=', eventId)
    .execute()
}

/**
 * An exception made for `date`: the schedule's event on that date, if it has not started and is
 * not cancelled yet, is cancelled with its reservations (their voucher uses given back) and its
 * waiting entries, inside the caller's transaction; the spots that frees at the type's overlapping
 * events are offered to their waitlists.
 */
export async function cancelOccurrenceIn(
  trx: Db,
  scheduleId: number,
  date: string,
  now: Date,
): Promise<void> {
  const event = await trx
    .selectFrom('events')
    .select(['id', 'start_at', 'is_cancelled'])
    .where('schedule_id', '=', scheduleId)
    .where('schedule_date', '=', date)
    .executeTakeFirst()
  if (!event || event.is_cancelled === 1 || event.start_at <= now.toISOString()) return
  await cancelEventIn(trx, event.id, now)
  // Its places no longer count against the type's capacity at the events it overlapped.
  await promoteAroundIn(trx, event.id, now)
}

/**
 * An exception for `date` removed: when the date matches the schedule and its start is still to
 * come, its cancelled event is made again (uncancelled, with the schedule's terms; the reservations
 * cancelled with it stay cancelled), or, with none yet, it is made as any missing date is.
 */
export async function restoreOccurrenceIn(
  trx: Db,
  scheduleId: number,
  date: string,
  now: Date,
): Promise<void> {
  const schedule = await loadSchedule(trx, scheduleId)
  if (!schedule) return
  const at = await situation(trx, schedule, now)
  const event = at.made.get(date)
  if (event) {
    const terms = eventTerms(schedule, date)
    const stamp = now.toISOString()
    if (event.is_cancelled === 1 && matches(schedule, date, at.exceptions) && terms.start_at > stamp)
      await updateMade(trx, event.id, { ...terms, is_cancelled: 0 }, stamp)
    return
  }
  await makeMissing(trx, schedule, at, now)
}

/**
 * Serve's run: the missing events of every active schedule this box owns, each schedule in a short
 * transaction of its own, so the door is never held for long. Returns how many events it made.
 */
export async function makeAllScheduleEvents(db: Db, now: Date): Promise<number> {
  const site = await siteNumber(db)
  const schedules = await db
    .selectFrom('event_schedules')
    .select('id')
    .where('is_active', '=', 1)
    .orderBy('id')
    .execute()
  let made = 0
  for (const { id } of schedules) {
    if (!owns(site, id)) continue
    made += await db.transaction().execute((trx) => makeScheduleEventsIn(trx, id, now))
  }
  return made
}

/** How often serve makes the events the passing days call for. */
export const SCHEDULE_RUN_INTERVAL_MS = 60 * 60 * 1000

export interface ScheduleRuns {
  /** Stops the runs, waiting for one under way to finish. */
  stop(): Promise<void>
}

/**
 * Serve's runs of the generator: one at once (the days that passed while the box was stopped), then
 * one every `intervalMs`. A failed run is logged and tried again at the next.
 */
export function startScheduleRuns(
  deps: { db: Db; clock: Clock; log: Logger },
  intervalMs = SCHEDULE_RUN_INTERVAL_MS,
): ScheduleRuns {
  let timer: ReturnType<typeof setTimeout> | undefined
  let running: Promise<void> | undefined
  let stopped = false

  const run = async () => {
    try {
      const made = await makeAllScheduleEvents(deps.db, deps.clock.now())
      if (made > 0) deps.log.info('schedule events made', { events: made })
    } catch (error) {
      deps.log.error('schedule events failed', { error: String(error) })
    }
    scheduleAfter(intervalMs)
  }
  const scheduleAfter = (ms: number) => {
    if (stopped) return
    timer = setTimeout(() => (running = run().finally(() => (running = undefined))), ms)
    // The server's socket keeps the process alive; a pending run must not on its own.
    timer.unref()
  }
  scheduleAfter(0)

  return {
    async stop() {
      stopped = true
      clearTimeout(timer)
      await running
    },
  }
}
