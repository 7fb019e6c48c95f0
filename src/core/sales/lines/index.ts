import { getTaxRateBasisPoints } from '../reads.ts'
import { doesNotExist, type Refusals } from '../refusals.ts'
import type { LineRequest, SoldPurchaseType } from '../request.ts'
import type { LineGrant, SaleLine } from '../sale.ts'
import { bookingLine } from './booking.ts'
import { entryPassesLine } from './entry-passes.ts'
import { eventVoucherLine } from './event-voucher.ts'
import { generalLine } from './general.ts'
import { giftLine } from './gift.ts'
import type { GrantOf, LineContext, LineKind } from './line-kind.ts'
import { membershipLine } from './membership.ts'
import { renewalLine } from './renewal.ts'
import { voucherPackLine } from './voucher-pack.ts'

/** Every purchase type the desk sells, and how a line of it is checked and posted. */
export const LINE_KINDS: { [T in SoldPurchaseType]: LineKind<GrantOf<T>> } = {
  GEN: generalLine,
  MIN: membershipLine,
  MRE: renewalLine,
  EPA: entryPassesLine,
  BOO: bookingLine,
  VPO: voucherPackLine,
  EVV: eventVoucherLine,
  GIF: giftLine,
}

/** The kind of a line as sold, whatever its type. */
export const lineKind = (purchaseType: SoldPurchaseType) =>
  LINE_KINDS[purchaseType] as unknown as LineKind<LineGrant>

/**
 * A line as sold: the product's price, tax rate, revenue account and name unless the line gives
 * its own. Undefined when the line is refused (its refusals say why) or the caller refused it.
 */
export async function checkLine(
  line: LineRequest,
  sale: LineContext,
  refusals: Refusals,
): Promise<SaleLine | undefined> {
  // A tax rate the line names must exist (a retired one too: it is what the desk chose to charge).
  if (line.tax_rate_id !== undefined && line.tax_rate_id !== null) {
    if ((await getTaxRateBasisPoints(sale.db, line.tax_rate_id)) === undefined)
      refusals.add('tax_rate_id', doesNotExist(line.tax_rate_id))
  }
  if (line.purchase_type === undefined) return undefined
  const checked = await lineKind(line.purchase_type).check(line, sale, refusals)
  if (!checked || refusals.any || line.refused) return undefined
  const { product, grant } = checked
  const taxRateId = line.tax_rate_id !== undefined ? line.tax_rate_id : product.tax_rate_id
  return {
    description: line.description ?? product.name,
    quantity: line.quantity ?? 1,
    unitPriceCents: line.unit_price_cents ?? product.price_cents,
    taxRateId,
    taxRateBasisPoints: taxRateId === null ? 0 : ((await getTaxRateBasisPoints(sale.db, taxRateId)) ?? 0),
    revenueAccountCode: line.revenue_account_code ?? product.revenue_account_code,
    ...grant,
  }
}
