import { sql } from 'kysely'
import type { Db } from '../../db/connection.ts'
import { localDateOfInstant } from './buckets.ts'
import { conversionShape, conversionValues, readConversion } from './conversion.ts'
import { defineMetric } from './definition.ts'
import {
  ALL_PRODUCTS,
  readProductAttributes,
  resolveProducts,
  type ProductScope,
  type ResolvedProducts,
} from './product-attributes.ts'

const PRODUCT_TYPES = ['membership', 'entry_pass', 'event'] as const
type ConvertingProduct = (typeof PRODUCT_TYPES)[number]

/**
 * Every holding of a product of the type (a member's place on a membership, an entry pass, a
 * reservation) with its customer, its product and its first use: the earliest check-in made with
 * it (MEM, ENT, EVE), each one index step (migration 0014). A membership also names itself, so the
 * membership being followed is neither why its holder was a member already nor how they became one.
 */
function holdingsWithFirstUse(db: Db, type: ConvertingProduct, products: ResolvedProducts) {
  const chosen = products === ALL_PRODUCTS ? undefined : products
  switch (type) {
    case 'membership':
      return db
        .selectFrom('membership_members as holder')
        .innerJoin('customer_memberships as held', 'held.id', 'holder.customer_membership_id')
        .$if(chosen !== undefined, (q) => q.where('held.membership_type_id', 'in', chosen!))
        .select((eb) => [
          'holder.customer_id',
          'held.membership_type_id as product_id',
          sql<number | null>`${eb.ref('held.id')}`.as('used_membership_id'),
          eb
            .selectFrom('check_ins as visit')
            .select((e) => e.fn.min('visit.created_at').as('at'))
            .whereRef('visit.customer_membership_id', '=', 'held.id')
            .whereRef('visit.customer_id', '=', 'holder.customer_id')
            .where('visit.entry_method', '=', sql.lit('MEM'))
            .as('used_at'),
        ])
    case 'entry_pass':
      return db
        .selectFrom('customer_entry_passes as pass')
        .$if(chosen !== undefined, (q) => q.where('pass.entry_pass_type_id', 'in', chosen!))
        .select((eb) => [
          'pass.owner_id as customer_id',
          'pass.entry_pass_type_id as product_id',
          sql<number | null>`NULL`.as('used_membership_id'),
          eb
            .selectFrom('check_ins as visit')
            .select((e) => e.fn.min('visit.created_at').as('at'))
            .whereRef('visit.customer_entry_pass_id', '=', 'pass.id')
            .whereRef('visit.customer_id', '=', 'pass.owner_id')
            .where('visit.entry_method', '=', sql.lit('ENT'))
            .as('used_at'),
        ])
    case 'event':
      return db
        .selectFrom('reservations as booking')
        .innerJoin('events as event', 'event.id', 'booking.event_id')
        .$if(chosen !== undefined, (q) => q.where('event.event_type_id', 'in', chosen!))
        .select((eb) => [
          'booking.customer_id',
          'event.event_type_id as product_id',
          sql<number | null>`NULL`.as('used_membership_id'),
          eb
            .selectFrom('check_ins as visit')
            .select((e) => e.fn.min('visit.created_at').as('at'))
            .whereRef('visit.reservation_id', '=', 'booking.id')
            .whereRef('visit.customer_id', '=', 'booking.customer_id')
            .where('visit.entry_method', '=', sql.lit('EVE'))
            .as('used_at'),
        ])
  }
}

/**
 * Customers who used a product of the type for the first time in each bucket while not members
 * already, and how many of them became members within the window. A use is a check-in with the
 * product; the first use is per customer and product, so a series of every product counts a
 * customer once for each product they came to, and a series of one product at most once.
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
    return { conversion, products }
  },
  shape: ({ conversion }) => conversionShape(conversion),
  async run(ctx, { conversion, products }) {
    const { reader, plan } = ctx
    const chosen = await resolveProducts(reader, products)
    if (chosen !== ALL_PRODUCTS && chosen.length === 0) return conversionValues(ctx, conversion, null)
    const holdings = holdingsWithFirstUse(reader, products.kind as ConvertingProduct, chosen)
    // SQLite gives a bare column of a min() aggregate from the row holding the minimum: the
    // membership of the first use. Materialized, so each holding's first use is looked up once
    // rather than once for each test of it.
    const firstUses = reader
      .selectFrom(holdings.as('holding'))
      .select([
        'holding.customer_id',
        'holding.used_membership_id',
        sql<string | null>`min(holding.used_at)`.as('used_at'),
      ])
      .groupBy(['holding.customer_id', 'holding.product_id'])
    return conversionValues(ctx, conversion, (range) =>
      reader
        .with(
          (cte) => cte('first_use').materialized(),
          () => firstUses,
        )
        .selectFrom('first_use')
        .where('first_use.used_at', '>=', range.fromInstant)
        .where('first_use.used_at', '<', range.toInstant)
        .select([
          'first_use.customer_id',
          localDateOfInstant(plan, sql.ref('first_use.used_at')).as('day'),
          'first_use.used_membership_id',
        ]),
    )
  },
})
