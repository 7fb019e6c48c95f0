import { entryPassGranted } from '../grants.ts'
import { insertEntryPasses } from '../queries.ts'
import { getEntryPassTypeForSale } from '../reads.ts'
import type { Refusals } from '../refusals.ts'
import { activeOnly, lookUpProduct, type GrantOf, type LineContext, type LineKind } from './line-kind.ts'

/** An active entry pass type named by `field`, as an EPA line or a gift sells it. */
export const sellableEntryPassType = (sale: LineContext, refusals: Refusals, field: string, id?: number) =>
  lookUpProduct(refusals, field, id, (id) => getEntryPassTypeForSale(sale.db, id), activeOnly)

/** EPA: passes of an active entry pass type, one per quantity, bought on the line's invoice. */
export const entryPassesLine: LineKind<GrantOf<'EPA'>> = {
  async check(line, sale, refusals) {
    const type = await sellableEntryPassType(sale, refusals, 'entry_pass_id', line.entry_pass_id)
    return type && { product: type, grant: { purchaseType: 'EPA', entryPassType: type } }
  },
  /** After the line: an invoice's passes are issued in line order, which its record reads back. */
  async post(line, sale, insertLine) {
    await insertLine({ entry_pass_type_id: line.entryPassType.id })
    const customerId = sale.sale.customerId
    if (customerId === null) return
    const grant = { customerId, staffUserId: sale.sale.staffUserId, now: sale.now, zone: sale.zone }
    const pass = entryPassGranted(line.entryPassType, grant, {
      acquiredVia: 'purchase',
      invoiceId: sale.invoiceId,
    })
    await insertEntryPasses(
      sale.trx,
      Array.from({ length: line.quantity }, () => pass),
    )
  },
}
