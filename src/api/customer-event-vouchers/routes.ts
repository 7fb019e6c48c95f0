import { changeEventVoucher, createEventVoucher } from './rules.ts'
import type { Deps } from '../../deps.ts'
import { customerRecordRoutes } from '../customer-records/collection.ts'
import { getEventVoucher, listEventVouchers } from './queries.ts'
import { EventVoucherOut, EventVoucherWrite } from './schema.ts'
import { serializeEventVoucher } from './serializer.ts'

const FIXED_FIELDS = [
  '`event_type_id` and `number_of_uses_total` cannot change (`This field cannot be changed.`);',
  'PUT sends them unchanged.',
].join(' ')

/** /api/customers/<customer_id>/event-vouchers/. No DELETE: set is_removed instead. */
export const customerEventVoucherRoutes = (deps: Deps) =>
  customerRecordRoutes(deps, {
    name: 'event-vouchers',
    noun: 'customer event voucher',
    descriptions: {
      list: 'Removed ones (`is_removed`) are listed too.',
      create: '`event_type_id` must name an event type.',
      replace: FIXED_FIELDS,
      update: FIXED_FIELDS,
    },
    output: EventVoucherOut,
    list: listEventVouchers,
    get: getEventVoucher,
    serialize: serializeEventVoucher,
    create: { body: EventVoucherWrite, run: createEventVoucher },
    replace: { body: EventVoucherWrite, run: changeEventVoucher },
  })
