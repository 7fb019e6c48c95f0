import type { Static } from 'elysia'
import { cancelOccurrenceIn, restoreOccurrenceIn } from '../../core/classes/schedules.ts'
import type { Deps } from '../../deps.ts'
import { scheduleMessages } from '../../domain/schedules.ts'
import { ValidationError } from '../../http/errors.ts'
import { lookUpReferenced } from '../../http/references.ts'
import type { CheckedBody } from '../../http/validation.ts'
import { getSchedule } from '../event-schedules/queries.ts'
import {
  deleteScheduleException,
  exceptionOn,
  insertScheduleException,
  type ScheduleExceptionRow,
} from './queries.ts'
import type { ScheduleExceptionWrite } from './schema.ts'

/**
 * POST: the exception, and the cancellation of its date's event (with its reservations, their
 * voucher uses given back, and its waiting entries) when that has not started, in one transaction.
 * A second exception for the schedule and date is refused inside it, so two at once cannot both pass.
 */
export async function createScheduleException(
  deps: Pick<Deps, 'db' | 'clock'>,
  eventTypeId: number,
  body: CheckedBody<Static<typeof ScheduleExceptionWrite>>,
): Promise<number> {
  const { fields, errors } = body
  await lookUpReferenced(errors, 'schedule_id', fields.schedule_id, (id) =>
    getSchedule(deps.db, eventTypeId, id),
  )
  const input = body.valid()
  const now = deps.clock.now()
  const stamp = now.toISOString()
  return deps.db.transaction().execute(async (trx) => {
    if (await exceptionOn(trx, input.schedule_id, input.date))
      throw ValidationError.field('non_field_errors', scheduleMessages.exceptionTwice(input.date))
    const id = await insertScheduleException(trx, {
      schedule_id: input.schedule_id,
      date: input.date,
      reason: input.reason ?? '',
      created_at: stamp,
      updated_at: stamp,
    })
    await cancelOccurrenceIn(trx, input.schedule_id, input.date, now)
    return id
  })
}

/** DELETE: the date gets its event again (made, or uncancelled) while its start is still to come. */
export async function removeScheduleException(
  deps: Pick<Deps, 'db' | 'clock'>,
  row: ScheduleExceptionRow,
): Promise<void> {
  const now = deps.clock.now()
  await deps.db.transaction().execute(async (trx) => {
    await deleteScheduleException(trx, row.id)
    await restoreOccurrenceIn(trx, row.schedule_id, row.date, now)
  })
}
