import { describe, expect, test } from 'bun:test'
import { ONE_MINUTE_LATER, ORIGIN, START } from '../../helpers/app.ts'
import {
  blank,
  invalidBoolean,
  invalidNumber,
  maxDecimalPlaces,
  maxValue,
  minValue,
  notNull,
  onePage,
  required,
} from '../../helpers/bodies.ts'
import { countRows } from '../../helpers/factories.ts'
import { makeTaxRate } from '../../helpers/product-factories.ts'
import {
  listIds,
  type RefusedPost,
  testEachNeedsToken,
  testAdminWrittenNeverDeleted,
  testEachRefusedPost,
  useSeededApp,
  useStaff,
} from '../../helpers/seeded.ts'

const t = useSeededApp()
/** Every can_* flag but not an organization admin: tax rates are admin-written. */
const staff = useStaff(t, 'allButAdmin')

const PATH = '/api/tax-rates/'
const count = () => countRows(t.db, 'tax_rates')
const ids = listIds(t, PATH)

/** The whole record the API answers for the factory's default rate (8.25%). */
function rateBody(id: number, fields: Record<string, unknown> = {}) {
  return {
    id,
    url: `${ORIGIN}/api/tax-rates/${id}/`,
    name: 'Colorado sales tax',
    rate: '0.0825',
    is_active: true,
    created_at: START,
    updated_at: START,
    ...fields,
  }
}

const valid = () => ({ name: 'Boulder county', rate: '0.0386' })

describe('/api/tax-rates/ 401', () => {
  const routes = [
    ['GET', PATH],
    ['GET', `${PATH}1/`],
    ['POST', PATH],
    ['PUT', `${PATH}1/`],
    ['PATCH', `${PATH}1/`],
  ] as const
  testEachNeedsToken(t, routes, valid())
})

describe('/api/tax-rates/ 400', () => {
  const post = (body: unknown) => t.request('POST', PATH, { token: t.seed.adminToken, body })

  test('an empty body reports name and rate', async () => {
    const res = await post({})
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ name: required, rate: required })
    expect(await count()).toBe(0)
  })

  const cases: RefusedPost[] = [
    ['a blank name', { name: '' }, { name: blank }],
    ['rate -0.01', { rate: '-0.01' }, { rate: minValue(0) }],
    ['rate 1 (the whole price)', { rate: '1' }, { rate: maxValue(0.9999) }],
    ['rate 1.5 as a number', { rate: 1.5 }, { rate: maxValue(0.9999) }],
    ['rate with 5 decimal places', { rate: '0.08255' }, { rate: maxDecimalPlaces(4) }],
    [
      'rate 12 (a percentage, not a fraction)',
      { rate: '12' },
      { rate: ['Ensure that there are no more than 1 digits before the decimal point.'] },
    ],
    ['rate "8.25%"', { rate: '8.25%' }, { rate: invalidNumber }],
    ['rate null', { rate: null }, { rate: notNull }],
    ['is_active "x"', { is_active: 'x' }, { is_active: invalidBoolean }],
  ]
  testEachRefusedPost(cases, { post, count, base: valid })

  test('every failing field in one body; a refused PATCH changes nothing', async () => {
    const res = await post({ name: '', rate: '2', is_active: 'x' })
    expect(res.body).toEqual({ name: blank, rate: maxValue(0.9999), is_active: invalidBoolean })
    const rate = await makeTaxRate(t.db)
    const patch = await t.request('PATCH', `${PATH}${rate.id}/`, {
      token: t.seed.adminToken,
      body: { name: 'Renamed', rate: '0.123456' },
    })
    expect(patch.status).toBe(400)
    expect(patch.body).toEqual({ rate: ['Ensure that there are no more than 5 digits in total.'] })
    const read = await t.request('GET', `${PATH}${rate.id}/`, { token: t.seed.staffToken })
    expect(read.body).toEqual(rateBody(rate.id))
  })
})

describe('/api/tax-rates/ 403, 404 and 405', () => {
  testAdminWrittenNeverDeleted(t, {
    path: PATH,
    instead: 'products and sales name a rate: retire it instead',
    allButAdmin: () => staff.allButAdmin,
    make: () => makeTaxRate(t.db),
    body: rateBody,
    valid,
    count,
  })
})

describe('/api/tax-rates/ success', () => {
  test('any staff user lists rates by name and reads one; is_active filters', async () => {
    const state = await makeTaxRate(t.db)
    const old = await makeTaxRate(t.db, {
      name: 'Boulder county (2020)',
      rate_basis_points: 350,
      is_active: 0,
    })
    const zero = await makeTaxRate(t.db, { name: 'Exempt', rate_basis_points: 0 })
    const list = await t.request('GET', PATH, { token: t.seed.staffToken })
    expect(list.body).toEqual(
      onePage([
        rateBody(old.id, { name: 'Boulder county (2020)', rate: '0.0350', is_active: false }),
        rateBody(state.id),
        rateBody(zero.id, { name: 'Exempt', rate: '0.0000' }),
      ]),
    )
    expect(await ids('is_active=true')).toEqual([state.id, zero.id])
    expect(await ids('is_active=FALSE')).toEqual([old.id])
    const read = await t.request('GET', `${PATH}${state.id}/`, { token: t.seed.staffToken })
    expect(read.body).toEqual(rateBody(state.id))
  })

  test('POST keeps the rate exactly: trailing zeros and a number read as the same 4 places', async () => {
    const res = await t.request('POST', PATH, { token: t.seed.adminToken, body: valid() })
    expect(res.status).toBe(201)
    expect(res.body).toEqual(rateBody(res.body.id, { name: 'Boulder county', rate: '0.0386' }))
    const padded = await t.request('POST', PATH, {
      token: t.seed.adminToken,
      body: { name: 'Padded', rate: '0.082500', is_active: false },
    })
    expect(padded.body).toEqual(rateBody(padded.body.id, { name: 'Padded', is_active: false }))
    const number = await t.request('POST', PATH, {
      token: t.seed.adminToken,
      body: { name: 'Number', rate: 0.0729 },
    })
    expect(number.body).toEqual(rateBody(number.body.id, { name: 'Number', rate: '0.0729' }))
    const stored = await t.db.selectFrom('tax_rates').select('rate_basis_points').orderBy('id').execute()
    expect(stored).toEqual([
      { rate_basis_points: 386 },
      { rate_basis_points: 825 },
      { rate_basis_points: 729 },
    ])
  })

  test('PUT and PATCH change the rate; retiring it keeps it on the products that name it', async () => {
    const rate = await makeTaxRate(t.db)
    const pass = await t.request('POST', '/api/entry-passes/', {
      token: t.seed.adminToken,
      body: { name: 'Day Pass', status: 'ACT', number_of_entries: 1, tax_rate_id: rate.id },
    })
    t.clock.advance(60_000)
    const put = await t.request('PUT', `${PATH}${rate.id}/`, {
      token: t.seed.adminToken,
      body: { name: 'Colorado sales tax 2027', rate: '0.09' },
    })
    expect(put.status).toBe(200)
    expect(put.body).toEqual(
      rateBody(rate.id, { name: 'Colorado sales tax 2027', rate: '0.0900', updated_at: ONE_MINUTE_LATER }),
    )
    const patch = await t.request('PATCH', `${PATH}${rate.id}/`, {
      token: t.seed.adminToken,
      body: { is_active: false },
    })
    expect(patch.body).toEqual({ ...put.body, is_active: false })
    const read = await t.request('GET', `/api/entry-passes/${pass.body.id}/`, { token: t.seed.staffToken })
    expect(read.body.tax_rate_id).toBe(rate.id)
  })
})
