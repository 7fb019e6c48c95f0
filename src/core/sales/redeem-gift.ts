import type { Db } from '../../db/connection.ts'
import { defaultExpiryDate } from '../../domain/expiry.ts'
import type { SoldEntryPassType, SoldVoucherPack } from './post-invoice.ts'
import {
  insertEntryPass,
  insertEventVoucher,
  markGiftRedeemed,
  setGiftGranted,
  type findGiftByCode,
} from './queries.ts'

export type GiftRow = NonNullable<Awaited<ReturnType<typeof findGiftByCode>>>

export interface Redemption {
  customerId: number
  staffUserId: number
  /** The gifted product, read by the caller: one of the two */
  entryPassType?: SoldEntryPassType
  voucherPack?: SoldVoucherPack
  /** The organization's zone, for the expiry of what it grants */
  zone: string
}

/**
 * Redeems a gift once: the customer receives the product (an entry pass acquired as a gift, or an
 * event voucher), paid for by the sale that sold the gift. False (nothing changed) when the gift
 * was redeemed first by someone else.
 */
export async function redeemGift(
  deps: { db: Db; clock: { now(): Date } },
  gift: GiftRow,
  redemption: Redemption,
): Promise<boolean> {
  const now = deps.clock.now()
  const at = now.toISOString()
  return deps.db.transaction().execute(async (trx) => {
    if (!(await markGiftRedeemed(trx, gift.id, redemption.customerId, at))) return false
    const passType = redemption.entryPassType
    if (passType) {
      const passId = await insertEntryPass(trx, {
        entry_pass_type_id: passType.id,
        owner_id: redemption.customerId,
        purchaser_id: gift.purchaser_id,
        entries_total: passType.number_of_entries,
        entries_remaining: passType.number_of_entries,
        expiry_date: defaultExpiryDate(passType.valid_days, now, redemption.zone),
        acquired_via: 'gift',
        invoice_id: null,
        created_by_id: redemption.staffUserId,
        created_at: at,
        updated_at: at,
      })
      await setGiftGranted(trx, gift.id, { customer_entry_pass_id: passId })
    }
    const pack = redemption.voucherPack
    if (pack) {
      const voucherId = await insertEventVoucher(trx, {
        customer_id: redemption.customerId,
        event_type_id: pack.event_type_id,
        number_of_uses_total: pack.number_of_uses,
        number_of_uses_remaining: pack.number_of_uses,
        expiry_date: defaultExpiryDate(pack.valid_days, now, redemption.zone),
        is_removed: 0,
        created_by_id: redemption.staffUserId,
        created_at: at,
        updated_at: at,
      })
      await setGiftGranted(trx, gift.id, { customer_event_voucher_id: voucherId })
    }
    return true
  })
}
