import { beforeEach, describe, expect, test } from 'bun:test'
import { ORIGIN, START } from '../helpers/app.ts'
import { doesNotExist, maxValue, required } from '../helpers/bodies.ts'
import { makeCustomer } from '../helpers/customer-factories.ts'
import { emptyPayment } from '../helpers/sales-factories.ts'
import { makeCustomerMembership, makeMembershipType, makeTaxRate } from '../helpers/product-factories.ts'
import { useSeededApp, useStaff } from '../helpers/seeded.ts'
import type { Customer, MembershipStatus, MembershipType } from '../../src/db/schema.ts'

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
  notRenewable: ['Only an active membership (ACT) or one whose renewal failed (PAF) can be renewed.'],
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
  fields: { status?: MembershipStatus; end_date?: string | null; owner_id?: number } = {},
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
const renewal = (
  membershipId: number,
  payment: Record<string, unknown> = { payment_type: 'OFF', amount: '63.33' },
) => ({
  customer_id: customer.id,
  line_items: [{ purchase_type: 'MRE', customer_membership_id: membershipId }],
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
        { purchase_type: 'MRE', customer_membership_id: active.id, quantity: 2 },
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
    const line = { purchase_type: 'MRE', customer_membership_id: membership.id }
    const res = await post({ customer_id: customer.id, line_items: [line, line] })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ line_items: [{}, { customer_membership_id: messages.changed }] })
    expect(await stateOf(membership.id)).toEqual({ status: 'ACT', end_date: '2026-11-30' })
    expect(await t.db.selectFrom('invoices').select('id').execute()).toEqual([])
  })
})
