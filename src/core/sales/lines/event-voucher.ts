import { DEFAULT_SALE_TERMS } from '../../../domain/products.ts'
import { getEventTypeForSale } from '../reads.ts'
import { required } from '../refusals.ts'
import { activeOnly, lookUpProduct, type GrantOf, type LineKind } from './line-kind.ts'
import { issueVoucher } from './voucher-pack.ts'

/**
 * EVV: a voucher of an active event type, one use per quantity. An event type has no price of its
 * own, so the line says what one use costs; and no validity of its own, so the voucher never
 * expires.
 */
export const eventVoucherLine: LineKind<GrantOf<'EVV'>> = {
  async check(line, sale, refusals) {
    if (line.unit_price_cents === undefined) refusals.add('unit_price', required)
    const eventType = await lookUpProduct(
      refusals,
      'event_type_id',
      line.event_type_id,
      (id) => getEventTypeForSale(sale.db, id),
      activeOnly,
    )
    return (
      eventType && {
        product: { ...DEFAULT_SALE_TERMS, name: eventType.name },
        grant: { purchaseType: 'EVV', eventTypeId: eventType.id },
      }
    )
  },
  async post(line, sale, insertLine) {
    const terms = { event_type_id: line.eventTypeId, number_of_uses: line.quantity, valid_days: null }
    await insertLine({ customer_event_voucher_id: await issueVoucher(sale, terms) })
  },
}
