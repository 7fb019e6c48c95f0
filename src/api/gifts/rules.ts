import type { Static } from '@sinclair/typebox'
import type { GiftRedeem } from './schema.ts'
import { customerExists } from '../customers/queries.ts'
import { getEntryPassType } from '../entry-pass-types/queries.ts'
import { getMembershipType } from '../membership-types/queries.ts'
import { loadOrganization } from '../organization/queries.ts'
import { getVoucherPack } from '../voucher-packs/queries.ts'
import { findGiftByCode } from '../../core/sales/queries.ts'
import { redeemGift, type GiftRow } from '../../core/sales/redeem-gift.ts'
import type { Actor } from '../../domain/actor.ts'
import type { Deps } from '../../deps.ts'
import { lookUpReferenced } from '../../http/references.ts'
import type { CheckedBody } from '../../http/validation.ts'

export const giftMessages = {
  unknown: 'No gift has this code.',
  redeemed: 'This gift has already been redeemed.',
}

/**
 * POST /api/gifts/redeem/: the customer receives what the gift's code grants, once. Returns the
 * gift as redeemed.
 */
export async function redeemGiftCode(
  deps: Deps,
  body: CheckedBody<Static<typeof GiftRedeem>>,
  actor: Actor,
): Promise<GiftRow> {
  const { fields, errors } = body
  const gift = fields.code === undefined ? undefined : await findGiftByCode(deps.db, fields.code)
  if (fields.code !== undefined && !gift) errors.add('code', giftMessages.unknown)
  else if (gift && gift.redeemed_at !== null) errors.add('code', giftMessages.redeemed)
  await lookUpReferenced(errors, 'customer_id', fields.customer_id, (id) => customerExists(deps.db, id))
  const input = body.valid()
  const passType =
    gift!.entry_pass_type_id === null ? undefined : await getEntryPassType(deps.db, gift!.entry_pass_type_id)
  const pack =
    gift!.voucher_pack_id === null ? undefined : await getVoucherPack(deps.db, gift!.voucher_pack_id)
  const membershipType =
    gift!.membership_type_id === null ? undefined : await getMembershipType(deps.db, gift!.membership_type_id)
  const done = await redeemGift(deps, gift!, {
    customerId: input.customer_id,
    staffUserId: actor.user.id,
    entryPassType: passType,
    voucherPack: pack,
    membershipType,
    zone: (await loadOrganization(deps.db)).time_zone,
  })
  // Another desk redeemed it in between.
  if (!done) errors.add('code', giftMessages.redeemed)
  body.valid()
  return (await findGiftByCode(deps.db, gift!.code))!
}
