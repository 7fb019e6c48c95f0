import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { reportMembersJson } from '../../../src/core/reports/members-report.ts'
import type { MemberFilters } from '../../../src/core/reports/queries.ts'
import { openDatabase, type Connection } from '../../../src/db/connection.ts'
import { migrateToLatest } from '../../../src/db/migrator.ts'
import { ACTIVE_STATUSES, FAILED_STATUSES, FROZEN_STATUSES } from '../../../src/domain/membership-status.ts'
import { seedBasics } from '../../helpers/factories.ts'
import { makeInvoice } from '../../helpers/sales-factories.ts'
import {
  ALL_ROWS,
  rowNames,
  seedMembersReportSet,
  type MembersReportSet,
} from '../../helpers/members-report-set.ts'

/*
 * The members report engine on the set of test/helpers/members-report-set.ts (its table lists every
 * row), called as api/members/ calls it but with the filters already read: which rows each filter
 * keeps, and what a row says. The set's organization is in America/Denver; M2 started at 23:30 on
 * 11-21 local (06:30 UTC on the 22nd), M1 at 00:30 on the 22nd local.
 */

let connection: Connection
let set: MembersReportSet

beforeEach(async () => {
  connection = openDatabase(':memory:')
  await migrateToLatest(connection.db)
  const seed = await seedBasics(connection.db)
  set = await seedMembersReportSet(connection.db, seed.gym)
})
afterEach(() => connection.close())

const EVERY_SHOWN = [...ACTIVE_STATUSES, ...FROZEN_STATUSES, ...FAILED_STATUSES]

/** What includeBillingInfo adds to each row. */
const BILLING_FIELDS = [
  'billing_amount',
  'billing_amount_per_member',
  'last_invoice_amount',
  'last_invoice_date',
  'last_invoice_id',
  'last_invoice_tax_amount',
  'membership_num_members',
]

const URLS = {
  customers: 'https://desk.example/api/customers/',
  customerMemberships: 'https://desk.example/api/customer-memberships/',
  memberships: 'https://desk.example/api/memberships/',
  gyms: 'https://desk.example/api/gyms/',
}

async function report(filters: Partial<MemberFilters>, includeBillingInfo = false): Promise<any[]> {
  const blob = await reportMembersJson(
    { reader: connection.db },
    { filters: { statuses: EVERY_SHOWN, ...filters }, includeBillingInfo },
    { urls: URLS, addOnJson: (addOn) => JSON.stringify({ id: addOn.id, name: addOn.name }) },
  )
  return JSON.parse(await blob.text())
}

describe('which rows each filter keeps', () => {
  const cases: Array<[name: string, filters: () => Partial<MemberFilters>, rows: string[]]> = [
    ['every shown status: one row per covered person per membership', () => ({}), ALL_ROWS],
    [
      'active only: an individually frozen member of an active membership is left out',
      () => ({ statuses: ACTIVE_STATUSES }),
      ['Ada Alvarez M1', 'Ada Alvarez M6', 'Ben Brooks M2', 'Eve de Luca M2', 'Jack Garcia M5'],
    ],
    [
      'frozen only: a frozen membership, and the frozen member of an active one',
      () => ({ statuses: FROZEN_STATUSES }),
      ['Cara Brooks M2', 'Gus Evans M3'],
    ],
    [
      'failed only: a member flagged frozen on a failed membership stays failed',
      () => ({ statuses: FAILED_STATUSES }),
      ['Hana Fischer M4', 'Lee Ito M7'],
    ],
    [
      'a membership type (a type id, not a membership id)',
      () => ({ membership_type_id: set.types.family.id }),
      ['Ben Brooks M2', 'Cara Brooks M2', 'Eve de Luca M2'],
    ],
    ['a purchase type', () => ({ purchase_type: 'PRE' }), ['Jack Garcia M5']],
    ['not a group type', () => ({ is_group: false }), ALL_ROWS.filter((row) => !row.endsWith('M2'))],
    ['youth programming', () => ({ is_youth_programming: true }), ['Jack Garcia M5']],
    ['an add-on by its name, not its id', () => ({ add_on_name: 'Towel Service' }), ['Ada Alvarez M1']],
    ['an add-on id is not a name', () => ({ add_on_name: 'bath-towel' }), []],
    [
      "the member's home gym",
      () => ({ home_location_id: set.north.id }),
      ['Eve de Luca M2', 'Jack Garcia M5'],
    ],
    [
      'started on or after the local 11-22: M2, begun at 23:30 on the 21st local, is not',
      () => ({ start_date_min: '2026-11-22' }),
      ['Ada Alvarez M1', 'Jack Garcia M5'],
    ],
    [
      'started on or before the local 11-21: M2 is, though it began on the 22nd in UTC',
      () => ({ start_date_min: '2026-11-21', start_date_max: '2026-11-21' }),
      ['Ben Brooks M2', 'Cara Brooks M2', 'Eve de Luca M2'],
    ],
    [
      'with a payment method on file',
      () => ({ has_payment_method: true }),
      [
        'Ada Alvarez M1',
        'Ben Brooks M2',
        'Cara Brooks M2',
        'Eve de Luca M2',
        'Hana Fischer M4',
        'Lee Ito M7',
      ],
    ],
    [
      'filters together narrow each other',
      () => ({ statuses: ACTIVE_STATUSES, has_payment_method: true, is_group: true }),
      ['Ben Brooks M2', 'Eve de Luca M2'],
    ],
  ]
  test.each(cases)('%s', async (_name, filters, rows) => {
    expect(rowNames(set, await report(filters()))).toEqual(rows)
  })
})

describe('what a row says', () => {
  test("a member's own row: the effective status, the add-ons by name, URLs from the caller's prefixes", async () => {
    const rows = await report({ membership_type_id: set.types.family.id })
    const cara = rows.find((row) => row.first_name === 'Cara')
    expect(cara).toMatchObject({
      customer_id: set.people.cara.id,
      customer_url: `${URLS.customers}${set.people.cara.id}/`,
      membership_id: set.m.M2,
      status: 'FRZ',
    })
    const ada = (await report({ add_on_name: 'Locker' }))[0]
    expect(ada.add_ons).toEqual([
      { id: 'locker', name: 'Locker' },
      { id: 'bath-towel', name: 'Towel Service' },
    ])
  })

  test("billing info adds the membership's amount, its number of members and each one's share", async () => {
    const [plain] = await report({ membership_type_id: set.types.family.id })
    const [billed] = await report({ membership_type_id: set.types.family.id }, true)
    const added = Object.keys(billed).filter((key) => !(key in plain))
    expect(added.sort()).toEqual(BILLING_FIELDS)
    // 100.00 shared by three: each share rounded to the cent.
    expect(billed).toMatchObject({
      billing_amount: '100.00',
      membership_num_members: 3,
      billing_amount_per_member: '33.33',
    })
    const [lee] = await report({ statuses: ['FPF'] }, true)
    expect(lee).toMatchObject({
      billing_amount: '59.99',
      membership_num_members: 1,
      billing_amount_per_member: '59.99',
    })
  })

  test("the last invoice: the newest holding the membership's MIN or MRE line, its whole total, its local day", async () => {
    const db = connection.db
    const gym_id = 1
    const { m, people } = set
    // M1: sold on 11-01, renewed at midnight local on 11-22 (07:00 UTC); a later sale of chalk
    // to Ada names no membership and is not its invoice.
    await makeInvoice(db, {
      gym_id,
      at: '2026-11-01T17:00:00.000Z',
      lines: [{ purchase_type: 'MIN', customer_membership_id: m.M1!, net_cents: 6500 }],
    })
    const renewal = await makeInvoice(db, {
      gym_id,
      at: '2026-11-22T07:00:00.000Z',
      lines: [{ purchase_type: 'MRE', customer_membership_id: m.M1!, net_cents: 6500, tax_cents: 536 }],
    })
    await makeInvoice(db, { gym_id, customer_id: people.ada.id, at: '2026-11-22T15:00:00.000Z' })
    // M2: sold at 23:30 on 11-21 local (06:30 UTC on the 22nd) with a chalk bag on the same invoice.
    const family = await makeInvoice(db, {
      gym_id,
      at: '2026-11-22T06:30:00.000Z',
      lines: [
        { purchase_type: 'MIN', customer_membership_id: m.M2!, net_cents: 100_000, tax_cents: 8250 },
        { net_cents: 1200 },
      ],
    })
    const rows = await report({}, true)
    const lastInvoice = (label: string) => {
      const row = rows.find((r) => set.labels.get(r.membership_id) === label)
      return [
        row.last_invoice_id,
        row.last_invoice_date,
        row.last_invoice_amount,
        row.last_invoice_tax_amount,
      ]
    }
    expect(lastInvoice('M1')).toEqual([renewal.id, '2026-11-22', '70.36', '5.36'])
    expect(lastInvoice('M2')).toEqual([family.id, '2026-11-21', '1094.50', '82.50'])
    expect(lastInvoice('M3')).toEqual([null, null, null, null])
  })

  test('an empty report is an empty array', async () => {
    expect(await report({ add_on_name: 'No such add-on' })).toEqual([])
  })
})
