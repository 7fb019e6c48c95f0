import { sql } from 'kysely'
import type { LineItemPurchaseType } from '../../db/schema.ts'
import { bucketInstants } from './buckets.ts'
import { defineMetric } from './definition.ts'
import { ALL_PRODUCTS, resolveProducts } from './product-attributes.ts'
import { readProductScope, readProductType } from './product-type.ts'

const PRODUCT_TYPES = [
  'membership',
  'entry_pass',
  'event',
  'voucher_pack',
  'gift_card',
  'other',
  'all',
] as const

/** The lines that sell each product type; `all` is every line. */
const LINE_PURCHASE_TYPES: Record<(typeof PRODUCT_TYPES)[number], LineItemPurchaseType[] | 'all'> = {
  membership: ['MIN', 'MRE', 'MFA', 'MFR', 'MAC'],
  entry_pass: ['EPA'],
  event: ['BOO'],
  voucher_pack: ['VPO', 'EVV'],
  gift_card: ['GIF'],
  other: ['GEN', 'LEG'],
  all: 'all',
}

/**
 * Who collected a payment, by its payment type: the service's own processors, a point of sale, or
 * the desk (cash, cards on another terminal, credits, vouchers, imported history).
 */
const SOURCES = ['all', 'service', 'pos', 'offline'] as const
const PAYMENT_TYPES_OF_SOURCE: Record<(typeof SOURCES)[number], string[] | 'all'> = {
  service: ['STR', 'GRA', 'MXM', 'SQU', 'MOK'],
  pos: ['VEN', 'PGI'],
  offline: ['OFF', 'CRE', 'VOU', 'MIG', 'NA'],
  all: 'all',
}

const CALCULATIONS = ['net', 'gross', 'net_of_fees'] as const

/**
 * What payments brought in before tax, by line: each line's share of every paid payment (COM, PRF,
 * REF) on the payment's day. `net` takes refunds off on the day each was issued, so a bucket can
 * go below zero; `gross` ignores them; `net_of_fees` also takes off the processor fees of payments
 * and of refunds, each on its own day. The shares are kept per line in revenue_entries; a bucket is
 * rounded to cents once its shares are added up.
 */
export const revenue = defineMetric({
  type: 'revenue',
  readFilters(filters) {
    const productType = readProductType(filters, PRODUCT_TYPES)
    const locationIds = filters.ids('location_ids')
    const source = filters.choice('revenue_source', SOURCES, 'all')
    const calculation = filters.choice('revenue_calculation', CALCULATIONS, 'net')
    // Fees are known only for what the service's processors collected.
    if (calculation === 'net_of_fees' && source !== 'all' && source !== 'service')
      filters.refuse(
        'revenue_calculation',
        `net_of_fees needs revenue_source all or service (processor fees are not known for ${source} payments)`,
      )
    return {
      purchaseTypes: LINE_PURCHASE_TYPES[productType.productType],
      products: readProductScope(filters, productType),
      locationIds,
      paymentTypes: PAYMENT_TYPES_OF_SOURCE[source],
      calculation,
    }
  },
  shape: () => ({ unit: 'currency', additive: true }),
  async run({ reader, plan }, { purchaseTypes, products, locationIds, paymentTypes, calculation }) {
    const productIds = products ? await resolveProducts(reader, products) : ALL_PRODUCTS
    if (productIds !== ALL_PRODUCTS && productIds.length === 0) return plan.buckets.map(() => 0)
    const ranges = bucketInstants(plan).map(
      ({ bucket, fromInstant, toInstant }) => sql`(${bucket}, ${fromInstant}, ${toInstant})`,
    )
    const cents = calculation === 'net_of_fees' ? sql<number>`e.amount - e.fee` : sql<number>`e.amount`
    // One stretch of the index per bucket, summed where it lies, so rows are neither sorted nor
    // given a wall clock.
    const rows = await reader
      .with('bucket_instants(bucket, from_at, to_at)', () => sql`(VALUES ${sql.join(ranges)})`)
      .selectFrom('bucket_instants as b')
      .select((eb) => [
        'b.bucket',
        eb
          .selectFrom('revenue_entries as e')
          .whereRef('e.at', '>=', 'b.from_at')
          .whereRef('e.at', '<', 'b.to_at')
          .$if(calculation === 'gross', (q) => q.where('e.refund_id', '=', 0))
          .$if(purchaseTypes !== 'all', (q) =>
            q.where('e.purchase_type', 'in', purchaseTypes as LineItemPurchaseType[]),
          )
          .$if(productIds !== ALL_PRODUCTS, (q) => q.where('e.product_id', 'in', productIds as number[]))
          .$if(locationIds !== undefined, (q) => q.where('e.gym_id', 'in', locationIds!))
          .$if(paymentTypes !== 'all', (q) => q.where('e.payment_type', 'in', paymentTypes as string[]))
          .select(sql<number>`round(sum(${cents}))`.as('value'))
          .as('value'),
      ])
      .execute()
    // A bucket without entries sums to null.
    return rows.map((row) => row.value ?? 0)
  },
})
