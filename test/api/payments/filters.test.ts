import { beforeEach, describe, expect, test } from 'bun:test'
import { makeCustomer } from '../../helpers/customer-factories.ts'
import { makeGym, makeToken, makeUser } from '../../helpers/factories.ts'
import { makeInvoice, makePayment } from '../../helpers/sales-factories.ts'
import { expectAnswer, useSeededApp } from '../../helpers/seeded.ts'

// The filters of GET /api/payments/, each with payments that must and must not match. The
// organization is in America/Denver, which leaves daylight time on 2026-11-01 (a 25-hour day).

const t = useSeededApp()
let reports: string
beforeEach(async () => {
  reports = await makeToken(t.db, await makeUser(t.db, { can_access_reports: 1 }))
})

/** The ids the list answers for `query`, in its order. */
async function listed(query: string): Promise<number[]> {
  const res = await t.request('GET', `/api/payments/?${query}`, { token: reports })
  expect({ query, status: res.status }).toEqual({ query, status: 200 })
  return res.body.results.map((row: { id: number }) => row.id)
}

/** A payment on a fresh invoice: the invoice's fields and the payment's. */
async function sale(
  invoice: Partial<Parameters<typeof makeInvoice>[1]> = {},
  payment: Partial<Parameters<typeof makePayment>[1]> = {},
): Promise<number> {
  const { id } = await makeInvoice(t.db, { gym_id: t.seed.gym.id, ...invoice })
  return (await makePayment(t.db, { invoice_id: id, ...payment })).id
}

describe('created_at_min and created_at_max: whole days in the organization’s zone', () => {
  test('the day daylight time ends runs from 06:00 UTC to 07:00 UTC the next day', async () => {
    const before = await sale({}, { at: '2026-11-01T05:59:59.999Z' })
    const first = await sale({}, { at: '2026-11-01T06:00:00.000Z' })
    const last = await sale({}, { at: '2026-11-02T06:59:59.999Z' })
    const after = await sale({}, { at: '2026-11-02T07:00:00.000Z' })

    expect(await listed('created_at_min=2026-11-01&created_at_max=2026-11-01')).toEqual([last, first])
    expect(await listed('created_at_min=2026-11-01')).toEqual([after, last, first])
    expect(await listed('created_at_max=2026-11-01')).toEqual([last, first, before])
    expect(await listed('created_at_min=2026-11-02')).toEqual([after])
  })

  test('a day in daylight time starts at 06:00 UTC', async () => {
    const before = await sale({}, { at: '2026-07-01T05:59:59.999Z' })
    const first = await sale({}, { at: '2026-07-01T06:00:00.000Z' })
    expect(await listed('created_at_min=2026-07-01')).toEqual([first])
    expect(await listed('created_at_max=2026-06-30')).toEqual([before])
  })
})

describe('search', () => {
  test('every space-separated term must match the invoice id or description or the customer’s names or email', async () => {
    const lynn = await makeCustomer(t.db, {
      first_name: 'Lynn',
      last_name: 'Hill',
      preferred_name: 'Lynnie',
      email: 'lynn@crag.example',
    })
    const tommy = await makeCustomer(t.db, {
      first_name: 'Tommy',
      last_name: 'Caldwell',
      email: 'tc@wall.example',
    })
    const lynnPass = await sale({ customer_id: lynn.id, description: 'Ten-visit pass' })
    const lynnChalk = await sale({ customer_id: lynn.id, description: 'Chalk bag' })
    const tommyPass = await sale({ customer_id: tommy.id, description: 'Ten-visit pass' })
    const anonymous = await sale({ description: 'Chalk bag' })

    expect(await listed('search=hill')).toEqual([lynnChalk, lynnPass])
    expect(await listed('search=LYNNIE')).toEqual([lynnChalk, lynnPass])
    expect(await listed('search=crag.example')).toEqual([lynnChalk, lynnPass])
    expect(await listed('search=caldwell')).toEqual([tommyPass])
    expect(await listed('search=chalk')).toEqual([anonymous, lynnChalk])
    expect(await listed('search=lynn%20pass')).toEqual([lynnPass])
    expect(await listed('search=lynn%20nobody')).toEqual([])
    expect(await listed('search=100%25')).toEqual([])
  })

  test('the invoice id matches as text', async () => {
    const invoice = await makeInvoice(t.db, { gym_id: t.seed.gym.id, description: 'Shoes' })
    const other = await makeInvoice(t.db, { gym_id: t.seed.gym.id, description: 'Shoes' })
    const payment = await makePayment(t.db, { invoice_id: invoice.id })
    await makePayment(t.db, { invoice_id: other.id })
    expect(await listed(`search=${invoice.id}%20shoes`)).toEqual([payment.id])
  })

  test('a customer’s new name and email find their earlier sales, and the old ones no longer do', async () => {
    const customer = await makeCustomer(t.db, {
      first_name: 'Lynn',
      last_name: 'Hill',
      email: 'lynn@crag.example',
    })
    const before = await sale({ customer_id: customer.id, description: 'Chalk bag' })
    const res = await t.request('PATCH', `/api/customers/${customer.id}/`, {
      token: t.seed.adminToken,
      body: { first_name: 'Beth', last_name: 'Rodden', preferred_name: 'Bee', email: 'beth@wall.example' },
    })
    expect(res.status).toBe(200)
    const after = await sale({ customer_id: customer.id, description: 'Chalk bag' })

    expect(await listed('search=rodden%20beth')).toEqual([after, before])
    expect(await listed('search=bee')).toEqual([after, before])
    expect(await listed('search=wall.example')).toEqual([after, before])
    expect(await listed('search=hill')).toEqual([])
    expect(await listed('search=lynn')).toEqual([])
  })

  test('%, _, ", * and \\ in a term are only text, however long the term', async () => {
    const percent = await sale({ description: 'Fee 100% off' })
    const underscore = await sale({ description: 'code_a' })
    const quoted = await sale({ description: 'the "Crux" pass' })
    const star = await sale({ description: 'V5* problem' })
    const backslash = await sale({ description: 'path\\to' })
    await sale({ description: 'Fee 1000 off codeXa the Crux pass V55 problem' })

    for (const [term, expected] of [
      ['%', [percent]],
      ['0%', [percent]],
      ['100%', [percent]],
      ['_', [underscore]],
      ['e_a', [underscore]],
      ['"', [quoted]],
      ['"crux"', [quoted]],
      ['crux"', [quoted]],
      ['*', [star]],
      ['V5*', [star]],
      ['\\', [backslash]],
      ['h\\to', [backslash]],
    ] as const)
      expect({ term, ids: await listed(`search=${encodeURIComponent(term)}`) }).toEqual({
        term,
        ids: [...expected],
      })
  })

  test('terms of one or two characters match too, alone or beside longer ones', async () => {
    const lynn = await makeCustomer(t.db, { first_name: 'Lynn', last_name: 'Hill', email: 'lh@crag.example' })
    const al = await makeCustomer(t.db, { first_name: 'Al', last_name: 'Ng', email: 'al@wall.example' })
    const lynnPass = await sale({ customer_id: lynn.id, description: 'Ten-visit pass' })
    const alPass = await sale({ customer_id: al.id, description: 'Ten-visit pass' })
    const alChalk = await sale({ customer_id: al.id, description: 'Chalk' })

    expect(await listed('search=ng')).toEqual([alChalk, alPass])
    expect(await listed('search=AL%20NG')).toEqual([alChalk, alPass])
    expect(await listed('search=ng%20pass')).toEqual([alPass])
    expect(await listed('search=pass%20w')).toEqual([alPass])
    expect(await listed('search=pass%20h')).toEqual([lynnPass])
    expect(await listed('search=pass%20lh')).toEqual([lynnPass])
    expect(await listed('search=pass%20q')).toEqual([])
  })

  test('a term of three or more characters matches letters beyond ASCII in any case', async () => {
    const customer = await makeCustomer(t.db, { first_name: 'Élodie', last_name: 'Østergaard' })
    const theirs = await sale({ customer_id: customer.id })
    expect(await listed('search=élodie')).toEqual([theirs])
    expect(await listed('search=ØSTER')).toEqual([theirs])
    expect(await listed('search=elodie')).toEqual([])
  })
})

describe('payment_method_in and status_in', () => {
  test('payment_method_in: any of the comma-separated payment types', async () => {
    const card = await sale({}, { payment_type: 'STR' })
    const cash = await sale({}, { payment_type: 'OFF' })
    await sale({}, { payment_type: 'CRE' })
    expect(await listed('payment_method_in=STR,OFF')).toEqual([cash, card])
    expect(await listed('payment_method_in=STR')).toEqual([card])
  })

  test('status_in narrows within the listed statuses: PEN and CAN are never listed', async () => {
    const complete = await sale({}, { status: 'COM' })
    const failed = await sale({}, { status: 'FAI' })
    await sale({}, { status: 'PRO' })
    await sale({}, { status: 'PEN' })
    await sale({}, { status: 'CAN' })
    expect(await listed('status_in=COM,FAI')).toEqual([failed, complete])
    expect(await listed('status_in=PEN,CAN')).toEqual([])
    expect(await listed('status_in=COM,PEN')).toEqual([complete])
  })
})

test('amount_min and amount_max are inclusive', async () => {
  const low = await sale({}, { amount_cents: 999 })
  const exact = await sale({}, { amount_cents: 1000 })
  const high = await sale({}, { amount_cents: 1001 })
  expect(await listed('amount_min=10')).toEqual([high, exact])
  expect(await listed('amount_max=10.00')).toEqual([exact, low])
  expect(await listed('amount_min=10.000&amount_max=10')).toEqual([exact])
})

test('discount_association_id: invoices with a discount of that association', async () => {
  const member = await sale({ discounts: [{ code: 'MEMBER', association_id: 7, amount_cents: 100 }] })
  await sale({ discounts: [{ code: 'OTHER', association_id: 8, amount_cents: 100 }] })
  await sale()
  const both = await sale({
    discounts: [
      { code: 'OTHER', association_id: 8, amount_cents: 100 },
      { code: 'MEMBER', association_id: 7, amount_cents: 100 },
    ],
  })
  expect(await listed('discount_association_id=7')).toEqual([both, member])
})

test('location_id: the invoice’s location', async () => {
  const uptown = await makeGym(t.db, { name: 'Uptown' })
  const there = await sale({ gym_id: uptown.id })
  await sale()
  expect(await listed(`location_id=${uptown.id}`)).toEqual([there])
})

test('does_not_have_linked_customer: true for anonymous sales, false for the others', async () => {
  const customer = await makeCustomer(t.db)
  const linked = await sale({ customer_id: customer.id })
  const anonymous = await sale()
  expect(await listed('does_not_have_linked_customer=true')).toEqual([anonymous])
  expect(await listed('does_not_have_linked_customer=False')).toEqual([linked])
})

test('the processor ids match exactly', async () => {
  const a = await sale({}, { processor_a_payment_intent_id: 'pi_123' })
  await sale({}, { processor_a_payment_intent_id: 'pi_1234' })
  const b = await sale({}, { processor_b_external_transaction_id: 'TX-9' })
  await sale({}, { processor_b_external_transaction_id: 'tx-9' })
  expect(await listed('processor_a_payment_intent_id=pi_123')).toEqual([a])
  expect(await listed('processor_b_external_transaction_id=TX-9')).toEqual([b])
})

test('an empty filter is not given', async () => {
  const one = await sale()
  expect(await listed('status_in=&amount_min=&created_at_min=&search=')).toEqual([one])
})

test('bad values are 400 on each parameter, all at once, in the filter set’s order', async () => {
  const query = [
    'created_at_min=2026-13-01',
    'created_at_max=yesterday',
    'payment_method_in=STR,XYZ',
    'amount_min=ten',
    'amount_max=1.005',
    'status_in=COM,DONE',
    'discount_association_id=seven',
    'location_id=1.5',
    'does_not_have_linked_customer=maybe',
  ].join('&')
  const res = await t.request('GET', `/api/payments/?${query}`, { token: reports })
  expectAnswer({}, res, 400, {
    created_at_min: ['Enter a valid date.'],
    created_at_max: ['Enter a valid date.'],
    payment_method_in: ['Select a valid choice. XYZ is not one of the available choices.'],
    amount_min: ['Enter a number.'],
    amount_max: ['Ensure that there are no more than 2 decimal places.'],
    status_in: ['Select a valid choice. DONE is not one of the available choices.'],
    discount_association_id: ['Enter a number.'],
    location_id: ['Enter a number.'],
    does_not_have_linked_customer: ['Must be a valid boolean.'],
  })
})
