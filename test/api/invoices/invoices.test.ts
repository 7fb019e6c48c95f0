import { beforeEach, describe, expect, test } from 'bun:test'
import { ORIGIN, START } from '../../helpers/app.ts'
import { emptyPayment } from '../../helpers/sales-factories.ts'
import { doesNotExist, invalidChoice, minValue, required } from '../../helpers/bodies.ts'
import { makeCustomer } from '../../helpers/customer-factories.ts'
import { makeCredit, makeEventVoucher } from '../../helpers/customer-record-factories.ts'
import { countRows, makeEventType } from '../../helpers/factories.ts'
import {
  makeDiscount,
  makeEntryPassType,
  makeEvent,
  makeMembershipType,
  makeReservation,
  makeTaxRate,
  makeVoucherPack,
} from '../../helpers/product-factories.ts'
import { expectEachForbidden, testEachNeedsToken, useSeededApp, useStaff } from '../../helpers/seeded.ts'
import type { Customer, Database } from '../../../src/db/schema.ts'

type Made<F extends (...args: never[]) => unknown> = Awaited<ReturnType<F>>

/*
 * POST and GET /api/invoices/: a sale recorded whole (its lines, what they grant, its payments) or
 * not at all. The organization is in Denver; START is Sunday 2026-11-22 08:04:05 there.
 */

const t = useSeededApp()
const staff = useStaff(t, 'members', 'allButMembers')

const PATH = '/api/invoices/'

let customer: Customer
let punchCard: Made<typeof makeEntryPassType>
let colorado: Made<typeof makeTaxRate>
let retail: Made<typeof makeTaxRate>
beforeEach(async () => {
  customer = await makeCustomer(t.db)
  colorado = await makeTaxRate(t.db)
  retail = await makeTaxRate(t.db, { name: 'Retail', rate_basis_points: 500 })
  punchCard = await makeEntryPassType(t.db, { tax_rate_id: colorado.id, revenue_account_code: '4100' })
  await makeDiscount(t.db)
  await makeDiscount(t.db, {
    code: 'FIVE',
    name: 'Five off',
    percent_off_hundredths: null,
    amount_off_cents: 500,
  })
})

const post = (body: unknown, token = staff.members.token) => t.request('POST', PATH, { token, body })

/** Every table's row count, to show a refused sale left nothing behind anywhere. */
async function countEveryTable(): Promise<Record<string, number>> {
  const tables = await t.db.introspection.getTables()
  const counts: Record<string, number> = {}
  for (const table of tables) counts[table.name] = await countRows(t.db, table.name as keyof Database)
  return counts
}

const chalkBag = {
  purchase_type: 'GEN',
  description: 'Chalk bag',
  unit_price: '12.00',
  revenue_account_code: '4300',
}

/** The mixed sale: two punch cards at 8.25%, a chalk bag at 5%, a guide book untaxed, two discounts. */
const mixedSale = () => ({
  customer_id: customer.id,
  description: 'Front desk',
  discount_codes: ['spring10', 'FIVE'],
  line_items: [
    { purchase_type: 'EPA', entry_pass_id: punchCard.id, quantity: 2 },
    { ...chalkBag, tax_rate_id: retail.id },
    { purchase_type: 'GEN', description: 'Guide book', unit_price: 8 },
  ],
  payments: [
    {
      payment_type: 'OFF',
      payment_method_type: 'CRD',
      amount: '300.00',
      credit_card_last4: '4242',
      credit_card_brand: 'visa',
    },
  ],
})

describe('/api/invoices/ 401, 403', () => {
  testEachNeedsToken(
    t,
    [
      ['GET', PATH],
      ['GET', `${PATH}1/`],
      ['POST', PATH],
    ],
    {},
  )

  test('reading and selling need can_manage_members', async () => {
    await expectEachForbidden(
      t,
      [t.seed.staffToken, staff.allButMembers.token],
      [
        ['GET', PATH],
        ['GET', `${PATH}1/`],
        ['POST', PATH, {}],
      ],
    )
  })
})

describe('POST /api/invoices/ 400', () => {
  test('an empty body reports line_items', async () => {
    const res = await post({})
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ line_items: required })
  })

  test('each failing line and payment is reported at its index, {} for those that passed', async () => {
    const res = await post({
      customer_id: 99,
      discount_codes: ['NOPE'],
      line_items: [
        chalkBag,
        { purchase_type: 'EPA', entry_pass_id: 99 },
        { purchase_type: 'GEN', description: 'Tape' },
        { purchase_type: 'XYZ' },
        'chalk',
      ],
      payments: [
        { payment_type: 'OFF', amount: '-1' },
        { payment_type: 'OFF', amount: '1.00' },
      ],
    })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({
      customer_id: doesNotExist(99),
      discount_codes: ['No active discount has the code "NOPE".'],
      line_items: [
        {},
        { entry_pass_id: doesNotExist(99) },
        { unit_price: required },
        { purchase_type: invalidChoice('XYZ') },
        { non_field_errors: ['Invalid data. Expected a dictionary, but got str.'] },
      ],
      payments: [{ amount: minValue(0) }, {}],
    })
  })

  test('a sale that grants the customer something needs a customer; only active products are sold', async () => {
    const retired = await makeEntryPassType(t.db, { status: 'RET' })
    const res = await post({
      line_items: [
        { purchase_type: 'EPA', entry_pass_id: punchCard.id },
        { purchase_type: 'EPA', entry_pass_id: retired.id },
      ],
    })
    expect(res.body).toEqual({
      customer_id: [
        'Choose a customer: memberships, entry passes, bookings and vouchers are sold to someone.',
      ],
      line_items: [{}, { entry_pass_id: ['Only an active product can be sold.'] }],
    })
  })

  test('payments may not come to more than the total', async () => {
    const res = await post({ line_items: [chalkBag], payments: [{ payment_type: 'OFF', amount: '12.01' }] })
    expect(res.body).toEqual({
      payments: ['The payments (12.01) come to more than the invoice total (12.00).'],
    })
  })

  test('a refused sale leaves no row behind in any table', async () => {
    const before = await countEveryTable()
    const refused = [
      { ...mixedSale(), payments: [{ payment_type: 'OFF', amount: '400.00' }] },
      { ...mixedSale(), discount_codes: ['SPRING10', 'SPRING10'] },
      { ...mixedSale(), location_id: 99 },
    ]
    for (const body of refused) expect((await post(body)).status).toBe(400)
    expect(await countEveryTable()).toEqual(before)
  })
})

describe('POST /api/invoices/', () => {
  test('a mixed sale with two discounts and two tax rates, every cent worked out', async () => {
    const res = await post(mixedSale())
    expect(res.status).toBe(201)
    const passes = await t.db
      .selectFrom('customer_entry_passes')
      .select([
        'id',
        'owner_id',
        'purchaser_id',
        'entries_remaining',
        'expiry_date',
        'acquired_via',
        'invoice_id',
      ])
      .orderBy('id')
      .execute()
    const id = res.body.id
    expect(passes.map(({ id: _, ...pass }) => pass)).toEqual(
      Array(2).fill({
        owner_id: customer.id,
        purchaser_id: customer.id,
        entries_remaining: 10,
        // 365 days counting the day of sale
        expiry_date: '2027-11-21',
        acquired_via: 'purchase',
        invoice_id: id,
      }),
    )
    const [lines, payments] = [res.body.line_items, res.body.payments]
    // Gross 2 x 150.00 + 12.00 + 8.00 = 320.00. SPRING10 takes 10%: 32.00; FIVE 5.00: 37.00 in all.
    // Spread by gross: 37.00 x 300/320 = 34.6875 -> 34.69; 37.00 x 12/320 = 1.3875 -> 1.39; the
    // last line the rest, 0.92. Net 265.31, 10.61, 7.08 (283.00). Tax 265.31 x 8.25% = 21.888075
    // -> 21.89; 10.61 x 5% = 0.5305 -> 0.53; none: 22.42. Total 305.42; 300.00 paid, 5.42 due.
    expect(res.body).toEqual({
      id,
      url: `${ORIGIN}/api/invoices/${id}/`,
      customer_id: customer.id,
      location_id: t.seed.gym.id,
      location_name: 'Boulder Barn Downtown',
      staff_user_id: staff.members.id,
      description: 'Front desk',
      subtotal: '320.00',
      discount_total: '37.00',
      tax_total: '22.42',
      total: '305.42',
      amount_paid: '300.00',
      amount_refunded: '0.00',
      balance_due: '5.42',
      discounts: [
        {
          discount_id: expect.any(Number),
          code: 'SPRING10',
          name: '',
          display_name: '',
          association_id: null,
          amount: '32.00',
        },
        {
          discount_id: expect.any(Number),
          code: 'FIVE',
          name: 'Five off',
          display_name: '',
          association_id: null,
          amount: '5.00',
        },
      ],
      line_items: [
        {
          id: lines[0].id,
          purchase_type: 'EPA',
          description: '10-Punch Card',
          quantity: 2,
          unit_price: '150.00',
          discount_amount: '34.69',
          net_amount: '265.31',
          tax_rate_id: colorado.id,
          tax_rate: '0.0825',
          tax_amount: '21.89',
          total: '287.20',
          revenue_account_code: '4100',
          membership_id: null,
          customer_membership_id: null,
          entry_pass_id: punchCard.id,
          event_id: null,
          voucher_pack_id: null,
          reservation_id: null,
          customer_event_voucher_id: null,
          gift_code: null,
          customer_entry_pass_ids: passes.map((pass) => pass.id),
          period_start: null,
        },
        {
          id: lines[1].id,
          purchase_type: 'GEN',
          description: 'Chalk bag',
          quantity: 1,
          unit_price: '12.00',
          discount_amount: '1.39',
          net_amount: '10.61',
          tax_rate_id: retail.id,
          tax_rate: '0.0500',
          tax_amount: '0.53',
          total: '11.14',
          revenue_account_code: '4300',
          membership_id: null,
          customer_membership_id: null,
          entry_pass_id: null,
          event_id: null,
          voucher_pack_id: null,
          reservation_id: null,
          customer_event_voucher_id: null,
          gift_code: null,
          customer_entry_pass_ids: [],
          period_start: null,
        },
        {
          id: lines[2].id,
          purchase_type: 'GEN',
          description: 'Guide book',
          quantity: 1,
          unit_price: '8.00',
          discount_amount: '0.92',
          net_amount: '7.08',
          tax_rate_id: null,
          tax_rate: '0.0000',
          tax_amount: '0.00',
          total: '7.08',
          revenue_account_code: '',
          membership_id: null,
          customer_membership_id: null,
          entry_pass_id: null,
          event_id: null,
          voucher_pack_id: null,
          reservation_id: null,
          customer_event_voucher_id: null,
          gift_code: null,
          customer_entry_pass_ids: [],
          period_start: null,
        },
      ],
      payments: [
        {
          ...emptyPayment,
          id: payments[0].id,
          payment_method_type: 'CRD',
          amount: '300.00',
          credit_card_last4: '4242',
          credit_card_brand: 'visa',
        },
      ],
      refunds: [],
      created_at: START,
      updated_at: START,
    })
    const read = await t.request('GET', `${PATH}${id}/`, { token: staff.members.token })
    expect(read.body).toEqual(res.body)
  })

  test('an anonymous retail sale with no payment leaves its whole total due', async () => {
    const res = await post({ line_items: [{ ...chalkBag, quantity: 3, tax_rate_id: retail.id }] })
    expect(res.status).toBe(201)
    // 3 x 12.00 = 36.00; 5% is 1.80
    expect(res.body).toMatchObject({
      customer_id: null,
      subtotal: '36.00',
      tax_total: '1.80',
      total: '37.80',
      amount_paid: '0.00',
      balance_due: '37.80',
      payments: [],
    })
  })

  test('a processing payment is not yet paid', async () => {
    const res = await post({
      line_items: [chalkBag],
      payments: [{ payment_type: 'STR', payment_method_type: 'CRD', amount: '12.00', status: 'PRO' }],
    })
    expect(res.body).toMatchObject({ total: '12.00', amount_paid: '0.00', balance_due: '12.00' })
    expect(res.body.payments[0]).toMatchObject({ status: 'PRO', payment_type: 'STR' })
  })
})

describe('GET /api/invoices/', () => {
  test('filters by customer, location and organization-local days, newest first', async () => {
    const other = await makeCustomer(t.db, { first_name: 'Alex' })
    const first = (await post({ customer_id: customer.id, line_items: [chalkBag] })).body.id
    // 2026-11-23 06:59:59Z is still the 22nd in Denver; 07:00Z is the 23rd
    t.clock.set('2026-11-23T06:59:59.000Z')
    const second = (await post({ customer_id: other.id, line_items: [chalkBag] })).body.id
    t.clock.set('2026-11-23T07:00:00.000Z')
    const third = (await post({ customer_id: customer.id, line_items: [chalkBag] })).body.id
    const ids = async (query: string) =>
      (await t.request('GET', `${PATH}?${query}`, { token: staff.members.token })).body.results.map(
        (r: { id: number }) => r.id,
      )
    expect(await ids('')).toEqual([third, second, first])
    expect(await ids(`customer_id=${customer.id}`)).toEqual([third, first])
    expect(await ids('created_at_max=2026-11-22')).toEqual([second, first])
    expect(await ids('created_at_min=2026-11-23')).toEqual([third])
    expect(await ids(`location_id=${t.seed.gym.id + 1}`)).toEqual([])
  })

  test('a bad filter value is 400 on that parameter', async () => {
    const res = await t.request('GET', `${PATH}?created_at_min=22-11-2026`, { token: staff.members.token })
    expect(res.status).toBe(400)
    expect(Object.keys(res.body)).toEqual(['created_at_min'])
  })
})

describe('POST /api/invoices/ paid from a credit or a voucher', () => {
  const creditLeft = async (id: number) =>
    (
      await t.db
        .selectFrom('customer_credits')
        .select('amount_remaining_cents')
        .where('id', '=', id)
        .executeTakeFirstOrThrow()
    ).amount_remaining_cents

  test('a credit payment draws on the credit; two payments cannot spend it twice', async () => {
    const credit = await makeCredit(t.db, customer.id)
    const sale = (amounts: string[]) => ({
      customer_id: customer.id,
      line_items: [{ ...chalkBag, unit_price: '30.00' }],
      payments: amounts.map((amount) => ({ payment_type: 'CRE', credit_id: credit.id, amount })),
    })
    // 25.00 on the credit: 20.00 then 10.00 is too much for the second
    const refused = await post(sale(['20.00', '10.00']))
    expect(refused.body).toEqual({ payments: [{}, { amount: ['Only 5.00 remains on this credit.'] }] })
    expect(await creditLeft(credit.id)).toBe(2500)
    const res = await post(sale(['20.00']))
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({ total: '30.00', amount_paid: '20.00', balance_due: '10.00' })
    expect(res.body.payments[0]).toMatchObject({ payment_type: 'CRE', credit_id: credit.id, amount: '20.00' })
    expect(await creditLeft(credit.id)).toBe(500)
    const tooMuch = await post(sale(['5.01']))
    expect(tooMuch.body).toEqual({ payments: [{ amount: ['Only 5.00 remains on this credit.'] }] })
  })

  test("an expired, removed or another customer's credit is refused", async () => {
    const other = await makeCustomer(t.db, { first_name: 'Alex' })
    // START is 2026-11-22 in Denver: a credit through the 21st has expired, through the 22nd has not
    const expired = await makeCredit(t.db, customer.id, { expiry_date: '2026-11-21' })
    const lastDay = await makeCredit(t.db, customer.id, { expiry_date: '2026-11-22' })
    const removed = await makeCredit(t.db, customer.id, { is_removed: 1 })
    const theirs = await makeCredit(t.db, other.id)
    const res = await post({
      customer_id: customer.id,
      line_items: [chalkBag],
      payments: [expired, lastDay, removed, theirs].map((credit) => ({
        payment_type: 'CRE',
        credit_id: credit.id,
        amount: '1.00',
      })),
    })
    expect(res.body).toEqual({
      payments: [
        { credit_id: ['This expired on 2026-11-21.'] },
        {},
        { credit_id: ['This has been removed.'] },
        { credit_id: doesNotExist(theirs.id) },
      ],
    })
    expect(await creditLeft(lastDay.id)).toBe(2500)
  })

  test('a voucher payment has amount 0 and uses one use', async () => {
    const yoga = await makeEventType(t.db, { name: 'Yoga', gym_id: t.seed.gym.id })
    const voucher = await makeEventVoucher(t.db, customer.id, {
      event_type_id: yoga.id,
      number_of_uses_remaining: 1,
    })
    const sale = (amount: string) => ({
      customer_id: customer.id,
      line_items: [{ purchase_type: 'GEN', description: 'Yoga class', unit_price: '0.00' }],
      payments: [{ payment_type: 'VOU', voucher_id: voucher.id, amount }],
    })
    expect((await post(sale('1.00'))).body).toEqual({
      payments: [{ amount: ['A voucher payment has amount 0.'] }],
    })
    expect((await post(sale('0'))).status).toBe(201)
    expect((await post(sale('0'))).body).toEqual({
      payments: [{ voucher_id: ['This voucher has no uses left.'] }],
    })
    const left = await t.db
      .selectFrom('customer_event_vouchers')
      .select('number_of_uses_remaining')
      .executeTakeFirstOrThrow()
    expect(left.number_of_uses_remaining).toBe(0)
  })
})

describe('POST /api/invoices/ bookings and voucher packs', () => {
  test('BOO books the customer on the event; VPO issues the voucher of the pack', async () => {
    const yoga = await makeEventType(t.db, { name: 'Yoga', gym_id: t.seed.gym.id })
    const event = await makeEvent(t.db, {
      event_type_id: yoga.id,
      gym_id: t.seed.gym.id,
      name: 'Sunrise yoga',
      start_at: '2026-11-23T14:00:00.000Z',
      end_at: '2026-11-23T15:00:00.000Z',
      price_cents: 2000,
      revenue_account_code: '4200',
    })
    const pack = await makeVoucherPack(t.db, { event_type_id: yoga.id, tax_rate_id: retail.id })
    const res = await post({
      customer_id: customer.id,
      line_items: [
        { purchase_type: 'BOO', event_id: event.id },
        { purchase_type: 'VPO', voucher_pack_id: pack.id },
      ],
    })
    expect(res.status).toBe(201)
    const reservation = await t.db.selectFrom('reservations').selectAll().executeTakeFirstOrThrow()
    const voucher = await t.db.selectFrom('customer_event_vouchers').selectAll().executeTakeFirstOrThrow()
    expect(reservation).toMatchObject({ event_id: event.id, customer_id: customer.id, is_cancelled: 0 })
    // 90 days counting the day of sale, 2026-11-22 in Denver
    expect(voucher).toMatchObject({
      customer_id: customer.id,
      event_type_id: yoga.id,
      number_of_uses_total: 5,
      number_of_uses_remaining: 5,
      expiry_date: '2027-02-19',
      created_by_id: staff.members.id,
    })
    // 20.00 untaxed; 60.00 at 5% is 3.00
    expect(res.body.line_items.map(({ id: _, ...line }: { id: number }) => line)).toEqual([
      {
        purchase_type: 'BOO',
        description: 'Sunrise yoga',
        quantity: 1,
        unit_price: '20.00',
        discount_amount: '0.00',
        net_amount: '20.00',
        tax_rate_id: null,
        tax_rate: '0.0000',
        tax_amount: '0.00',
        total: '20.00',
        revenue_account_code: '4200',
        membership_id: null,
        customer_membership_id: null,
        entry_pass_id: null,
        event_id: event.id,
        voucher_pack_id: null,
        reservation_id: reservation.id,
        customer_event_voucher_id: null,
        gift_code: null,
        customer_entry_pass_ids: [],
        period_start: null,
      },
      {
        purchase_type: 'VPO',
        description: 'Yoga 5-pack',
        quantity: 1,
        unit_price: '60.00',
        discount_amount: '0.00',
        net_amount: '60.00',
        tax_rate_id: retail.id,
        tax_rate: '0.0500',
        tax_amount: '3.00',
        total: '63.00',
        revenue_account_code: '',
        membership_id: null,
        customer_membership_id: null,
        entry_pass_id: null,
        event_id: null,
        voucher_pack_id: pack.id,
        reservation_id: null,
        customer_event_voucher_id: voucher.id,
        gift_code: null,
        customer_entry_pass_ids: [],
        period_start: null,
      },
    ])
    expect(res.body.total).toBe('83.00')

    const again = await post({
      customer_id: customer.id,
      line_items: [{ purchase_type: 'BOO', event_id: event.id, quantity: 2 }],
    })
    expect(again.body).toEqual({
      line_items: [
        {
          quantity: ['Ensure this value is less than or equal to 1.'],
          event_id: ['This customer already has a reservation for this event.'],
        },
      ],
    })
  })

  test("BOO of a scheduled class (an event without a name of its own) is described by its type's name", async () => {
    const yoga = await makeEventType(t.db, { name: 'Yoga', gym_id: t.seed.gym.id })
    const event = await makeEvent(t.db, {
      event_type_id: yoga.id,
      gym_id: t.seed.gym.id,
      name: '',
      price_cents: 1500,
    })
    const res = await post({
      customer_id: customer.id,
      line_items: [{ purchase_type: 'BOO', event_id: event.id }],
    })
    expect(res.status).toBe(201)
    expect(res.body.line_items.map((line: { description: string }) => line.description)).toEqual(['Yoga'])
  })
})

describe("POST /api/invoices/ BOO and the event's limits", () => {
  test('a full event, a closed one and a retired type are refused on the line, nothing written', async () => {
    const yoga = await makeEventType(t.db, { name: 'Yoga', gym_id: t.seed.gym.id })
    const full = await makeEvent(t.db, { event_type_id: yoga.id, gym_id: t.seed.gym.id, capacity: 1 })
    const other = await makeCustomer(t.db, { first_name: 'Alex' })
    await makeReservation(t.db, { event_id: full.id, customer_id: other.id })
    // The test clock is 15:04:05Z: an event that started at 14:00Z closed at 14:15Z.
    const closed = await makeEvent(t.db, {
      event_type_id: yoga.id,
      gym_id: t.seed.gym.id,
      start_at: '2026-11-22T14:00:00.000Z',
      end_at: '2026-11-22T15:30:00.000Z',
    })
    const retiredType = await makeEventType(t.db, { name: 'Old', gym_id: t.seed.gym.id, status: 'RET' })
    const retired = await makeEvent(t.db, { event_type_id: retiredType.id, gym_id: t.seed.gym.id })
    const before = await countRows(t.db, 'invoices')
    for (const [event, message] of [
      [full, 'The event is full.'],
      [closed, 'Booking for this event has closed.'],
      [retired, "This event's type is retired."],
    ] as const) {
      const res = await post({
        customer_id: customer.id,
        line_items: [{ purchase_type: 'BOO', event_id: event.id }],
      })
      expect(res.status).toBe(400)
      expect(res.body).toEqual({ line_items: [{ event_id: [message] }] })
    }
    expect(await countRows(t.db, 'invoices')).toBe(before)
    expect(await countRows(t.db, 'reservations')).toBe(1)
  })
})

describe('POST /api/invoices/ event vouchers', () => {
  test('EVV issues one voucher of the event type with a use per quantity, at the price the desk gives', async () => {
    const yoga = await makeEventType(t.db, { name: 'Yoga', gym_id: t.seed.gym.id })
    const res = await post({
      customer_id: customer.id,
      line_items: [
        {
          purchase_type: 'EVV',
          event_type_id: yoga.id,
          unit_price: '18.00',
          quantity: 3,
          tax_rate_id: retail.id,
          revenue_account_code: '4200',
        },
      ],
    })
    expect(res.status).toBe(201)
    const vouchers = await t.db
      .selectFrom('customer_event_vouchers')
      .select([
        'id',
        'customer_id',
        'event_type_id',
        'number_of_uses_total',
        'number_of_uses_remaining',
        'expiry_date',
        'is_removed',
        'created_by_id',
      ])
      .execute()
    // an event type has no validity of its own: the voucher never expires
    expect(vouchers).toEqual([
      {
        id: expect.any(Number),
        customer_id: customer.id,
        event_type_id: yoga.id,
        number_of_uses_total: 3,
        number_of_uses_remaining: 3,
        expiry_date: null,
        is_removed: 0,
        created_by_id: staff.members.id,
      },
    ])
    // 3 x 18.00 = 54.00; 5% is 2.70
    expect(res.body).toMatchObject({ subtotal: '54.00', tax_total: '2.70', total: '56.70' })
    expect(res.body.line_items).toEqual([
      {
        id: res.body.line_items[0].id,
        purchase_type: 'EVV',
        description: 'Yoga',
        quantity: 3,
        unit_price: '18.00',
        discount_amount: '0.00',
        net_amount: '54.00',
        tax_rate_id: retail.id,
        tax_rate: '0.0500',
        tax_amount: '2.70',
        total: '56.70',
        revenue_account_code: '4200',
        membership_id: null,
        customer_membership_id: null,
        entry_pass_id: null,
        event_id: null,
        voucher_pack_id: null,
        reservation_id: null,
        customer_event_voucher_id: vouchers[0]!.id,
        gift_code: null,
        customer_entry_pass_ids: [],
        period_start: null,
      },
    ])
  })

  test('EVV needs an active event type and a price, and a customer', async () => {
    const retired = await makeEventType(t.db, { name: 'Old yoga', status: 'RET', gym_id: t.seed.gym.id })
    const res = await post({
      line_items: [
        { purchase_type: 'EVV' },
        { purchase_type: 'EVV', event_type_id: 999, unit_price: '18.00' },
        { purchase_type: 'EVV', event_type_id: retired.id, unit_price: '18.00' },
      ],
    })
    expect(res.body).toEqual({
      line_items: [
        { event_type_id: required, unit_price: required },
        { event_type_id: doesNotExist(999) },
        { event_type_id: ['Only an active product can be sold.'] },
      ],
    })
    const yoga = await makeEventType(t.db, { name: 'Yoga', gym_id: t.seed.gym.id })
    const anonymous = await post({
      line_items: [{ purchase_type: 'EVV', event_type_id: yoga.id, unit_price: '18.00' }],
    })
    expect(anonymous.body).toEqual({
      customer_id: [
        'Choose a customer: memberships, entry passes, bookings and vouchers are sold to someone.',
      ],
    })
  })
})

describe('POST /api/invoices/ memberships', () => {
  const membershipOf = (id: number) =>
    t.db.selectFrom('customer_memberships').selectAll().where('id', '=', id).executeTakeFirstOrThrow()
  const historyOf = (id: number) =>
    t.db
      .selectFrom('membership_status_changes')
      .select(['from_status', 'to_status', 'changed_on'])
      .where('customer_membership_id', '=', id)
      .orderBy('id')
      .execute()

  test('MIN starts a membership owned and held by the customer, ACT when paid', async () => {
    const monthly = await makeMembershipType(t.db, { revenue_account_code: '4000' })
    const res = await post({
      customer_id: customer.id,
      line_items: [{ purchase_type: 'MIN', membership_id: monthly.id, start_date: '2026-11-24' }],
      payments: [{ payment_type: 'OFF', amount: '65.00' }],
    })
    expect(res.status).toBe(201)
    const line = res.body.line_items[0]
    expect(line).toMatchObject({
      purchase_type: 'MIN',
      description: 'Monthly Adult',
      unit_price: '65.00',
      total: '65.00',
      revenue_account_code: '4000',
      membership_id: monthly.id,
    })
    const membership = await membershipOf(line.customer_membership_id)
    expect(membership).toMatchObject({
      membership_type_id: monthly.id,
      owner_id: customer.id,
      status: 'ACT',
      start_date: '2026-11-24',
      // the sale pays the first month: the next bill is a month after the start
      end_date: '2026-12-24',
      billing_amount_cents: 6500,
      billing_location_id: t.seed.gym.id,
    })
    const members = await t.db.selectFrom('membership_members').select('customer_id').execute()
    expect(members).toEqual([{ customer_id: customer.id }])
    expect(await historyOf(membership.id)).toEqual([
      { from_status: null, to_status: 'ACT', changed_on: '2026-11-22' },
    ])
  })

  test('MIN with member_ids covers the listed customers of a group type', async () => {
    const family = await makeMembershipType(t.db, { name: 'Family', is_group: 1, price_cents: 12000 })
    const kid = await makeCustomer(t.db, { first_name: 'Kim' })
    const res = await post({
      customer_id: customer.id,
      line_items: [
        {
          purchase_type: 'MIN',
          membership_id: family.id,
          start_date: '2026-11-24',
          member_ids: [customer.id, kid.id],
        },
      ],
    })
    expect(res.status).toBe(201)
    const members = await t.db
      .selectFrom('membership_members')
      .select(['customer_membership_id', 'customer_id'])
      .orderBy('id')
      .execute()
    const membershipId = res.body.line_items[0].customer_membership_id
    expect(members).toEqual([
      { customer_membership_id: membershipId, customer_id: customer.id },
      { customer_membership_id: membershipId, customer_id: kid.id },
    ])
    expect(await membershipOf(membershipId)).toMatchObject({
      owner_id: customer.id,
      billing_amount_cents: 12000,
    })
  })

  test('MIN member_ids are refused as /api/customer-memberships/ refuses them', async () => {
    const monthly = await makeMembershipType(t.db)
    const family = await makeMembershipType(t.db, { name: 'Family', is_group: 1, price_cents: 12000 })
    const kid = await makeCustomer(t.db, { first_name: 'Kim' })
    const line = (membershipId: number, memberIds: unknown) => ({
      purchase_type: 'MIN',
      membership_id: membershipId,
      start_date: '2026-11-24',
      member_ids: memberIds,
    })
    const res = await post({
      customer_id: customer.id,
      line_items: [
        line(monthly.id, [customer.id, kid.id]),
        line(monthly.id, [kid.id]),
        line(family.id, []),
        line(family.id, [kid.id, kid.id, 999]),
        line(family.id, 'x'),
        line(monthly.id, [customer.id]),
      ],
    })
    const solo = ['This membership type is not a group type: it covers exactly its owner.']
    expect(res.body).toEqual({
      line_items: [
        { member_ids: solo },
        { member_ids: solo },
        { member_ids: ['This list may not be empty.'] },
        { member_ids: [`Customer ${kid.id} is listed more than once.`, ...doesNotExist(999)] },
        { member_ids: ['Expected a list of items but got type "str".'] },
        {},
      ],
    })
    expect(await t.db.selectFrom('customer_memberships').select('id').execute()).toEqual([])
  })

  test('MIN needs a start date and an active type, and only one of it', async () => {
    const retired = await makeMembershipType(t.db, { status: 'RET' })
    const res = await post({
      customer_id: customer.id,
      line_items: [{ purchase_type: 'MIN', membership_id: retired.id, quantity: 2 }],
    })
    expect(res.body).toEqual({
      line_items: [
        {
          membership_id: ['Only an active product can be sold.'],
          start_date: required,
          quantity: ['Ensure this value is less than or equal to 1.'],
        },
      ],
    })
  })

  test('paid at the terminal: IPP while processing; a failure leaves it IPP, completing makes it ACT', async () => {
    const monthly = await makeMembershipType(t.db)
    const sale = async () => {
      const res = await post({
        customer_id: customer.id,
        line_items: [{ purchase_type: 'MIN', membership_id: monthly.id, start_date: '2026-11-22' }],
        payments: [{ payment_type: 'STR', payment_method_type: 'CRD', amount: '65.00', status: 'PRO' }],
      })
      return {
        membershipId: res.body.line_items[0].customer_membership_id,
        paymentId: res.body.payments[0].id,
      }
    }
    const failed = await sale()
    expect((await membershipOf(failed.membershipId)).status).toBe('IPP')
    await t.request('POST', `/api/payments/${failed.paymentId}/fail/`, {
      token: staff.members.token,
      body: { failure_message: 'Card declined' },
    })
    expect((await membershipOf(failed.membershipId)).status).toBe('IPP')

    const paid = await sale()
    t.clock.set('2026-11-23T16:00:00.000Z')
    const res = await t.request('POST', `/api/payments/${paid.paymentId}/complete/`, {
      token: staff.members.token,
    })
    expect(res.status).toBe(200)
    expect((await membershipOf(paid.membershipId)).status).toBe('ACT')
    expect(await historyOf(paid.membershipId)).toEqual([
      { from_status: null, to_status: 'IPP', changed_on: '2026-11-22' },
      { from_status: 'IPP', to_status: 'ACT', changed_on: '2026-11-23' },
    ])
  })
})
