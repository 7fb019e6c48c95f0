import { sql } from 'kysely'
import { localDateOfInstant } from './buckets.ts'
import { conversionShape, conversionValues, readConversion } from './conversion.ts'
import { defineMetric } from './definition.ts'
import {
  ALL_PRODUCTS,
  readProductAttributes,
  resolveProducts,
  type ProductScope,
} from './product-attributes.ts'
import { bringCheckInMetricsCurrent } from './tables/check-in-catch-up.ts'

const PRODUCT_TYPES = ['membership', 'entry_pass', 'event'] as const

/**
 * Customers who used a product of the type for the first time in each bucket while not members
 * already, and how many of them became members within the window. A use is a check-in with the
 * product (product_first_uses keeps the first of each customer and product), so a series of every
 * product counts a customer once for each product they came to, and a series of one product at
 * most once. The membership a membership product was first used with is neither why its holder
 * was a member already nor how they became one: a trial membership converts into another one.
 */
export const productConversion = defineMetric({
  type: 'product_conversion',
  readFilters(filters) {
    const conversion = readConversion(filters)
    const productType = filters.requiredChoice('product_type', PRODUCT_TYPES)
    const products: ProductScope = {
      kind: productType,
      ids: filters.ids('product_ids'),
      attributes: readProductAttributes(filters, productType, `product_type ${productType}`),
    }
    return { conversion, productType, products }
  },
  shape: ({ conversion }) => conversionShape(conversion),
  async run(ctx, { conversion, productType, products }) {
    const { reader, db, plan } = ctx
    await bringCheckInMetricsCurrent(db)
    const chosen = await resolveProducts(reader, products)
    if (chosen !== ALL_PRODUCTS && chosen.length === 0) return conversionValues(ctx, conversion, null)
    return conversionValues(ctx, conversion, (range) =>
      reader
        .selectFrom('product_first_uses as first_use')
        .where('first_use.product_type', '=', productType)
        .where('first_use.used_at', '>=', range.fromInstant)
        .where('first_use.used_at', '<', range.toInstant)
        .$if(chosen !== ALL_PRODUCTS, (q) => q.where('first_use.product_id', 'in', chosen as number[]))
        .select([
          'first_use.customer_id',
          localDateOfInstant(plan, sql.ref('first_use.used_at')).as('day'),
          'first_use.customer_membership_id as used_membership_id',
        ]),
    )
  },
})
