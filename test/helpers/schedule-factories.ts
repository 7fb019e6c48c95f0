import type { Insertable, Selectable } from 'kysely'
import type { Db } from '../../src/db/connection.ts'
import type { EventScheduleTable } from '../../src/db/schema.ts'
import { START } from './app.ts'

/**
 * Event schedules built straight into the database (no events made: the generator is called by the
 * test), and the events a schedule made, read back in date order.
 */

/** Every day at 18:00 for an hour from 2026-11-22, open-ended, unless told. */
export const makeSchedule = (
  db: Db,
  fields: Partial<Insertable<EventScheduleTable>> & { event_type_id: number; gym_id: number },
): Promise<Selectable<EventScheduleTable>> =>
  db
    .insertInto('event_schedules')
    .values({
      weekdays: JSON.stringify(['MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT', 'SUN']),
      start_time: '18:00',
      duration_minutes: 60,
      start_date: '2026-11-22',
      end_date: null,
      created_at: START,
      updated_at: START,
      ...fields,
    })
    .returningAll()
    .executeTakeFirstOrThrow()

/** The events a schedule made, by date: what the generator sets on them. */
export const scheduleEvents = (db: Db, scheduleId: number) =>
  db
    .selectFrom('events')
    .select([
      'id',
      'schedule_date',
      'start_at',
      'end_at',
      'gym_id',
      'name',
      'capacity',
      'price_cents',
      'is_cancelled',
      'includes_entry',
    ])
    .where('schedule_id', '=', scheduleId)
    .orderBy('schedule_date')
    .execute()

/** [date, start_at, is_cancelled] of each event a schedule made, by date. */
export const scheduleDates = async (db: Db, scheduleId: number) =>
  (await scheduleEvents(db, scheduleId)).map((e) => [e.schedule_date, e.start_at, e.is_cancelled === 1])
