import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { planBuckets } from '../../../src/core/metrics/buckets.ts'
import { checkInCount } from '../../../src/core/metrics/check-in-count.ts'
import { customerRetention } from '../../../src/core/metrics/customer-retention.ts'
import type { MetricDefinition } from '../../../src/core/metrics/definition.ts'
import { FilterReader } from '../../../src/core/metrics/filter-reader.ts'
import type { Connection, Db } from '../../../src/db/connection.ts'
import { makeGym } from '../../helpers/factories.ts'
import { openQueryPlans, type QueryPlans } from '../../helpers/query-plans.ts'

/*
 * How the metrics that read the stored visit days reach their rows, as SQLite plans them without
 * statistics (the appliance never runs ANALYZE): a year of check-ins is read from an index, and
 * the few check-ins of customers who came more than once a day, or a customer's days, by key.
 */

let connection: Connection
let db: Db
let plansOf: QueryPlans['plansOf']

beforeAll(async () => {
  ;({ connection, db, plansOf } = await openQueryPlans())
  await makeGym(connection.db)
})
afterAll(() => connection.close())

/** The plan of the last statement `definition` runs over a year at daily, with `filters`. */
async function planOf<F>(definition: MetricDefinition<F>, filters: Record<string, unknown>): Promise<string> {
  const plan = planBuckets('daily', '2025-11-23', '2026-11-22', 'America/Denver', '2026-11-22')
  const plans = await plansOf(() =>
    definition.run(
      { reader: db, db, plan },
      definition.readFilters(new FilterReader(filters, 'filters', definition.type), plan),
    ),
  )
  return plans.at(-1)!
}

describe('plans over the stored visit days', () => {
  test('check_in_count unique in a window: the day from check_in_local_times by key, the repeats by rowid', async () => {
    const plan = await planOf(checkInCount, {
      check_in_type: 'unique',
      time_of_day_start: '17:00',
      time_of_day_end: '20:00',
    })
    const [all, repeats] = plan.split('UNION ALL')
    expect(all).toMatch(
      /SEARCH check_in_local_times USING PRIMARY KEY \(local_date=\? AND local_time>\? AND local_time<\?\)/,
    )
    expect(all).not.toContain('count(DISTINCT)')
    expect(repeats).toMatch(/SEARCH check_ins USING INTEGER PRIMARY KEY \(rowid=\?\)/)
    expect(repeats).toMatch(/SEARCH same_day_check_ins USING PRIMARY KEY \(local_date>\? AND local_date<\?\)/)
  })

  test("customer_retention: each customer's days by key, their check-ins only for the rare few", async () => {
    const plan = await planOf(customerRetention, {})
    expect(plan).toMatch(/SEARCH days USING INTEGER PRIMARY KEY \(rowid=\?\) LEFT-JOIN/)
    expect(plan).toMatch(/CORRELATED SCALAR SUBQUERY/)
    expect(plan).toMatch(/SEARCH check_ins USING INDEX check_ins_customer_gym \(customer_id=\?\)/)
  })
})
