import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { getCheckIn, listCheckIns, type CheckInQuery } from '../../src/api/check-ins/queries.ts'
import { doorStatements } from '../../src/core/door/queries.ts'
import type { Connection, Db } from '../../src/db/connection.ts'
import { openQueryPlans, type QueryPlans } from '../helpers/query-plans.ts'

/*
 * A busy gym holds hundreds of thousands of check-ins, so each shape of history query must reach
 * its rows through an index and, where it can, get its order from that index (no sort step). The
 * plans are SQLite's without statistics: the appliance never runs ANALYZE.
 */

let connection: Connection
let db: Db
let plansOf: QueryPlans['plansOf']

beforeAll(async () => {
  ;({ connection, db, plansOf } = await openQueryPlans())
})
afterAll(() => connection.close())

const today = '2026-11-22T07:00:00.000Z'
const tomorrow = '2026-11-23T07:00:00.000Z'

// [name, query, the index the check_ins rows come through]
const cases: Array<[string, CheckInQuery, RegExp]> = [
  ['no filter', {}, /SCAN ci USING INDEX check_ins_created\b/],
  [
    'a day',
    { created_from: today, created_before: tomorrow },
    /SEARCH ci USING INDEX check_ins_created \(created_at>\? AND created_at<\?\)/,
  ],
  [
    'a location today',
    { gym_id: 1, created_from: today },
    /SEARCH ci USING INDEX check_ins_created \(created_at>\?\)/,
  ],
  [
    'an entry method',
    { entry_method: 'FRE' },
    /SEARCH ci USING INDEX check_ins_method_created \(entry_method=\?\)/,
  ],
  [
    'an entry method today',
    { entry_method: 'FRE', created_from: today },
    /check_ins_method_created \(entry_method=\? AND created_at>\?\)/,
  ],
  ['checked out', { checked_out: true }, /SEARCH ci USING INDEX check_ins_check_out \(check_out_at>\?\)/],
  [
    'checked out today',
    { checked_out: true, created_from: today },
    /SEARCH ci USING INDEX check_ins_check_out/,
  ],
  ['a customer', { customer_id: 1 }, /SEARCH ci USING INDEX check_ins_customer_\w+ \(customer_id=\?\)/],
  [
    'a customer at a location',
    { customer_id: 1, gym_id: 1 },
    /check_ins_customer_gym \(customer_id=\? AND gym_id=\?\)/,
  ],
  // Without the unary + on entry_method, SQLite would walk every MEM check-in of the gym.
  [
    'a customer and an entry method',
    { customer_id: 1, entry_method: 'MEM' },
    /SEARCH ci USING INDEX check_ins_customer_\w+ \(customer_id=\?\)/,
  ],
]

describe('check-in history plans', () => {
  for (const [name, query, index] of cases) {
    test(`${name}: the list and the count use an index`, async () => {
      const [list, count] = await plansOf(async () => {
        const checkIns = listCheckIns(db, query)
        await checkIns.rows(10, 20)
        await checkIns.count()
      })
      expect(list).toMatch(index)
      expect(list).not.toMatch(/^SCAN (ci|check_ins)$/m)
      expect(count).not.toMatch(/^SCAN (ci|check_ins)$/m)
      // The joined rows come by primary key.
      for (const alias of ['c', 'g', 'u'])
        expect(list).toMatch(new RegExp(`SEARCH ${alias} USING INTEGER PRIMARY KEY`))
      // A customer's history is small enough to sort; every other list gets its order from the index.
      if (query.customer_id === undefined || query.gym_id !== undefined)
        expect(list).not.toContain('USE TEMP B-TREE')
    })
  }

  test('one check-in by id, within a customer or not, by primary key', async () => {
    for (const plan of await plansOf(async () => {
      await getCheckIn(db, 1)
      await getCheckIn(db, 1, 2)
    }))
      expect(plan).toMatch(/SEARCH ci USING INTEGER PRIMARY KEY \(rowid=\?\)/)
  })
})

/*
 * The door's statements run inside the check-in transaction on every scan: each reaches its rows by
 * primary key or an index, and none sorts (the door orders the few rows it gets in JavaScript).
 */
const byKey = (table: string) => new RegExp(`^SEARCH ${table} USING INTEGER PRIMARY KEY \\(rowid=\\?\\)$`)

const doorPlans: Record<keyof typeof doorStatements, RegExp> = {
  gymById: byKey('gyms'),
  // The organization's few gyms, in rowid order.
  firstGyms: /^SCAN gyms$/,
  customerByBarcode: /^SEARCH customers USING INDEX sqlite_autoindex_customers_1 \(barcode=\?\)$/,
  customerById: byKey('customers'),
  organization: byKey('organization'),
  activeAlerts: /^SEARCH customer_alerts USING INDEX customer_alerts_customer \(customer_id=\?\)$/,
  usableWaiver:
    /SEARCH customer_documents USING COVERING INDEX customer_documents_customer \(customer_id=\? AND kind=\?\)$/,
  recentCheckIns:
    /^SEARCH check_ins USING INDEX check_ins_customer_gym \(customer_id=\? AND gym_id=\? AND created_at>\?\)$/,
  liveReservations: /^SEARCH reservations USING INDEX reservations_customer \(customer_id=\?\)$/,
  eventNow: byKey('events'),
  covers: /^SEARCH membership_members USING INDEX membership_members_customer \(customer_id=\?\)$/,
  membershipById: byKey('customer_memberships'),
  membershipTypeById: byKey('membership_types'),
  anyCover: /^SEARCH membership_members USING COVERING INDEX membership_members_customer \(customer_id=\?\)$/,
  usablePasses: /^SEARCH customer_entry_passes USING INDEX customer_entry_passes_owner \(owner_id=\?\)$/,
  passTypeName: byKey('entry_pass_types'),
  customerName: byKey('customers'),
  // An INSERT ... VALUES reads nothing.
  insertCheckIn: /^$/,
  countCheckIn: byKey('customers'),
  takeEntry: byKey('customer_entry_passes'),
  markReservation: byKey('reservations'),
  // A host's guest check-ins: through the GUE check-ins (the rare method), not every check-in.
  guestCheckIns: /^SEARCH check_ins USING INDEX check_ins_method_created \(entry_method=\?\)$/,
  checkInSummary: byKey('check_ins'),
}

describe("the door's statement plans", () => {
  for (const [name, statement] of Object.entries(doorStatements)) {
    test(`${name}: by primary key or an index, no sort`, () => {
      const plan = (
        connection.sqlite.query(`EXPLAIN QUERY PLAN ${statement.sql}`).all() as Array<{ detail: string }>
      )
        .map((row) => row.detail)
        .join('\n')
      expect(plan).toMatch(doorPlans[name as keyof typeof doorStatements])
      expect(plan).not.toContain('USE TEMP B-TREE')
    })
  }
})
