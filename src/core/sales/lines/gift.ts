import { newGiftCode } from '../../../lib/secrets.ts'
import { saleMessages } from '../messages.ts'
import { insertGift } from '../queries.ts'
import { sellableEntryPassType } from './entry-passes.ts'
import type { GrantOf, LineKind } from './line-kind.ts'
import { sellableMembershipType } from './membership.ts'
import { sellableVoucherPack } from './voucher-pack.ts'

/**
 * GIF: a gift of one active product (an entry pass type, a voucher pack or a membership type),
 * sold as a code; whoever redeems the code receives the product (redeem-gift.ts).
 */
export const giftLine: LineKind<GrantOf<'GIF'>> = {
  async check(line, sale, refusals) {
    const gift = line.gift ?? {}
    const named = [gift.entry_pass_id, gift.voucher_pack_id, gift.membership_id]
    if (named.filter((id) => id !== undefined).length !== 1)
      return void refusals.add('gift', saleMessages.giftProduct)
    if (gift.entry_pass_id !== undefined) {
      const type = await sellableEntryPassType(sale, refusals, 'gift', gift.entry_pass_id)
      return type && { product: type, grant: { purchaseType: 'GIF', gift: { entryPassTypeId: type.id } } }
    }
    if (gift.voucher_pack_id !== undefined) {
      const pack = await sellableVoucherPack(sale, refusals, 'gift', gift.voucher_pack_id)
      return pack && { product: pack, grant: { purchaseType: 'GIF', gift: { voucherPackId: pack.id } } }
    }
    const type = await sellableMembershipType(sale, refusals, 'gift', gift.membership_id)
    return type && { product: type, grant: { purchaseType: 'GIF', gift: { membershipTypeId: type.id } } }
  },
  /** After the line, which the gift names. */
  async post(line, sale, insertLine) {
    const lineId = await insertLine({})
    await insertGift(sale.trx, {
      code: newGiftCode(),
      invoice_line_item_id: lineId,
      entry_pass_type_id: 'entryPassTypeId' in line.gift ? line.gift.entryPassTypeId : null,
      voucher_pack_id: 'voucherPackId' in line.gift ? line.gift.voucherPackId : null,
      membership_type_id: 'membershipTypeId' in line.gift ? line.gift.membershipTypeId : null,
      purchaser_id: sale.sale.customerId,
      redeemed_by_id: null,
      redeemed_at: null,
      customer_entry_pass_id: null,
      customer_event_voucher_id: null,
      customer_membership_id: null,
      created_at: sale.at,
    })
  },
}
