import { beforeEach, describe, expect, test } from 'bun:test'
import { ORIGIN, START } from '../../helpers/app.ts'
import { doesNotExist, maxValue, required } from '../../helpers/bodies.ts'
import { makeCustomer } from '../../helpers/customer-factories.ts'
import { emptyPayment } from '../../helpers/sales-factories.ts'
import { makeCustomerMembership, makeMembershipType, makeTaxRate } from '../../helpers/product-factories.ts'
import { useSeededApp, useStaff } from '../../helpers/seeded.ts'
import type { Customer, MembershipStatus, MembershipType } from '../../../src/db/schema.ts'

/*
 * MRE lines of POST /api/invoices/: a renewal of the customer's recurring membership, charging its
 * next bill, moving its next bill date (end_date) on one interval once paid, and settling with its
 * payment when that is still at the terminal. The organization is in Denver; START is Sunday
 * 2026-11-22 08:04:05 there.
 */

const t = useSeededApp()
const staff = useStaff(t, 'members')

const messages = {
  notRecurring: ['Only a recurring membership can be renewed.'],
  notRenewable: ['Only an active membership, or one whose last renewal failed, can be renewed.'],
  paidAhead: (until: string) => [
    `This membership is already paid until ${until}. To pay ahead, name the period: period_start "${until}".`,
  ],
  periodPaid: (until: string) => [`This period is already paid: the membership is paid until ${until}.`],
  periodNotNext: (next: string) => [
    `Periods are paid in order: this membership's next period starts on ${next}.`,
  ],
  keyReused: ['This Idempotency-Key was already used for a different sale.'],
  keyInvalid: ['An Idempotency-Key is 1 to 255 visible ASCII characters.'],
  changed: ['This membership was renewed or changed by another sale or line while this sale was recorded.'],
}

let customer: Customer
let monthly: MembershipType
let colorado: Awaited<ReturnType<typeof makeTaxRate>>
beforeEach(async () => {
  customer = await makeCustomer(t.db)
  colorado = await makeTaxRate(t.db)
  monthly = await makeMembershipType(t.db, { tax_rate_id: colorado.id, revenue_account_code: '4000' })
})

const post = (body: unknown) => t.request('POST', '/api/invoices/', { token: staff.members.token, body })
const settle = (paymentId: number, action: 'complete' | 'fail') =>
  t.request('POST', `/api/payments/${paymentId}/${action}/`, {
    token: staff.members.token,
    body: action === 'fail' ? { failure_message: 'Card declined' } : {},
  })

/** The customer's membership of `monthly` since 31 January, billing 58.50 next on 30 November. */
const membershipOf = (
  fields: {
    status?: MembershipStatus
    start_date?: string
    end_date?: string | null
    owner_id?: number
  } = {},
) =>
  makeCustomerMembership(t.db, {
    membership_type_id: monthly.id,
    owner_id: customer.id,
    start_date: '2026-01-31',
    end_date: '2026-11-30',
    billing_amount_cents: 5850,
    ...fields,
  })

const stateOf = (id: number) =>
  t.db
    .selectFrom('customer_memberships')
    .select(['status', 'end_date'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow()
const historyOf = (id: number) =>
  t.db
    .selectFrom('membership_status_changes')
    .select(['from_status', 'to_status', 'changed_on', 'changed_by_id'])
    .where('customer_membership_id', '=', id)
    .orderBy('id')
    .execute()
/** A sale renewing the membership's period from 30 November, eight days ahead: named, as paying ahead is. */
const renewal = (
  membershipId: number,
  payment: Record<string, unknown> = { payment_type: 'OFF', amount: '63.33' },
) => ({
  customer_id: customer.id,
  line_items: [{ purchase_type: 'MRE', customer_membership_id: membershipId, period_start: '2026-11-30' }],
  payments: [payment],
})

describe('POST /api/invoices/ MRE', () => {
  test("charges the membership's billing amount at its type's tax rate; paid, its next bill date moves one month", async () => {
    const membership = await membershipOf()
    const res = await post(renewal(membership.id))
    expect(res.status).toBe(201)
    const id = res.body.id
    // 58.50 at 8.25% is 4.82625 -> 4.83; 63.33 in all, all paid
    expect(res.body).toEqual({
      id,
      url: `${ORIGIN}/api/invoices/${id}/`,
      customer_id: customer.id,
      location_id: t.seed.gym.id,
      location_name: 'Boulder Barn Downtown',
      staff_user_id: staff.members.id,
      description: '',
      subtotal: '58.50',
      discount_total: '0.00',
      tax_total: '4.83',
      total: '63.33',
      amount_paid: '63.33',
      amount_refunded: '0.00',
      balance_due: '0.00',
      discounts: [],
      line_items: [
        {
          id: res.body.line_items[0].id,
          purchase_type: 'MRE',
          description: 'Monthly Adult',
          quantity: 1,
          unit_price: '58.50',
          discount_amount: '0.00',
          net_amount: '58.50',
          tax_rate_id: colorado.id,
          tax_rate: '0.0825',
          tax_amount: '4.83',
          total: '63.33',
          revenue_account_code: '4000',
          membership_id: monthly.id,
          customer_membership_id: membership.id,
          entry_pass_id: null,
          event_id: null,
          voucher_pack_id: null,
          reservation_id: null,
          customer_event_voucher_id: null,
          gift_code: null,
          customer_entry_pass_ids: [],
          period_start: '2026-11-30',
        },
      ],
      payments: [{ ...emptyPayment, id: res.body.payments[0].id, amount: '63.33' }],
      refunds: [],
      created_at: START,
      updated_at: START,
    })
    // It started on the 31st: November's bill fell on the 30th, December's is on the 31st again.
    expect(await stateOf(membership.id)).toEqual({ status: 'ACT', end_date: '2026-12-31' })
    // ACT stays ACT: no status change to record
    expect(await historyOf(membership.id)).toHaveLength(1)
  })

  test('a PAF membership renewed is ACT again, with its history row', async () => {
    const membership = await membershipOf({ status: 'PAF' })
    expect((await post(renewal(membership.id))).status).toBe(201)
    expect(await stateOf(membership.id)).toEqual({ status: 'ACT', end_date: '2026-12-31' })
    expect((await historyOf(membership.id)).slice(1)).toEqual([
      { from_status: 'PAF', to_status: 'ACT', changed_on: '2026-11-22', changed_by_id: staff.members.id },
    ])
  })

  test('unit_price overrides the billing amount; with no next bill date on record it bills from its start', async () => {
    const membership = await membershipOf({ end_date: null })
    const res = await post({
      customer_id: customer.id,
      line_items: [{ purchase_type: 'MRE', customer_membership_id: membership.id, unit_price: '40.00' }],
    })
    // 40.00 at 8.25% is 3.30; nothing paid yet, a balance due, and still the renewal is recorded
    expect(res.body).toMatchObject({ total: '43.30', amount_paid: '0.00', balance_due: '43.30' })
    expect(await stateOf(membership.id)).toEqual({ status: 'ACT', end_date: '2026-02-28' })
  })

  test('paid at the terminal: PPR with the date unmoved; completing moves it and makes it ACT', async () => {
    const membership = await membershipOf({ status: 'PAF' })
    const res = await post(renewal(membership.id, { payment_type: 'STR', amount: '63.33', status: 'PRO' }))
    expect(res.status).toBe(201)
    expect(await stateOf(membership.id)).toEqual({ status: 'PPR', end_date: '2026-11-30' })
    t.clock.set('2026-11-23T16:00:00.000Z')
    expect((await settle(res.body.payments[0].id, 'complete')).status).toBe(200)
    expect(await stateOf(membership.id)).toEqual({ status: 'ACT', end_date: '2026-12-31' })
    expect((await historyOf(membership.id)).slice(1)).toEqual([
      { from_status: 'PAF', to_status: 'PPR', changed_on: '2026-11-22', changed_by_id: staff.members.id },
      { from_status: 'PPR', to_status: 'ACT', changed_on: '2026-11-23', changed_by_id: staff.members.id },
    ])
  })

  test('a renewal whose payment fails leaves the membership PAF, its date unmoved', async () => {
    const membership = await membershipOf()
    const res = await post(renewal(membership.id, { payment_type: 'STR', amount: '63.33', status: 'PRO' }))
    t.clock.set('2026-11-23T16:00:00.000Z')
    const failed = await settle(res.body.payments[0].id, 'fail')
    expect(failed.status).toBe(200)
    expect(failed.body.payments[0]).toMatchObject({ status: 'FAI', failure_message: 'Card declined' })
    expect(await stateOf(membership.id)).toEqual({ status: 'PAF', end_date: '2026-11-30' })
    expect((await historyOf(membership.id)).slice(1)).toEqual([
      { from_status: 'ACT', to_status: 'PPR', changed_on: '2026-11-22', changed_by_id: staff.members.id },
      { from_status: 'PPR', to_status: 'PAF', changed_on: '2026-11-23', changed_by_id: staff.members.id },
    ])
    // PAF can be renewed again, and this time it is paid
    expect((await post(renewal(membership.id))).status).toBe(201)
    expect(await stateOf(membership.id)).toEqual({ status: 'ACT', end_date: '2026-12-31' })
  })
})

describe('POST /api/invoices/ MRE 400', () => {
  test("only the customer's own recurring membership, in a status that can be renewed, once", async () => {
    const other = await makeCustomer(t.db, { first_name: 'Alex' })
    const prepaid = await makeMembershipType(t.db, { name: 'Ten weeks', purchase_type: 'PRE', interval: '' })
    const theirs = await membershipOf({ owner_id: other.id })
    const notRecurring = await makeCustomerMembership(t.db, {
      membership_type_id: prepaid.id,
      owner_id: customer.id,
    })
    const refused: MembershipStatus[] = ['IPP', 'PPR', 'FRZ', 'FPR', 'FPF', 'PAY', 'IPC', 'CAN', 'END', 'DEN']
    const byStatus = []
    for (const status of refused) byStatus.push(await membershipOf({ status }))
    const active = await membershipOf()
    const res = await post({
      customer_id: customer.id,
      line_items: [
        { purchase_type: 'MRE' },
        { purchase_type: 'MRE', customer_membership_id: 999 },
        { purchase_type: 'MRE', customer_membership_id: theirs.id },
        { purchase_type: 'MRE', customer_membership_id: notRecurring.id },
        ...byStatus.map((membership) => ({ purchase_type: 'MRE', customer_membership_id: membership.id })),
        { purchase_type: 'MRE', customer_membership_id: active.id, period_start: '2026-11-30', quantity: 2 },
      ],
    })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({
      line_items: [
        { customer_membership_id: required },
        { customer_membership_id: doesNotExist(999) },
        { customer_membership_id: doesNotExist(theirs.id) },
        { customer_membership_id: messages.notRecurring },
        ...refused.map(() => ({ customer_membership_id: messages.notRenewable })),
        { quantity: maxValue(1) },
      ],
    })
  })

  test('an anonymous sale has no membership to renew', async () => {
    const membership = await membershipOf()
    const res = await post({ line_items: [{ purchase_type: 'MRE', customer_membership_id: membership.id }] })
    expect(res.body).toEqual({ line_items: [{ customer_membership_id: doesNotExist(membership.id) }] })
  })

  test('two lines renewing one membership are refused, and nothing is recorded', async () => {
    const membership = await membershipOf()
    const line = { purchase_type: 'MRE', customer_membership_id: membership.id, period_start: '2026-11-30' }
    const res = await post({ customer_id: customer.id, line_items: [line, line] })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ line_items: [{}, { customer_membership_id: messages.changed }] })
    expect(await stateOf(membership.id)).toEqual({ status: 'ACT', end_date: '2026-11-30' })
    expect(await t.db.selectFrom('invoices').select('id').execute()).toEqual([])
  })
})

describe('POST /api/invoices/ MRE sent twice: one period, paid once', () => {
  /** A renewal line as a client sends it, with no period named unless given. */
  const renewalOf = (membershipId: number, line: Record<string, unknown> = {}) => ({
    customer_id: customer.id,
    line_items: [{ purchase_type: 'MRE', customer_membership_id: membershipId, ...line }],
    payments: [{ payment_type: 'OFF', amount: '63.33' }],
  })
  const invoiceCount = async () => (await t.db.selectFrom('invoices').select('id').execute()).length
  const renewalLines = (membershipId: number) =>
    t.db
      .selectFrom('invoice_line_items')
      .select('period_start')
      .where('customer_membership_id', '=', membershipId)
      .execute()

  test('without period_start the period due is paid: its bill date is today or past', async () => {
    // Billed on the 22nd, today, and, a month behind, on the 31st of October.
    const dueToday = await membershipOf({ start_date: '2026-01-22', end_date: '2026-11-22' })
    const overdue = await membershipOf({ status: 'PAF', end_date: '2026-10-31' })
    const res = await post(renewalOf(dueToday.id))
    expect(res.status).toBe(201)
    expect(res.body.line_items[0].period_start).toBe('2026-11-22')
    expect(await stateOf(dueToday.id)).toEqual({ status: 'ACT', end_date: '2026-12-22' })
    expect((await post(renewalOf(overdue.id))).body.line_items[0].period_start).toBe('2026-10-31')
    expect(await stateOf(overdue.id)).toEqual({ status: 'ACT', end_date: '2026-11-30' })
  })

  test('a membership paid until a later day has paid the period due: refused unless the next period is named', async () => {
    const membership = await membershipOf()
    const res = await post(renewalOf(membership.id))
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ line_items: [{ customer_membership_id: messages.paidAhead('2026-11-30') }] })
    expect(await invoiceCount()).toBe(0)
    expect(await stateOf(membership.id)).toEqual({ status: 'ACT', end_date: '2026-11-30' })
  })

  test('a named period must be the next one: one already paid, or one after it, is refused', async () => {
    const membership = await membershipOf()
    const res = await post({
      customer_id: customer.id,
      line_items: [
        { purchase_type: 'MRE', customer_membership_id: membership.id, period_start: '2026-10-31' },
        { purchase_type: 'MRE', customer_membership_id: membership.id, period_start: '2026-12-31' },
      ],
    })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({
      line_items: [
        { period_start: messages.periodPaid('2026-11-30') },
        { period_start: messages.periodNotNext('2026-11-30') },
      ],
    })
    expect(await invoiceCount()).toBe(0)
  })

  test('the same renewal a minute later is refused at its line, with or without its period named', async () => {
    const due = await membershipOf({ end_date: '2026-10-31' })
    const ahead = await membershipOf()
    expect((await post(renewalOf(due.id))).status).toBe(201)
    expect((await post(renewalOf(ahead.id, { period_start: '2026-11-30' }))).status).toBe(201)
    t.clock.advance(60_000)
    const again = await post(renewalOf(due.id))
    expect(again.status).toBe(400)
    expect(again.body).toEqual({ line_items: [{ customer_membership_id: messages.paidAhead('2026-11-30') }] })
    const aheadAgain = await post(renewalOf(ahead.id, { period_start: '2026-11-30' }))
    expect(aheadAgain.status).toBe(400)
    expect(aheadAgain.body).toEqual({ line_items: [{ period_start: messages.periodPaid('2026-12-31') }] })
    expect(await invoiceCount()).toBe(2)
    expect(await stateOf(due.id)).toEqual({ status: 'ACT', end_date: '2026-11-30' })
    expect(await stateOf(ahead.id)).toEqual({ status: 'ACT', end_date: '2026-12-31' })
  })

  test('twenty sent at the same instant: one is recorded, the date moves once, the rest are refused at the line', async () => {
    const due = await membershipOf({ end_date: '2026-10-31' })
    const ahead = await membershipOf()
    for (const [membership, line, movedTo] of [
      [due, {}, '2026-11-30'],
      [ahead, { period_start: '2026-11-30' }, '2026-12-31'],
    ] as const) {
      const answers = await Promise.all(
        Array.from({ length: 20 }, () => post(renewalOf(membership.id, line))),
      )
      expect(answers.filter((res) => res.status === 201)).toHaveLength(1)
      const refused = answers.filter((res) => res.status !== 201)
      expect(refused).toHaveLength(19)
      for (const res of refused) {
        expect(res.status).toBe(400)
        expect(Object.keys(res.body)).toEqual(['line_items'])
      }
      expect(await stateOf(membership.id)).toEqual({ status: 'ACT', end_date: movedTo })
      expect(await historyOf(membership.id)).toHaveLength(1)
      expect(await renewalLines(membership.id)).toEqual([{ period_start: membership.end_date }])
    }
    expect(await invoiceCount()).toBe(2)
  })
})

describe('POST /api/invoices/ with an Idempotency-Key', () => {
  const sale = (membershipId: number) => ({
    customer_id: customer.id,
    line_items: [{ purchase_type: 'MRE', customer_membership_id: membershipId, period_start: '2026-11-30' }],
    payments: [{ payment_type: 'OFF', amount: '63.33' }],
  })
  const postWithKey = (body: unknown, key: string, token = staff.members.token) =>
    t.request('POST', '/api/invoices/', { token, body, headers: { 'idempotency-key': key } })
  const invoiceIds = async () =>
    (await t.db.selectFrom('invoices').select('id').orderBy('id').execute()).map((r) => r.id)

  test('a retry with the same key is recorded once and answered with the first sale', async () => {
    const membership = await membershipOf()
    const first = await postWithKey(sale(membership.id), 'b3f1c2a4-0001')
    expect(first.status).toBe(201)
    expect(first.headers.get('idempotent-replayed')).toBeNull()
    t.clock.advance(60_000)
    const retry = await postWithKey(sale(membership.id), 'b3f1c2a4-0001')
    expect(retry.status).toBe(201)
    expect(retry.headers.get('idempotent-replayed')).toBe('true')
    expect(retry.body).toEqual(first.body)
    expect(await invoiceIds()).toEqual([first.body.id])
    expect(await stateOf(membership.id)).toEqual({ status: 'ACT', end_date: '2026-12-31' })
  })

  test('ten at the same instant with one key: one sale, each answered with it', async () => {
    const membership = await membershipOf()
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => postWithKey(sale(membership.id), 'double-click-7')),
    )
    expect(answers.map((res) => res.status)).toEqual(Array(10).fill(201))
    const ids = await invoiceIds()
    expect(ids).toHaveLength(1)
    for (const res of answers) expect(res.body).toEqual(answers[0]!.body)
    expect(answers[0]!.body.id).toBe(ids[0])
    expect(await stateOf(membership.id)).toEqual({ status: 'ACT', end_date: '2026-12-31' })
  })

  test('the same key with another sale is refused; another user may use the key for their own sale', async () => {
    const membership = await membershipOf()
    const other = await membershipOf()
    expect((await postWithKey(sale(membership.id), 'key-1')).status).toBe(201)
    const reused = await postWithKey(sale(other.id), 'key-1')
    expect(reused.status).toBe(400)
    expect(reused.body).toEqual({ 'Idempotency-Key': messages.keyReused })
    expect(await stateOf(other.id)).toEqual({ status: 'ACT', end_date: '2026-11-30' })
    const theirs = await postWithKey(sale(other.id), 'key-1', t.seed.adminToken)
    expect(theirs.status).toBe(201)
    expect(await invoiceIds()).toHaveLength(2)
  })

  test('a key that is empty, too long or not visible ASCII is refused, and nothing is recorded', async () => {
    const membership = await membershipOf()
    for (const key of ['', 'x'.repeat(256), 'with space', 'clé']) {
      const res = await postWithKey(sale(membership.id), key)
      expect(res.status).toBe(400)
      expect(res.body).toEqual({ 'Idempotency-Key': messages.keyInvalid })
    }
    expect(await invoiceIds()).toEqual([])
  })
})
