import { beforeEach, describe, expect, test } from 'bun:test'
import { ONE_MINUTE_LATER, START } from '../../helpers/app.ts'
import { invalidNumber, notFound, required } from '../../helpers/bodies.ts'
import { makeCustomer } from '../../helpers/customer-factories.ts'
import { makeCredit } from '../../helpers/customer-record-factories.ts'
import { expectEachForbidden, testEachNeedsToken, useSeededApp, useStaff } from '../../helpers/seeded.ts'
import type { Customer } from '../../../src/db/schema.ts'

/*
 * The payment actions: complete/ and fail/ settle a processing payment; refund/ gives part or all
 * of a complete one back, on its own date with its own processor fee.
 */

const t = useSeededApp()
/** `members` sells and settles; `allButMembers` holds can_access_reports, so refunds. */
const staff = useStaff(t, 'members', 'allButMembers')

let customer: Customer
beforeEach(async () => {
  customer = await makeCustomer(t.db)
})

const action = (id: number, name: string, body: unknown, token: string) =>
  t.request('POST', `/api/payments/${id}/${name}/`, { token, body })
const refund = (id: number, body: unknown) => action(id, 'refund', body, staff.allButMembers.token)

/** A sale of one 40.00 item paid with `payment`; the new payment's id. */
async function sell(payment: Record<string, unknown>): Promise<number> {
  const res = await t.request('POST', '/api/invoices/', {
    token: staff.members.token,
    body: {
      customer_id: customer.id,
      line_items: [{ purchase_type: 'GEN', description: 'Harness', unit_price: '40.00' }],
      payments: [{ amount: '40.00', ...payment }],
    },
  })
  expect(res.status).toBe(201)
  return res.body.payments[0].id
}

describe('/api/payments/<id>/<action>/ 401, 403, 404', () => {
  testEachNeedsToken(t, [
    ['POST', '/api/payments/1/complete/'],
    ['POST', '/api/payments/1/fail/'],
    ['POST', '/api/payments/1/refund/'],
  ])

  test('complete and fail need can_manage_members; refund needs can_access_reports', async () => {
    const id = await sell({ payment_type: 'STR', status: 'PRO' })
    await expectEachForbidden(
      t,
      [t.seed.staffToken, staff.allButMembers.token],
      [
        ['POST', `/api/payments/${id}/complete/`, {}],
        ['POST', `/api/payments/${id}/fail/`, {}],
      ],
    )
    await expectEachForbidden(
      t,
      [t.seed.staffToken, staff.members.token],
      [['POST', `/api/payments/${id}/refund/`, {}]],
    )
  })

  test('an unknown payment is 404', async () => {
    expect((await action(99, 'complete', {}, staff.members.token)).body).toEqual(notFound)
    expect((await refund(99, { amount: '1.00' })).body).toEqual(notFound)
  })
})

describe('complete/ and fail/', () => {
  test('complete turns a processing payment into a paid one, once', async () => {
    const id = await sell({ payment_type: 'STR', payment_method_type: 'CRD', status: 'PRO' })
    t.clock.advance(60_000)
    const res = await action(id, 'complete', {}, staff.members.token)
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ amount_paid: '40.00', balance_due: '0.00' })
    expect(res.body.payments[0]).toMatchObject({
      id,
      status: 'COM',
      created_at: START,
      updated_at: ONE_MINUTE_LATER,
    })
    const again = await action(id, 'complete', {}, staff.members.token)
    expect(again.status).toBe(400)
    expect(again.body).toEqual({
      non_field_errors: ['Only a processing payment can be completed or failed.'],
    })
  })

  test('fail keeps the failure message and leaves the amount due', async () => {
    const id = await sell({ payment_type: 'STR', status: 'PRO' })
    const res = await action(id, 'fail', { failure_message: 'Card declined' }, staff.members.token)
    expect(res.body).toMatchObject({ amount_paid: '0.00', balance_due: '40.00' })
    expect(res.body.payments[0]).toMatchObject({ status: 'FAI', failure_message: 'Card declined' })
    expect((await action(id, 'complete', {}, staff.members.token)).body).toEqual({
      non_field_errors: ['Only a processing payment can be completed or failed.'],
    })
  })
})

describe('refund/', () => {
  test('partial, then the rest, then one cent too many', async () => {
    const id = await sell({ payment_type: 'OFF', payment_method_type: 'CRD' })
    t.clock.advance(60_000)
    const first = await refund(id, { amount: '15.00', processor_fee: '0.45', reason: 'Wrong size' })
    expect(first.status).toBe(200)
    expect(first.body.payments[0]).toMatchObject({ status: 'PRF', amount: '40.00', amount_refunded: '15.00' })
    expect(first.body.refunds).toEqual([
      {
        id: expect.any(Number),
        payment_id: id,
        amount: '15.00',
        processor_fee: '0.45',
        reason: 'Wrong size',
        created_at: ONE_MINUTE_LATER,
      },
    ])
    expect(first.body).toMatchObject({ amount_paid: '40.00', amount_refunded: '15.00', balance_due: '0.00' })

    const tooMuch = await refund(id, { amount: '25.01' })
    expect(tooMuch.body).toEqual({ amount: ['Ensure this value is less than or equal to 25.00.'] })

    const rest = await refund(id, { amount: 25 })
    expect(rest.body.payments[0]).toMatchObject({ status: 'REF', amount_refunded: '40.00' })
    expect(rest.body.refunds.map((r: { amount: string }) => r.amount)).toEqual(['15.00', '25.00'])

    const more = await refund(id, { amount: '0.01' })
    expect(more.status).toBe(400)
    expect(more.body).toEqual({
      amount: ['Ensure this value is less than or equal to 0.00.'],
      non_field_errors: ['Only a complete or partly refunded payment can be refunded.'],
    })
    expect(await t.db.selectFrom('refunds').select('id').execute()).toHaveLength(2)
  })

  test('the body is checked: amount required, above 0, a number', async () => {
    const id = await sell({ payment_type: 'OFF' })
    expect((await refund(id, {})).body).toEqual({ amount: required })
    // Zero and below are one refusal, in one wording.
    for (const amount of ['0', '-0.00', '-0.01', '-1', -1])
      expect((await refund(id, { amount })).body).toEqual({
        amount: ['Ensure this value is greater than 0.'],
      })
    expect((await refund(id, { amount: 'all' })).body).toEqual({ amount: invalidNumber })
    expect(await t.db.selectFrom('refunds').select('id').execute()).toEqual([])
  })

  test("a refund's processor fee is at most the refund's amount", async () => {
    const id = await sell({ payment_type: 'STR' })
    const res = await refund(id, { amount: '15.00', processor_fee: '15.01' })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({
      processor_fee: ['Ensure this value is less than or equal to the amount (15.00).'],
    })
    expect(await t.db.selectFrom('refunds').select('id').execute()).toEqual([])
    const whole = await refund(id, { amount: '15.00', processor_fee: '15.00' })
    expect(whole.status).toBe(200)
    expect(whole.body.refunds).toMatchObject([{ amount: '15.00', processor_fee: '15.00' }])
  })

  test('a processing payment cannot be refunded', async () => {
    const id = await sell({ payment_type: 'STR', status: 'PRO' })
    expect((await refund(id, { amount: '1.00' })).body).toEqual({
      non_field_errors: ['Only a complete or partly refunded payment can be refunded.'],
    })
  })

  test('refunding a credit payment puts the amount back on the credit', async () => {
    const credit = await makeCredit(t.db, customer.id, {
      amount_total_cents: 5000,
      amount_remaining_cents: 5000,
    })
    const id = await sell({ payment_type: 'CRE', credit_id: credit.id })
    const left = async () =>
      (await t.db.selectFrom('customer_credits').select('amount_remaining_cents').executeTakeFirstOrThrow())
        .amount_remaining_cents
    expect(await left()).toBe(1000)
    await refund(id, { amount: '12.50' })
    expect(await left()).toBe(2250)
  })
})
