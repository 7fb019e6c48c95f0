import { voucherGranted, type SoldVoucherPack } from '../grants.ts'
import { insertEventVoucher } from '../queries.ts'
import { getVoucherPackForSale } from '../reads.ts'
import type { Refusals } from '../refusals.ts'
import {
  activeOnly,
  lookUpProduct,
  type GrantOf,
  type LineContext,
  type LineKind,
  type PostContext,
} from './line-kind.ts'

/** An active voucher pack named by `field`, as a VPO line or a gift sells it. */
export const sellableVoucherPack = (sale: LineContext, refusals: Refusals, field: string, id?: number) =>
  lookUpProduct(refusals, field, id, (id) => getVoucherPackForSale(sale.db, id), activeOnly)

/** The customer's voucher on these terms (none for an anonymous sale); its id. */
export async function issueVoucher(
  sale: PostContext,
  terms: Omit<SoldVoucherPack, 'id'>,
): Promise<number | null> {
  const customerId = sale.sale.customerId
  if (customerId === null) return null
  const grant = { customerId, staffUserId: sale.sale.staffUserId, now: sale.now, zone: sale.zone }
  return insertEventVoucher(sale.trx, voucherGranted(terms, grant))
}

/** VPO: the voucher of an active pack, with the pack's event type, uses and validity. */
export const voucherPackLine: LineKind<GrantOf<'VPO'>> = {
  async check(line, sale, refusals) {
    const pack = await sellableVoucherPack(sale, refusals, 'voucher_pack_id', line.voucher_pack_id)
    return pack && { product: pack, grant: { purchaseType: 'VPO', voucherPack: pack } }
  },
  async post(line, sale, insertLine) {
    const voucherId = await issueVoucher(sale, line.voucherPack)
    await insertLine({ voucher_pack_id: line.voucherPack.id, customer_event_voucher_id: voucherId })
  },
}
