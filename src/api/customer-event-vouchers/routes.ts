import { changeEventVoucher, createEventVoucher } from './rules.ts'
import type { Deps } from '../../deps.ts'
import { customerRecordRoutes } from '../customer-records/collection.ts'
import { getEventVoucher, listEventVouchers } from './queries.ts'
import { EventVoucherOut, EventVoucherWrite } from './schema.ts'
import { serializeEventVoucher } from './serializer.ts'

/** /api/customers/<customer_id>/event-vouchers/. No DELETE: set is_removed instead. */
export const customerEventVoucherRoutes = (deps: Deps) =>
  customerRecordRoutes(deps, {
    name: 'event-vouchers',
    noun: 'customer event voucher',
    output: EventVoucherOut,
    list: listEventVouchers,
    get: getEventVoucher,
    serialize: serializeEventVoucher,
    create: { body: EventVoucherWrite, run: createEventVoucher },
    replace: { body: EventVoucherWrite, run: changeEventVoucher },
  })
