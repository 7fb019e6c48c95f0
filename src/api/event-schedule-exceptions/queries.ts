import type { Insertable, Selectable } from 'kysely'
import type { Db } from '../../db/connection.ts'
import { listFrom, type ListSource } from '../../db/list-source.ts'
import type { EventScheduleExceptionTable } from '../../db/schema.ts'

export type ScheduleExceptionRow = Selectable<EventScheduleExceptionTable> & { event_type_id: number }

const ofType = (db: Db, eventTypeId: number) =>
  db
    .selectFrom('event_schedule_exceptions as x')
    .innerJoin('event_schedules as s', 's.id', 'x.schedule_id')
    .where('s.event_type_id', '=', eventTypeId)

const withType = (query: ReturnType<typeof ofType>) => query.selectAll('x').select('s.event_type_id')

/** The exceptions of the event type's schedules, by date, then id. */
export const listScheduleExceptions = (db: Db, eventTypeId: number): ListSource<ScheduleExceptionRow> =>
  listFrom(ofType(db, eventTypeId), {
    order: (query) => query.orderBy('x.date').orderBy('x.id'),
    rows: (page) => withType(page).execute(),
  })

/** Undefined for no such exception, and for one of another event type's schedule. */
export const getScheduleException = (
  db: Db,
  eventTypeId: number,
  id: number,
): Promise<ScheduleExceptionRow | undefined> =>
  withType(ofType(db, eventTypeId)).where('x.id', '=', id).executeTakeFirst()

/** The schedule's exception on `date`, if it has one. */
export const exceptionOn = (db: Db, scheduleId: number, date: string) =>
  db
    .selectFrom('event_schedule_exceptions')
    .select('id')
    .where('schedule_id', '=', scheduleId)
    .where('date', '=', date)
    .executeTakeFirst()

export async function insertScheduleException(
  db: Db,
  row: Insertable<EventScheduleExceptionTable>,
): Promise<number> {
  return (
    await db.insertInto('event_schedule_exceptions').values(row).returning('id').executeTakeFirstOrThrow()
  ).id
}

export async function deleteScheduleException(db: Db, id: number): Promise<void> {
  await db.deleteFrom('event_schedule_exceptions').where('id', '=', id).execute()
}
