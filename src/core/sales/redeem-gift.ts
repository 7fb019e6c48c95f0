import type { Db } from '../../db/connection.ts'
import { localDate } from '../../lib/local-time.ts'
import { startMembership } from '../memberships/start.ts'
import {
  entryPassGranted,
  membershipGranted,
  voucherGranted,
  type SoldEntryPassType,
  type SoldMembershipType,
  type SoldVoucherPack,
} from './grants.ts'
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
  /** The gifted product, read by the caller: one of the three */
  entryPassType?: SoldEntryPassType
  voucherPack?: SoldVoucherPack
  membershipType?: SoldMembershipType
  /** The organization's zone, for the expiry of what it grants */
  zone: string
}

/**
 * Redeems a gift once: the customer receives the product (an entry pass acquired as a gift, an
 * event voucher, or a membership starting on the day of redemption, billed to the location that
 * sold the gift), paid for by the sale that sold the gift; the gift names what it granted. False
 * (nothing changed) when the gift was redeemed first by someone else.
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
    const grant = {
      customerId: redemption.customerId,
      staffUserId: redemption.staffUserId,
      now,
      zone: redemption.zone,
    }
    const passType = redemption.entryPassType
    if (passType) {
      const passId = await insertEntryPass(
        trx,
        entryPassGranted(passType, grant, { acquiredVia: 'gift', purchaserId: gift.purchaser_id }),
      )
      await setGiftGranted(trx, gift.id, { customer_entry_pass_id: passId })
    }
    const pack = redemption.voucherPack
    if (pack) {
      const voucherId = await insertEventVoucher(trx, voucherGranted(pack, grant))
      await setGiftGranted(trx, gift.id, { customer_event_voucher_id: voucherId })
    }
    const type = redemption.membershipType
    if (type) {
      const today = localDate(now, redemption.zone)
      const membershipId = await startMembership(trx, {
        row: membershipGranted(type, grant, {
          startDate: today,
          status: 'ACT',
          billingLocationId: gift.sold_at_gym_id,
        }),
        memberIds: [redemption.customerId],
        addOnIds: [],
        today,
        changedById: redemption.staffUserId,
      })
      await setGiftGranted(trx, gift.id, { customer_membership_id: membershipId })
    }
    return true
  })
}
