import type { Selectable } from 'kysely'
import type { CustomerEventVoucherTable } from '../../db/schema.ts'
import { customerRecordReads, customerRecordWrites, staffEmail } from '../customer-records/queries.ts'

export type EventVoucherRow = Selectable<CustomerEventVoucherTable> & {
  event_type_name: string
  created_by_email: string | null
  time_zone: string
}

// A voucher redeems at its event type's gym, so its days are read in that gym's zone.
export const { list: listEventVouchers, get: getEventVoucher } = customerRecordReads(
  'customer_event_vouchers',
  (query) =>
    query
      .innerJoin('event_types', 'event_types.id', 'customer_event_vouchers.event_type_id')
      .innerJoin('gyms', 'gyms.id', 'event_types.gym_id')
      .selectAll('customer_event_vouchers')
      .select([
        'event_types.name as event_type_name',
        'gyms.time_zone as time_zone',
        staffEmail('customer_event_vouchers.created_by_id').as('created_by_email'),
      ]),
)

export const { insert: insertEventVoucher, update: updateEventVoucher } =
  customerRecordWrites('customer_event_vouchers')
