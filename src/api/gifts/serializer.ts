import type { Static } from '@sinclair/typebox'
import type { GiftOut } from './schema.ts'
import type { GiftRow } from '../../core/sales/redeem-gift.ts'

export const serializeGift = (gift: GiftRow): Static<typeof GiftOut> => ({
  code: gift.code,
  entry_pass_id: gift.entry_pass_type_id,
  voucher_pack_id: gift.voucher_pack_id,
  membership_id: gift.membership_type_id,
  purchaser_id: gift.purchaser_id,
  redeemed_by_id: gift.redeemed_by_id,
  redeemed_at: gift.redeemed_at,
  customer_entry_pass_id: gift.customer_entry_pass_id,
  customer_event_voucher_id: gift.customer_event_voucher_id,
  customer_membership_id: gift.customer_membership_id,
  created_at: gift.created_at,
})
