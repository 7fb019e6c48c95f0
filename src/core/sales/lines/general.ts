import { DEFAULT_SALE_TERMS } from '../../../domain/products.ts'
import { required } from '../refusals.ts'
import type { LineKind } from './line-kind.ts'

/** GEN: a generic item (retail): no product of its own, so the line says its price. */
export const generalLine: LineKind<{ purchaseType: 'GEN' }> = {
  async check(line, _sale, refusals) {
    if (line.unit_price_cents === undefined) refusals.add('unit_price', required)
    return { product: { name: '', ...DEFAULT_SALE_TERMS }, grant: { purchaseType: 'GEN' } }
  },
  async post(_line, _sale, insertLine) {
    await insertLine({})
  },
}
