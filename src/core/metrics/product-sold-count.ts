import { sql, type Expression, type SelectQueryBuilder, type SqlBool } from 'kysely'
import type { Db } from '../../db/connection.ts'
import type { Database, InvoiceLineItemTable } from '../../db/schema.ts'
import { PAID_PAYMENT_STATUSES } from '../../domain/sales.ts'
import { bucketOfDay, denseValues, localDateOfInstant } from './buckets.ts'
import { defineMetric } from './definition.ts'
import { ALL_PRODUCTS, resolveProducts } from './product-attributes.ts'
import { readProductScope, readProductType } from './product-type.ts'

const PRODUCT_TYPES = ['membership', 'entry_pass', 'event', 'voucher_pack', 'gift_card'] as const
type SoldProductType = (typeof PRODUCT_TYPES)[number]

interface Exclusions {
  giftRedemptions: boolean
  codeRedemptions: boolean
  zeroPaid: boolean
  manuallyCreated: boolean
}

/** The columns by which a product's sale line names it. */
type LineLink = 'customer_membership_id' | 'reservation_id' | 'customer_event_voucher_id' | 'id'

/**
 * Whether anything was paid for what `link` picks of the sale lines (`also` narrows them):
 * a line worth something on an invoice with a paid payment (COM, PRF, REF) of more than nothing,
 * so the line's share of that payment is more than zero.
 */
const paidFor = (
  reader: Db,
  link: LineLink | 'invoice_id',
  key: Expression<number | null>,
  also: (
    q: SelectQueryBuilder<Database & { paid_line: InvoiceLineItemTable }, 'paid_line', {}>,
  ) => typeof q = (q) => q,
) =>
  sql<SqlBool>`EXISTS ${also(
    reader
      .selectFrom('invoice_line_items as paid_line')
      .where(`paid_line.${link}`, '=', key)
      .where('paid_line.net_cents', '>', 0),
  )
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('payments as payment')
          .whereRef('payment.invoice_id', '=', 'paid_line.invoice_id')
          .where('payment.status', 'in', PAID_PAYMENT_STATUSES)
          .where('payment.amount_cents', '>', 0)
          .select(sql`1`.as('one')),
      ),
    )
    .select(sql`1`.as('one'))}`

/** The location that sold what `link` picks of the sale lines (one line sells one of each). */
const saleLocation = (reader: Db, link: LineLink, key: Expression<number | null>) =>
  reader
    .selectFrom('invoice_line_items as sale_line')
    .innerJoin('invoices as sale_invoice', 'sale_invoice.id', 'sale_line.invoice_id')
    .where(`sale_line.${link}`, '=', key)
    .select('sale_invoice.gym_id')

/** The columns by which a gift names what redeeming it granted. */
type GiftLink = 'customer_membership_id' | 'customer_entry_pass_id' | 'customer_event_voucher_id'

/** The location that sold the gift whose redemption granted `key`. */
const giftSaleLocation = (reader: Db, link: GiftLink, key: Expression<number>) =>
  reader
    .selectFrom('gifts')
    .innerJoin('invoice_line_items as gift_line', 'gift_line.id', 'gifts.invoice_line_item_id')
    .innerJoin('invoices as gift_invoice', 'gift_invoice.id', 'gift_line.invoice_id')
    .where(`gifts.${link}`, '=', key)
    .select('gift_invoice.gym_id')

/** Whether redeeming a gift granted `key`. */
const fromGift = (reader: Db, link: GiftLink, key: Expression<number>) =>
  sql<SqlBool>`EXISTS ${reader.selectFrom('gifts').where(`gifts.${link}`, '=', key).select('gifts.id')}`

const no = sql<SqlBool>`0`

/**
 * The products of one type acquired from `from` up to `to`, each one row with what the filters
 * ask of it: the product it is of (null: none to name), the location that sold it (null: none),
 * whether a gift or a redemption code granted it, whether staff made it by hand, and whether
 * anything was paid for it.
 */
function acquisitions(reader: Db, productType: SoldProductType, from: string, to: string) {
  switch (productType) {
    case 'membership': {
      const id = sql.ref<number>('m.id')
      return reader
        .selectFrom('customer_memberships as m')
        .where('m.created_at', '>=', from)
        .where('m.created_at', '<', to)
        .select((eb) => [
          'm.created_at',
          sql<number | null>`m.membership_type_id`.as('product_id'),
          eb.fn
            .coalesce(
              // The MIN line that sold it; a renewal's line sells no new membership.
              reader
                .selectFrom('invoice_line_items as sale_line')
                .innerJoin('invoices as sale_invoice', 'sale_invoice.id', 'sale_line.invoice_id')
                .where('sale_line.customer_membership_id', '=', id)
                .where('sale_line.purchase_type', '=', 'MIN')
                .select('sale_invoice.gym_id'),
              'm.billing_location_id',
            )
            .as('location_id'),
          fromGift(reader, 'customer_membership_id', id).as('from_gift'),
          no.as('from_code'),
          no.as('manual'),
          paidFor(reader, 'customer_membership_id', id).as('paid'),
        ])
    }
    case 'entry_pass': {
      const id = sql.ref<number>('p.id')
      return reader
        .selectFrom('customer_entry_passes as p')
        .where('p.created_at', '>=', from)
        .where('p.created_at', '<', to)
        .select((eb) => [
          'p.created_at',
          sql<number | null>`p.entry_pass_type_id`.as('product_id'),
          eb.fn
            .coalesce(
              eb
                .selectFrom('invoices')
                .whereRef('invoices.id', '=', 'p.invoice_id')
                .select('invoices.gym_id'),
              giftSaleLocation(reader, 'customer_entry_pass_id', id),
            )
            .as('location_id'),
          sql<SqlBool>`p.acquired_via = 'gift'`.as('from_gift'),
          sql<SqlBool>`p.acquired_via = 'code'`.as('from_code'),
          sql<SqlBool>`p.acquired_via = 'manual'`.as('manual'),
          // Passes point at their invoice, whose EPA lines of the pass's type sold them.
          paidFor(reader, 'invoice_id', sql.ref('p.invoice_id'), (q) =>
            q
              .where('paid_line.purchase_type', '=', 'EPA')
              .whereRef('paid_line.entry_pass_type_id', '=', sql.ref('p.entry_pass_type_id')),
          ).as('paid'),
        ])
    }
    case 'event': {
      const id = sql.ref<number>('r.id')
      return reader
        .selectFrom('reservations as r')
        .innerJoin('events as e', 'e.id', 'r.event_id')
        .where('r.created_at', '>=', from)
        .where('r.created_at', '<', to)
        .select((eb) => [
          'r.created_at',
          sql<number | null>`e.event_type_id`.as('product_id'),
          eb.fn.coalesce(saleLocation(reader, 'reservation_id', id), 'e.gym_id').as('location_id'),
          no.as('from_gift'),
          no.as('from_code'),
          no.as('manual'),
          paidFor(reader, 'reservation_id', id).as('paid'),
        ])
    }
    case 'voucher_pack': {
      const id = sql.ref<number>('v.id')
      return reader
        .selectFrom('customer_event_vouchers as v')
        .where('v.created_at', '>=', from)
        .where('v.created_at', '<', to)
        .select((eb) => [
          'v.created_at',
          eb.fn
            .coalesce(
              reader
                .selectFrom('invoice_line_items as pack_line')
                .where('pack_line.customer_event_voucher_id', '=', id)
                .select('pack_line.voucher_pack_id'),
              reader
                .selectFrom('gifts')
                .where('gifts.customer_event_voucher_id', '=', id)
                .select('gifts.voucher_pack_id'),
            )
            .as('product_id'),
          eb.fn
            .coalesce(
              saleLocation(reader, 'customer_event_voucher_id', id),
              giftSaleLocation(reader, 'customer_event_voucher_id', id),
            )
            .as('location_id'),
          fromGift(reader, 'customer_event_voucher_id', id).as('from_gift'),
          no.as('from_code'),
          no.as('manual'),
          paidFor(reader, 'customer_event_voucher_id', id).as('paid'),
        ])
    }
    case 'gift_card':
      return reader
        .selectFrom('gifts as g')
        .where('g.created_at', '>=', from)
        .where('g.created_at', '<', to)
        .select([
          'g.created_at',
          sql<number | null>`NULL`.as('product_id'),
          saleLocation(reader, 'id', sql.ref('g.invoice_line_item_id')).as('location_id'),
          no.as('from_gift'),
          no.as('from_code'),
          no.as('manual'),
          paidFor(reader, 'id', sql.ref('g.invoice_line_item_id')).as('paid'),
        ])
  }
}

/** Which exclusions each product type knows; the others leave its count as it is. */
const EXCLUSIONS_APPLY_TO: Record<keyof Exclusions, readonly SoldProductType[]> = {
  giftRedemptions: ['membership', 'entry_pass', 'voucher_pack'],
  codeRedemptions: ['entry_pass', 'voucher_pack'],
  zeroPaid: ['membership', 'entry_pass', 'event', 'voucher_pack', 'gift_card'],
  manuallyCreated: ['entry_pass'],
}

/**
 * Products sold, each counted once on the local day it was acquired, at the location that sold it.
 * What a product is for each product type:
 * - membership: a customer membership started, whether sold (MIN), granted by a gift, or started
 *   by staff; sold where its MIN line's invoice was, else at its billing location (a gift's
 *   membership bills to the location that sold the gift). Renewals are not new products.
 * - entry_pass: a customer entry pass, however acquired (acquired_via tells purchase, gift, code,
 *   manual: the last is what staff made by hand); sold where its invoice was, a gift's where the
 *   gift was sold, else nowhere.
 * - event: a reservation, cancelled since or not, of an event of the event type; sold where its
 *   BOO line's invoice was, else at the event's location.
 * - voucher_pack: an event voucher, from a VPO line (its pack), an EVV line or a gift (its pack),
 *   or made by staff (no pack); sold where its line's invoice or its gift's sale was. No voucher
 *   comes from a redemption code, so excluding those leaves the count as it is.
 * - gift_card: a gift code, on its GIF line's invoice.
 */
export const productSoldCount = defineMetric({
  type: 'product_sold_count',
  readFilters(filters) {
    const productType = readProductType(filters, PRODUCT_TYPES)
    const locationIds = filters.ids('location_ids')
    const exclude: Exclusions = {
      giftRedemptions: filters.boolean('exclude_gift_redemptions', false),
      codeRedemptions: filters.boolean('exclude_code_redemptions', false),
      zeroPaid: filters.boolean('exclude_zero_paid', false),
      manuallyCreated: filters.boolean('exclude_manually_created', false),
    }
    const products = readProductScope(filters, productType)
    return { productType: productType.productType, products, locationIds, exclude }
  },
  shape: () => ({ unit: 'count', additive: true }),
  async run({ reader, plan }, { productType, products, locationIds, exclude }) {
    const productIds = products ? await resolveProducts(reader, products) : ALL_PRODUCTS
    if (productIds !== ALL_PRODUCTS && productIds.length === 0) return plan.buckets.map(() => 0)
    const applies = (exclusion: keyof Exclusions) =>
      exclude[exclusion] && EXCLUSIONS_APPLY_TO[exclusion].includes(productType)
    const day = localDateOfInstant(plan, sql.ref('a.created_at'))
    const rows = await reader
      .selectFrom(acquisitions(reader, productType, plan.fromInstant, plan.toInstant).as('a'))
      .$if(productIds !== ALL_PRODUCTS, (q) => q.where('a.product_id', 'in', productIds as number[]))
      .$if(locationIds !== undefined, (q) => q.where('a.location_id', 'in', locationIds!))
      .$if(applies('giftRedemptions'), (q) => q.where(sql<SqlBool>`NOT a.from_gift`))
      .$if(applies('codeRedemptions'), (q) => q.where(sql<SqlBool>`NOT a.from_code`))
      .$if(applies('manuallyCreated'), (q) => q.where(sql<SqlBool>`NOT a.manual`))
      .$if(applies('zeroPaid'), (q) => q.where(sql<SqlBool>`a.paid`))
      .select([bucketOfDay(plan, day).as('bucket'), sql<number>`count(*)`.as('value')])
      .groupBy('bucket')
      .execute()
    return denseValues(plan, rows, 0)
  },
})
