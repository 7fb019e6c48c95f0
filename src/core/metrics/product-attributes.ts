import type { Db } from '../../db/connection.ts'
import type { BillingInterval, ProductStatus, PurchaseType } from '../../db/schema.ts'
import { EVENT_SCHEDULE_TYPES, type EventScheduleType } from '../../domain/products.ts'
import type { FilterReader } from './filter-reader.ts'

/**
 * The product attribute filters: criteria on a product type's current attributes, resolved to the
 * matching product ids when the query runs. A product created after a dashboard was saved is in its
 * series as soon as it matches; a product retired since keeps its history under the defaults (every
 * status) and leaves every bucket of a series whose `product_statuses` no longer selects it, because
 * attributes describe the product as it is now, for every interval.
 */

/** The product dimensions a metric can be scoped to, each one product table. */
export type ProductKind = 'membership' | 'entry_pass' | 'event' | 'voucher_pack'

const PURCHASE_TYPES: Record<string, PurchaseType> = { recurring: 'REC', prepaid: 'PRE', benefit: 'BEN' }
const BILLING_INTERVALS: Record<string, Exclude<BillingInterval, ''>> = {
  weekly: 'WEE',
  biweekly: 'BWK',
  four_weeks: 'FWK',
  monthly: 'MON',
  quarterly: 'QUA',
  half_yearly: 'HYR',
  yearly: 'YRL',
}
const STATUSES: Record<string, ProductStatus> = { active: 'ACT', retired: 'RET', draft: 'DRA' }
const ENTRY_PASS_KINDS = ['single', 'multi'] as const

/** The criteria a request gave, as stored codes. Absent keys narrow nothing. */
export interface ProductAttributes {
  purchaseTypes?: PurchaseType[]
  billingIntervals?: Exclude<BillingInterval, ''>[]
  entryPassKinds?: (typeof ENTRY_PASS_KINDS)[number][]
  eventScheduleTypes?: EventScheduleType[]
  eventCategoryIds?: number[]
  statuses?: ProductStatus[]
}

/** Which product kinds each attribute filter describes. */
const APPLIES_TO: Record<string, readonly ProductKind[]> = {
  membership_purchase_types: ['membership'],
  membership_billing_intervals: ['membership'],
  entry_pass_kinds: ['entry_pass'],
  event_schedule_types: ['event'],
  event_category_ids: ['event'],
  product_statuses: ['membership', 'entry_pass', 'event', 'voucher_pack'],
}

export const ATTRIBUTE_FILTER_KEYS = Object.keys(APPLIES_TO)

/** What a series counts of one product kind: explicit ids and attribute criteria, all AND'd. */
export interface ProductScope {
  kind: ProductKind
  ids?: number[]
  attributes: ProductAttributes
}

/**
 * Reads the attribute filters of a metric whose product dimension is `kind`. Given against a kind
 * they do not describe, or when the metric has no product dimension (`kind` null), they are
 * refused: `scopeWords` names the dimension in the message ("product_type membership",
 * "entry_method FRE"), `whyNoKind` says why there is none.
 */
export function readProductAttributes(
  filters: FilterReader,
  kind: ProductKind | null,
  scopeWords: string,
  whyNoKind = `${scopeWords} has no product attributes`,
): ProductAttributes {
  for (const key of ATTRIBUTE_FILTER_KEYS)
    if (filters.has(key)) {
      if (kind === null) filters.refuse(key, `not allowed: ${whyNoKind}`)
      if (!APPLIES_TO[key]!.includes(kind)) filters.refuse(key, `does not apply to ${scopeWords}`)
    }
  const codes = <C>(key: string, names: Record<string, C>) =>
    filters.strings(key, Object.keys(names))?.map((name) => names[name]!)
  return {
    purchaseTypes: codes('membership_purchase_types', PURCHASE_TYPES),
    billingIntervals: codes('membership_billing_intervals', BILLING_INTERVALS),
    entryPassKinds: filters.strings('entry_pass_kinds', ENTRY_PASS_KINDS),
    eventScheduleTypes: filters.strings('event_schedule_types', EVENT_SCHEDULE_TYPES),
    eventCategoryIds: filters.ids('event_category_ids'),
    statuses: codes('product_statuses', STATUSES),
  }
}

/** Every product of the kind: no criterion given. */
export const ALL_PRODUCTS = 'all'
/** The products a series counts: every one, or exactly these ids (empty: a zero series). */
export type ResolvedProducts = typeof ALL_PRODUCTS | number[]

const narrows = (scope: ProductScope) =>
  scope.ids !== undefined || Object.values(scope.attributes).some((criterion) => criterion !== undefined)

/** The ids of the products of `scope.kind` that match every criterion now. */
export async function resolveProducts(db: Db, scope: ProductScope): Promise<ResolvedProducts> {
  if (!narrows(scope)) return ALL_PRODUCTS
  const a = scope.attributes
  const rows = await (() => {
    switch (scope.kind) {
      case 'membership':
        return db
          .selectFrom('membership_types')
          .select('id')
          .$if(a.purchaseTypes !== undefined, (q) => q.where('purchase_type', 'in', a.purchaseTypes!))
          .$if(a.billingIntervals !== undefined, (q) =>
            q.where('purchase_type', '=', 'REC').where('interval', 'in', a.billingIntervals!),
          )
          .$if(a.statuses !== undefined, (q) => q.where('status', 'in', a.statuses!))
          .$if(scope.ids !== undefined, (q) => q.where('id', 'in', scope.ids!))
          .execute()
      case 'entry_pass':
        return db
          .selectFrom('entry_pass_types')
          .select('id')
          .$if(a.entryPassKinds?.length === 1, (q) =>
            q.where('number_of_entries', a.entryPassKinds![0] === 'single' ? '=' : '>', 1),
          )
          .$if(a.statuses !== undefined, (q) => q.where('status', 'in', a.statuses!))
          .$if(scope.ids !== undefined, (q) => q.where('id', 'in', scope.ids!))
          .execute()
      case 'event':
        return (
          db
            .selectFrom('event_types')
            .select('id')
            .$if(a.eventScheduleTypes !== undefined, (q) =>
              q.where('schedule_type', 'in', a.eventScheduleTypes!),
            )
            // A category removed since still matches: the link is what counts, not the category's state.
            .$if(a.eventCategoryIds !== undefined, (q) =>
              q.where((eb) =>
                eb.exists(
                  eb
                    .selectFrom('event_type_categories as link')
                    .select('link.event_type_id')
                    .whereRef('link.event_type_id', '=', 'event_types.id')
                    .where('link.event_category_id', 'in', a.eventCategoryIds!),
                ),
              ),
            )
            .$if(a.statuses !== undefined, (q) => q.where('status', 'in', a.statuses!))
            .$if(scope.ids !== undefined, (q) => q.where('id', 'in', scope.ids!))
            .execute()
        )
      case 'voucher_pack':
        return db
          .selectFrom('voucher_packs')
          .select('id')
          .$if(a.statuses !== undefined, (q) => q.where('status', 'in', a.statuses!))
          .$if(scope.ids !== undefined, (q) => q.where('id', 'in', scope.ids!))
          .execute()
    }
  })()
  return rows.map((row) => row.id)
}
