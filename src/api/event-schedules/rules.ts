import type { Static } from 'elysia'
import { applyScheduleChangeIn, makeScheduleEventsIn } from '../../core/classes/schedules.ts'
import { toFlag } from '../../db/flags.ts'
import type { Deps } from '../../deps.ts'
import { scheduleMessages, sortedWeekdays, type ScheduleWeekday } from '../../domain/schedules.ts'
import { checkDecimal } from '../../http/decimal.ts'
import type { FieldErrorCollector } from '../../http/errors.ts'
import type { CheckedBody } from '../../http/validation.ts'
import { getEventType } from '../event-types/queries.ts'
import { lookUpGym } from '../gyms/queries.ts'
import { insertSchedule, updateSchedule, type ScheduleRow } from './queries.ts'
import type { ScheduleWrite } from './schema.ts'

type ScheduleInput = Static<typeof ScheduleWrite>

/** The weekdays as stored (each once, Monday first); a list that is empty or names a day twice is refused. */
function checkWeekdays(
  days: ScheduleWeekday[] | undefined,
  errors: FieldErrorCollector,
): ScheduleWeekday[] | undefined {
  if (days === undefined) return undefined
  if (days.length === 0) errors.add('weekdays', scheduleMessages.emptyWeekdays)
  const twice = new Set(days.filter((day, i) => days.indexOf(day) !== i))
  for (const day of twice) errors.add('weekdays', scheduleMessages.weekdayTwice(day))
  return sortedWeekdays(days)
}

/**
 * The rules a schema cannot say: the gym exists, the weekdays, the price, and the end date not
 * before the start date (judged on the whole resulting schedule for PATCH).
 */
async function checkSchedule(
  deps: Pick<Deps, 'db'>,
  body: CheckedBody<Partial<ScheduleInput>>,
  existing?: ScheduleRow,
) {
  const { fields, errors } = body
  await lookUpGym(deps.db, errors, 'gym_id', fields.gym_id)
  const weekdays = checkWeekdays(fields.weekdays, errors)
  const priceCents = checkDecimal(fields, errors, 'price')
  const start = errors.has('start_date') ? undefined : (fields.start_date ?? existing?.start_date)
  const end = errors.has('end_date')
    ? undefined
    : fields.end_date !== undefined
      ? fields.end_date
      : existing?.end_date
  if (start !== undefined && end !== undefined && end !== null && end < start)
    errors.add('end_date', scheduleMessages.endBeforeStart)
  return { weekdays: weekdays && JSON.stringify(weekdays), priceCents }
}

/** POST: the schedule, and its events up to the horizon, in one transaction. */
export async function createSchedule(
  deps: Pick<Deps, 'db' | 'clock'>,
  eventTypeId: number,
  body: CheckedBody<ScheduleInput>,
): Promise<number> {
  const checked = await checkSchedule(deps, body)
  const input = body.valid()
  const type = (await getEventType(deps.db, eventTypeId))!
  const now = deps.clock.now()
  const stamp = now.toISOString()
  return deps.db.transaction().execute(async (trx) => {
    const id = await insertSchedule(trx, {
      event_type_id: eventTypeId,
      gym_id: input.gym_id ?? type.gym_id,
      weekdays: checked.weekdays!,
      start_time: input.start_time,
      duration_minutes: input.duration_minutes,
      start_date: input.start_date,
      end_date: input.end_date ?? null,
      capacity: input.capacity ?? null,
      price_cents: checked.priceCents ?? 0,
      is_active: toFlag(input.is_active) ?? 1,
      created_at: stamp,
      updated_at: stamp,
    })
    await makeScheduleEventsIn(trx, id, now)
    return id
  })
}

/** PUT/PATCH; fields left out keep their values. Its future events follow in the same transaction. */
export async function changeSchedule(
  deps: Pick<Deps, 'db' | 'clock'>,
  row: ScheduleRow,
  body: CheckedBody<Partial<ScheduleInput>>,
): Promise<void> {
  const checked = await checkSchedule(deps, body, row)
  const input = body.valid()
  const now = deps.clock.now()
  await deps.db.transaction().execute(async (trx) => {
    await updateSchedule(trx, row.id, {
      gym_id: input.gym_id,
      weekdays: checked.weekdays,
      start_time: input.start_time,
      duration_minutes: input.duration_minutes,
      start_date: input.start_date,
      end_date: input.end_date,
      capacity: input.capacity,
      price_cents: checked.priceCents,
      is_active: toFlag(input.is_active),
      updated_at: now.toISOString(),
    })
    await applyScheduleChangeIn(trx, row, now)
  })
}
