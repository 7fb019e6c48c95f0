import { describe, expect, test } from 'bun:test'
import { ONE_MINUTE_LATER, ORIGIN, START } from '../../helpers/app.ts'
import {
  blank,
  doesNotExist,
  invalidChoice,
  invalidInteger,
  invalidNumber,
  maxLength,
  minValue,
  onePage,
  required,
} from '../../helpers/bodies.ts'
import { makeCustomer } from '../../helpers/customer-factories.ts'
import { countRows } from '../../helpers/factories.ts'
import { makeCustomerEntryPass, makeEntryPassType, makeTaxRate } from '../../helpers/product-factories.ts'
import {
  expectEachForbidden,
  expectEachNotAllowed,
  expectEachNotFound,
  type RefusedPost,
  testEachNeedsToken,
  testEachRefusedPost,
  useSeededApp,
  useStaff,
} from '../../helpers/seeded.ts'

const t = useSeededApp()
/** Every can_* flag but not an organization admin: product types are admin-only. */
const staff = useStaff(t, 'allButAdmin')

const PATH = '/api/entry-passes/'
const count = () => countRows(t.db, 'entry_pass_types')

function typeBody(id: number, fields: Record<string, unknown> = {}) {
  return {
    id,
    url: `${ORIGIN}/api/entry-passes/${id}/`,
    name: '10-Punch Card',
    status: 'ACT',
    number_of_entries: 10,
    valid_days: 365,
    price: '150.00',
    tax_rate_id: null,
    revenue_account_code: '',
    created_at: START,
    updated_at: START,
    ...fields,
  }
}

const valid = () => ({ name: 'Day Pass', status: 'ACT', number_of_entries: 1 })

describe('/api/entry-passes/ 401', () => {
  const routes = [
    ['GET', PATH],
    ['GET', `${PATH}1/`],
    ['POST', PATH],
    ['PUT', `${PATH}1/`],
    ['PATCH', `${PATH}1/`],
  ] as const
  testEachNeedsToken(t, routes, valid())
})

describe('/api/entry-passes/ 400', () => {
  const post = (body: unknown) => t.request('POST', PATH, { token: t.seed.adminToken, body })

  test('an empty body reports name, status and number_of_entries', async () => {
    const res = await post({})
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ name: required, status: required, number_of_entries: required })
    expect(await count()).toBe(0)
  })

  const cases: RefusedPost[] = [
    ['a blank name', { name: '' }, { name: blank }],
    ['status LIVE', { status: 'LIVE' }, { status: invalidChoice('LIVE') }],
    ['number_of_entries 0', { number_of_entries: 0 }, { number_of_entries: minValue(1) }],
    ['number_of_entries "ten"', { number_of_entries: 'ten' }, { number_of_entries: invalidInteger }],
    ['valid_days 0', { valid_days: 0 }, { valid_days: minValue(1) }],
    ['price -1', { price: '-1' }, { price: minValue(0) }],
    ['price "ten"', { price: 'ten' }, { price: invalidNumber }],
    ['tax_rate_id 99 (no such tax rate)', { tax_rate_id: 99 }, { tax_rate_id: doesNotExist(99) }],
    [
      'a revenue_account_code of 65 characters',
      { revenue_account_code: '4'.repeat(65) },
      { revenue_account_code: maxLength(64) },
    ],
  ]
  testEachRefusedPost(cases, { post, count, base: valid })

  test('every failing field in one body; a refused PATCH changes nothing', async () => {
    const res = await post({ name: '', status: 'X', number_of_entries: 0, valid_days: 0, price: 'x' })
    expect(res.body).toEqual({
      name: blank,
      status: invalidChoice('X'),
      number_of_entries: minValue(1),
      valid_days: minValue(1),
      price: invalidNumber,
    })
    const type = await makeEntryPassType(t.db)
    const patch = await t.request('PATCH', `${PATH}${type.id}/`, {
      token: t.seed.adminToken,
      body: { name: 'Renamed', number_of_entries: 0 },
    })
    expect(patch.status).toBe(400)
    expect(patch.body).toEqual({ number_of_entries: minValue(1) })
    const read = await t.request('GET', `${PATH}${type.id}/`, { token: t.seed.staffToken })
    expect(read.body).toEqual(typeBody(type.id))
  })
})

describe('/api/entry-passes/ 403, 404 and 405', () => {
  test('staff users without admin cannot write', async () => {
    const type = await makeEntryPassType(t.db)
    await expectEachForbidden(
      t,
      [t.seed.staffToken, staff.allButAdmin.token],
      [
        ['POST', PATH, valid()],
        ['PUT', `${PATH}${type.id}/`, valid()],
        ['PATCH', `${PATH}${type.id}/`, valid()],
      ],
    )
    expect(await count()).toBe(1)
  })

  test('unknown ids are 404; DELETE is 405', async () => {
    const calls = ['GET', 'PUT', 'PATCH'].map((method) => [method, `${PATH}999/`, valid()] as const)
    await expectEachNotFound(t, t.seed.adminToken, calls)
    const type = await makeEntryPassType(t.db)
    await expectEachNotAllowed(t, t.seed.adminToken, [['DELETE', `${PATH}${type.id}/`]])
  })
})

describe('/api/entry-passes/ success', () => {
  test('any staff user lists and reads types; status filters as a substring', async () => {
    const punch = await makeEntryPassType(t.db)
    const old = await makeEntryPassType(t.db, { name: 'Old Pass', status: 'RET' })
    const list = await t.request('GET', PATH, { token: t.seed.staffToken })
    expect(list.body).toEqual(
      onePage([typeBody(punch.id), typeBody(old.id, { name: 'Old Pass', status: 'RET' })]),
    )
    const retired = await t.request('GET', `${PATH}?status=re`, { token: t.seed.staffToken })
    expect(retired.body).toEqual(onePage([typeBody(old.id, { name: 'Old Pass', status: 'RET' })]))
    const read = await t.request('GET', `${PATH}${punch.id}/`, { token: t.seed.staffToken })
    expect(read.body).toEqual(typeBody(punch.id))
  })

  test('POST with the required fields: no expiry, free', async () => {
    const res = await t.request('POST', PATH, { token: t.seed.adminToken, body: valid() })
    expect(res.status).toBe(201)
    expect(res.body).toEqual(
      typeBody(res.body.id, { name: 'Day Pass', number_of_entries: 1, valid_days: null, price: '0.00' }),
    )
  })

  test('PUT and PATCH change the type, not the passes already issued', async () => {
    const type = await makeEntryPassType(t.db)
    const owner = await makeCustomer(t.db)
    const held = await makeCustomerEntryPass(t.db, { entry_pass_type_id: type.id, owner_id: owner.id })
    const taxRate = await makeTaxRate(t.db)
    t.clock.advance(60_000)
    const put = await t.request('PUT', `${PATH}${type.id}/`, {
      token: t.seed.adminToken,
      body: {
        name: '5-Punch Card',
        status: 'ACT',
        number_of_entries: 5,
        valid_days: null,
        price: 80,
        tax_rate_id: taxRate.id,
        revenue_account_code: '4200-PASSES',
      },
    })
    expect(put.status).toBe(200)
    expect(put.body).toEqual(
      typeBody(type.id, {
        name: '5-Punch Card',
        number_of_entries: 5,
        valid_days: null,
        price: '80.00',
        tax_rate_id: taxRate.id,
        revenue_account_code: '4200-PASSES',
        updated_at: ONE_MINUTE_LATER,
      }),
    )
    const patch = await t.request('PATCH', `${PATH}${type.id}/`, {
      token: t.seed.adminToken,
      body: { status: 'RET', valid_days: 30, tax_rate_id: null },
    })
    expect(patch.body).toEqual({ ...put.body, status: 'RET', valid_days: 30, tax_rate_id: null })
    const stored = await t.db
      .selectFrom('customer_entry_passes')
      .select(['entries_total', 'entries_remaining'])
      .where('id', '=', held.id)
      .executeTakeFirstOrThrow()
    expect(stored).toEqual({ entries_total: 10, entries_remaining: 10 })
  })
})
