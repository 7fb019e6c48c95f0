import type { Actor } from '../../domain/actor.ts'
import type { Static } from '@sinclair/typebox'
import { insertEventVoucher, updateEventVoucher, type EventVoucherRow } from './queries.ts'
import type { EventVoucherWrite } from './schema.ts'
import { getEventType } from '../event-types/queries.ts'
import type { Deps } from '../../deps.ts'
import type { CheckedBody } from '../../http/validation.ts'
import { changeExpiry, checkUnchanged, newExpiringRecord } from '../customer-records/record-rules.ts'
import { lookUpReferenced } from '../../http/references.ts'

type EventVoucherInput = Static<typeof EventVoucherWrite>

/** A new voucher has all its uses left. */
export async function createEventVoucher(
  deps: Pick<Deps, 'db' | 'clock'>,
  customerId: number,
  body: CheckedBody<EventVoucherInput>,
  actor: Actor,
): Promise<number> {
  await lookUpReferenced(body.errors, 'event_type_id', body.fields.event_type_id, (id) =>
    getEventType(deps.db, id),
  )
  const input = body.valid()
  return insertEventVoucher(deps.db, {
    customer_id: customerId,
    event_type_id: input.event_type_id,
    number_of_uses_total: input.number_of_uses_total,
    number_of_uses_remaining: input.number_of_uses_total,
    ...newExpiringRecord(deps, input, actor),
  })
}

/**
 * PUT/PATCH: expiry_date and is_removed change; the event type and the number of uses are fixed at
 * creation and may only be sent again unchanged.
 */
export async function changeEventVoucher(
  deps: Pick<Deps, 'db' | 'clock'>,
  row: EventVoucherRow,
  body: CheckedBody<Partial<EventVoucherInput>>,
): Promise<void> {
  const { fields, errors } = body
  checkUnchanged(errors, 'event_type_id', fields.event_type_id, row.event_type_id)
  checkUnchanged(errors, 'number_of_uses_total', fields.number_of_uses_total, row.number_of_uses_total)
  await changeExpiry(deps, row, body, updateEventVoucher)
}
