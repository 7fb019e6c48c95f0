import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { checkSale } from '../../../src/core/sales/check-sale.ts'
import { MembershipChanged, PaymentSourceSpent } from '../../../src/core/sales/conflicts.ts'
import { postInvoice } from '../../../src/core/sales/post-invoice.ts'
import type { LineRequest, PaymentRequest } from '../../../src/core/sales/request.ts'
import { openDatabase, type Connection } from '../../../src/db/connection.ts'
import type { Database } from '../../../src/db/schema.ts'
import { migrateToLatest } from '../../../src/db/migrator.ts'
import { fixedClock } from '../../../src/lib/clock.ts'
import { START } from '../../helpers/app.ts'
import { makeCustomer } from '../../helpers/customer-factories.ts'
import { makeCredit } from '../../helpers/customer-record-factories.ts'
import { countRows, makeEventType, seedBasics } from '../../helpers/factories.ts'
import {
  makeCustomerMembership,
  makeEntryPassType,
  makeEvent,
  makeMembershipType,
  makeVoucherPack,
} from '../../helpers/product-factories.ts'

/*
 * postInvoice (src/core/sales/post-invoice.ts): a checked sale written whole, each purchase type
 * posting what it grants beside its line (src/core/sales/lines/), or nothing at all when another
 * sale changed what it relies on. Customer 1 holds a credit of 25.00 and a recurring membership
 * billed 65.00, due today (2026-11-22 in Denver).
 */

let connection: Connection
const clock = fixedClock(START)
let staff = { id: 0, default_gym_id: 0 }
const ids = {
  customer: 0,
  membershipType: 0,
  passType: 0,
  pack: 0,
  eventType: 0,
  event: 0,
  membership: 0,
  credit: 0,
}

beforeEach(async () => {
  connection = openDatabase(':memory:')
  const { db } = connection
  await migrateToLatest(db)
  const seed = await seedBasics(db)
  staff = { id: seed.staff.id, default_gym_id: seed.gym.id }
  ids.customer = (await makeCustomer(db)).id
  ids.membershipType = (await makeMembershipType(db)).id
  ids.passType = (await makeEntryPassType(db)).id
  ids.eventType = (await makeEventType(db)).id
  ids.pack = (await makeVoucherPack(db, { event_type_id: ids.eventType })).id
  ids.event = (await makeEvent(db, { event_type_id: ids.eventType, gym_id: seed.gym.id })).id
  ids.membership = (
    await makeCustomerMembership(db, {
      membership_type_id: ids.membershipType,
      owner_id: ids.customer,
      start_date: '2026-10-22',
      end_date: '2026-11-22',
      billing_amount_cents: 6500,
    })
  ).id
  ids.credit = (await makeCredit(db, ids.customer)).id
})
afterEach(() => connection.close())

const deps = () => ({ db: connection.db, sqlite: connection.sqlite, clock })

/** Checks and posts a sale of these lines to customer 1; the new invoice's id. */
async function sell(lines: Omit<LineRequest, 'refused'>[], payments: PaymentRequest[] = []) {
  const checked = await checkSale(deps(), {
    customer_id: ids.customer,
    lines: lines.map((line) => ({ refused: false, ...line })),
    payments,
    refused: new Set(),
    staff,
  })
  expect(checked.refusals).toEqual([])
  return { checked, post: () => postInvoice(deps(), checked.sale!, checked.zone) }
}

const lineRow = (invoiceId: number) =>
  connection.db
    .selectFrom('invoice_line_items')
    .select([
      'purchase_type',
      'quantity',
      'net_cents',
      'membership_type_id',
      'entry_pass_type_id',
      'event_id',
      'voucher_pack_id',
      'customer_membership_id',
      'reservation_id',
      'customer_event_voucher_id',
      'period_start',
    ])
    .where('invoice_id', '=', invoiceId)
    .executeTakeFirstOrThrow()

describe('postInvoice: each purchase type writes what it grants, linked from its line', () => {
  const none = {
    membership_type_id: null,
    entry_pass_type_id: null,
    event_id: null,
    voucher_pack_id: null,
    customer_membership_id: null,
    reservation_id: null,
    customer_event_voucher_id: null,
    period_start: null,
  }
  const cases: Array<
    [
      name: string,
      line: () => Omit<LineRequest, 'refused'>,
      granted: Partial<Record<keyof Database, number>>,
      links: () => Record<string, unknown>,
    ]
  > = [
    ['GEN: the line alone', () => ({ purchase_type: 'GEN', unit_price_cents: 450 }), {}, () => ({})],
    [
      'EPA of two: two passes',
      () => ({ purchase_type: 'EPA', entry_pass_id: ids.passType, quantity: 2 }),
      { customer_entry_passes: 2 },
      () => ({ entry_pass_type_id: ids.passType }),
    ],
    [
      'MIN: a membership, its member and its first status',
      () => ({ purchase_type: 'MIN', membership_id: ids.membershipType, start_date: '2026-11-22' }),
      { customer_memberships: 1, membership_members: 1 },
      () => ({ membership_type_id: ids.membershipType, customer_membership_id: ids.membership + 1 }),
    ],
    [
      'MRE: the period from the next bill date, on the membership renewed',
      () => ({ purchase_type: 'MRE', customer_membership_id: ids.membership }),
      {},
      () => ({
        membership_type_id: ids.membershipType,
        customer_membership_id: ids.membership,
        period_start: '2026-11-22',
      }),
    ],
    [
      'BOO: a reservation',
      () => ({ purchase_type: 'BOO', event_id: ids.event }),
      { reservations: 1 },
      () => ({ event_id: ids.event, reservation_id: 1 }),
    ],
    [
      "VPO: the pack's voucher",
      () => ({ purchase_type: 'VPO', voucher_pack_id: ids.pack }),
      { customer_event_vouchers: 1 },
      () => ({ voucher_pack_id: ids.pack, customer_event_voucher_id: 1 }),
    ],
    [
      'EVV: a voucher of the event type',
      () => ({ purchase_type: 'EVV', event_type_id: ids.eventType, unit_price_cents: 1500 }),
      { customer_event_vouchers: 1 },
      () => ({ customer_event_voucher_id: 1 }),
    ],
    [
      'GIF: a gift code naming the line',
      () => ({ purchase_type: 'GIF', gift: { voucher_pack_id: ids.pack } }),
      { gifts: 1 },
      () => ({}),
    ],
  ]
  test.each(cases)('%s', async (_, line, granted, links) => {
    const before = Object.fromEntries(
      await Promise.all(
        Object.keys(granted).map(async (t) => [t, await countRows(connection.db, t as keyof Database)]),
      ),
    )
    const invoiceId = await (await sell([line()])).post()
    const row = await lineRow(invoiceId)
    expect({ ...row, purchase_type: undefined, quantity: undefined, net_cents: undefined }).toEqual({
      ...none,
      ...links(),
      purchase_type: undefined,
      quantity: undefined,
      net_cents: undefined,
    })
    for (const [table, added] of Object.entries(granted))
      expect(await countRows(connection.db, table as keyof Database)).toBe(before[table] + added)
  })
})

describe('postInvoice: overtaken by another sale, nothing is recorded', () => {
  test('a credit drawn on after the sale was checked: PaymentSourceSpent at its payment', async () => {
    const sale = await sell(
      [{ purchase_type: 'GEN', unit_price_cents: 2500 }],
      [
        { payment_type: 'OFF', amount_cents: 500 },
        { payment_type: 'CRE', credit_id: ids.credit, amount_cents: 2000 },
      ],
    )
    await connection.db.updateTable('customer_credits').set({ amount_remaining_cents: 1999 }).execute()
    await expect(sale.post()).rejects.toEqual(new PaymentSourceSpent(1))
    expect(await countRows(connection.db, 'invoices')).toBe(0)
  })

  test('a membership renewed after the sale was checked: MembershipChanged at its line', async () => {
    const first = await sell([{ purchase_type: 'MRE', customer_membership_id: ids.membership }])
    const second = await sell([
      { purchase_type: 'GEN', unit_price_cents: 100 },
      { purchase_type: 'MRE', customer_membership_id: ids.membership },
    ])
    await first.post()
    await expect(second.post()).rejects.toEqual(new MembershipChanged(1))
    expect(await countRows(connection.db, 'invoices')).toBe(1)
  })
})
