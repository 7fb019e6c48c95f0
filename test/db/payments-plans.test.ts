import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { listPayments, type PaymentQuery } from '../../src/api/payments/queries.ts'
import type { Connection, Db } from '../../src/db/connection.ts'
import { LISTED_PAYMENT_STATUSES } from '../../src/domain/sales.ts'
import { openQueryPlans, type QueryPlans } from '../helpers/query-plans.ts'

/*
 * Years of sales hold hundreds of thousands of payments, and every page of the payments list also
 * counts what its filters select. So each shape of query must count from an index, never by reading
 * the payments table row by row, and a page must pick its ids before the invoice's figures are
 * worked out. The plans are SQLite's without statistics: the appliance never runs ANALYZE.
 */

let connection: Connection
let db: Db
let plansOf: QueryPlans['plansOf']

beforeAll(async () => {
  ;({ connection, db, plansOf } = await openQueryPlans())
})
afterAll(() => connection.close())

const listed = LISTED_PAYMENT_STATUSES
const month = { created_from: '2026-10-01T06:00:00.000Z', created_before: '2026-11-01T06:00:00.000Z' }

// [name, query, how the count reads the payments]. A search seeks each invoice's payments once in
// payments_invoice (invoice_id=?), reading their status from the entry, not once per status.
const cases: Array<[string, PaymentQuery, RegExp]> = [
  ['no filter', { statuses: listed }, /SEARCH p USING COVERING INDEX payments_status \(status=\?\)/],
  [
    'a month',
    { statuses: listed, ...month },
    /SEARCH p USING COVERING INDEX payments_status \(status=\? AND created_at>\? AND created_at<\?\)/,
  ],
  [
    'two statuses',
    { statuses: ['FAI', 'PRF'] },
    /SEARCH p USING COVERING INDEX payments_status \(status=\?\)/,
  ],
  [
    'a search',
    { statuses: listed, search: 'hill lynn' },
    /SEARCH p USING COVERING INDEX payments_invoice \(invoice_id=\?\)\n[^]*SCAN invoice_search VIRTUAL TABLE/,
  ],
  // The short term is matched on the invoices the index finds for the long one, by primary key.
  [
    'a search with a term too short for the index',
    { statuses: listed, search: 'hill ly' },
    /SEARCH p USING COVERING INDEX payments_invoice \(invoice_id=\?\)\n[^]*SEARCH i USING INTEGER PRIMARY KEY[^]*SCAN invoice_search VIRTUAL TABLE/,
  ],
]

describe('payments list plans', () => {
  for (const [name, query, count] of cases) {
    test(`${name}: the count and the page's ids come from indexes`, async () => {
      const [countPlan, pagePlan] = await plansOf(async () => {
        const payments = listPayments(db, query)
        await payments.count()
        await payments.rows(10, 20)
      })
      expect(countPlan).toMatch(count)
      expect(countPlan).not.toMatch(/^SCAN (p|i)$/m)
      expect(pagePlan).not.toMatch(/^SCAN (p|i)$/m)
      // The page's ids first; then its rows by primary key, each with the invoice's figures.
      expect(pagePlan).toMatch(/^CO-ROUTINE page\n[^]*^SCAN page\nSEARCH p USING INTEGER PRIMARY KEY/m)
    })
  }
})
