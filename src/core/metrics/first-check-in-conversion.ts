import { sql } from 'kysely'
import { localDateOfInstant } from './buckets.ts'
import { ENTRY_METHODS } from '../../db/tables/door.ts'
import {
  CHECK_IN_PRODUCT_KINDS,
  checkInProductId,
  type CheckInProductKind,
} from './tables/check-in-products.ts'
import { conversionShape, conversionValues, readConversion } from './conversion.ts'
import { defineMetric } from './definition.ts'
import {
  ALL_PRODUCTS,
  readProductAttributes,
  resolveProducts,
  type ProductScope,
} from './product-attributes.ts'

const METHODS_WITH_PRODUCTS = ENTRY_METHODS.filter((method) => CHECK_IN_PRODUCT_KINDS[method] !== null)

/**
 * Customers whose first check-in falls in each bucket, at that check-in's location, and how many
 * of those who were not members already became members within the window. The first check-in is
 * the one that counted 1 in the customer's running count (migration 0014 indexes those); a
 * customer whose first visits were imported without their check-ins has none, and is not counted.
 */
export const firstCheckInConversion = defineMetric({
  type: 'first_check_in_conversion',
  readFilters(filters) {
    const conversion = readConversion(filters)
    const entryMethod = filters.choice('entry_method', ENTRY_METHODS)
    const kind = entryMethod === undefined ? null : CHECK_IN_PRODUCT_KINDS[entryMethod]
    const productIds = filters.ids('product_ids')
    if (productIds !== undefined && entryMethod === undefined)
      filters.refuse(
        'product_ids',
        `requires entry_method, one of ${METHODS_WITH_PRODUCTS.join(', ')} (the ids are membership types for MEM and GUE, entry pass types for ENT, event types for EVE)`,
      )
    if (productIds !== undefined && kind === null)
      filters.refuse('product_ids', `not allowed with entry_method ${entryMethod}, which records no product`)
    const locationIds = filters.ids('location_ids')
    const attributes = readProductAttributes(
      filters,
      kind,
      `entry_method ${entryMethod}`,
      entryMethod === undefined
        ? `product attributes require an entry_method that records a product (${METHODS_WITH_PRODUCTS.join(', ')})`
        : `entry_method ${entryMethod} records no product`,
    )
    const products: (ProductScope & { kind: CheckInProductKind }) | undefined =
      kind === null ? undefined : { kind, ids: productIds, attributes }
    return { conversion, entryMethod, products, locationIds }
  },
  shape: ({ conversion }) => conversionShape(conversion),
  async run(ctx, { conversion, entryMethod, products, locationIds }) {
    const { reader, plan } = ctx
    const chosen = products === undefined ? ALL_PRODUCTS : await resolveProducts(reader, products)
    if (chosen !== ALL_PRODUCTS && chosen.length === 0) return conversionValues(ctx, conversion, null)
    return conversionValues(ctx, conversion, (range) =>
      reader
        .selectFrom('check_ins as first')
        .where('first.check_in_count', '=', sql.lit(1))
        .where('first.created_at', '>=', range.fromInstant)
        .where('first.created_at', '<', range.toInstant)
        .$if(locationIds !== undefined, (q) => q.where('first.gym_id', 'in', locationIds!))
        // The unary + keeps SQLite from reading every check-in of the method in the range through
        // check_ins_method_created instead of the few first ones through check_ins_first_visit.
        .$if(entryMethod !== undefined, (q) =>
          q.where(sql<string>`+${sql.ref('first.entry_method')}`, '=', entryMethod!),
        )
        .$if(chosen !== ALL_PRODUCTS, (q) =>
          q.where(checkInProductId(products!.kind, 'first'), 'in', chosen as number[]),
        )
        .select([
          'first.customer_id',
          localDateOfInstant(plan, sql.ref('first.created_at')).as('day'),
          sql<number | null>`NULL`.as('used_membership_id'),
        ]),
    )
  },
})
