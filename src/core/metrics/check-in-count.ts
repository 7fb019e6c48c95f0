import { sql } from 'kysely'
import type { EntryMethod } from '../../db/schema.ts'
import { utcOffsetModifier } from '../../db/local-time-sql.ts'
import { bucketOfDay, denseValues, localDateOfInstant } from './buckets.ts'
import { CHECK_IN_PRODUCT_KINDS, checkInProductId, ENTRY_METHODS } from './check-in-products.ts'
import { defineMetric } from './definition.ts'
import {
  ALL_PRODUCTS,
  readProductAttributes,
  resolveProducts,
  type ProductScope,
} from './product-attributes.ts'

const CHECK_IN_TYPES = ['all', 'unique', 'first_time'] as const
/** In the order SQLite's strftime('%w') numbers them. */
const DAYS_OF_WEEK = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'] as const
const METHODS_WITH_PRODUCTS = ENTRY_METHODS.filter((method) => CHECK_IN_PRODUCT_KINDS[method] !== null)

/**
 * Check-ins by the bucket of their organization-local day: every one, distinct customers per
 * bucket (`unique`), or customers' first-ever ones (`first_time`, the row whose running count is
 * 1). A time-of-day window and days of the week narrow them on the organization's wall clock.
 */
export const checkInCount = defineMetric({
  type: 'check_in_count',
  readFilters(filters, plan) {
    const checkInType = filters.choice('check_in_type', CHECK_IN_TYPES, 'all')
    const entryMethod = filters.choice('entry_method', ENTRY_METHODS) as EntryMethod | undefined
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
    const window = {
      start: filters.timeOfDay('time_of_day_start'),
      end: filters.timeOfDay('time_of_day_end'),
    }
    for (const key of ['time_of_day_start', 'time_of_day_end'] as const)
      if (filters.has(key) && plan.interval !== 'daily')
        filters.refuse(key, `only with the daily interval (this query is ${plan.interval})`)
    const days = filters.strings('day_of_week', DAYS_OF_WEEK, { emptyMeansAll: true })
    const attributes = readProductAttributes(
      filters,
      kind,
      `entry_method ${entryMethod}`,
      entryMethod === undefined
        ? `product attributes require an entry_method that records a product (${METHODS_WITH_PRODUCTS.join(', ')})`
        : `entry_method ${entryMethod} records no product`,
    )
    const products: ProductScope | undefined =
      kind === null ? undefined : { kind, ids: productIds, attributes }
    return { checkInType, entryMethod, products, locationIds, window, days }
  },
  shape: ({ checkInType }) => ({ unit: 'count', additive: checkInType !== 'unique' }),
  async run({ reader, plan }, { checkInType, entryMethod, products, locationIds, window, days }) {
    const chosen = products === undefined ? ALL_PRODUCTS : await resolveProducts(reader, products)
    if (chosen !== ALL_PRODUCTS && chosen.length === 0) return denseValues(plan, [], 0)
    const createdAt = sql.ref('ci.created_at')
    const wallClock = utcOffsetModifier(createdAt, plan.offsets)
    const localTime = sql<string>`time(${createdAt}, ${wallClock})`
    const rows = await reader
      .selectFrom('check_ins as ci')
      .where('ci.created_at', '>=', plan.fromInstant)
      .where('ci.created_at', '<', plan.toInstant)
      .$if(checkInType === 'first_time', (q) => q.where('ci.check_in_count', '=', sql.lit(1)))
      .$if(entryMethod !== undefined, (q) => q.where('ci.entry_method', '=', entryMethod!))
      .$if(locationIds !== undefined, (q) => q.where('ci.gym_id', 'in', locationIds!))
      .$if(chosen !== ALL_PRODUCTS, (q) =>
        q.where(checkInProductId(products!.kind, 'ci'), 'in', chosen as number[]),
      )
      // A window whose end comes before its start runs across midnight (22:00 to 02:00).
      .$if(window.start !== undefined && window.end !== undefined && window.end < window.start, (q) =>
        q.where((eb) => eb.or([eb(localTime, '>=', window.start!), eb(localTime, '<=', window.end!)])),
      )
      .$if(window.start !== undefined && !(window.end !== undefined && window.end < window.start), (q) =>
        q.where(localTime, '>=', window.start!),
      )
      .$if(window.end !== undefined && !(window.start !== undefined && window.end < window.start), (q) =>
        q.where(localTime, '<=', window.end!),
      )
      .$if(days !== undefined, (q) =>
        q.where(
          sql<number>`CAST(strftime('%w', ${createdAt}, ${wallClock}) AS INTEGER)`,
          'in',
          days!.map((day) => DAYS_OF_WEEK.indexOf(day)),
        ),
      )
      .select([
        bucketOfDay(plan, localDateOfInstant(plan, createdAt)).as('bucket'),
        (checkInType === 'unique' ? sql<number>`count(DISTINCT ci.customer_id)` : sql<number>`count(*)`).as(
          'value',
        ),
      ])
      .groupBy('bucket')
      .execute()
    return denseValues(plan, rows, 0)
  },
})
