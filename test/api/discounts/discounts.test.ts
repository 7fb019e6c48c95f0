import { describe, expect, test } from 'bun:test'
import { ONE_MINUTE_LATER, ORIGIN, START } from '../../helpers/app.ts'
import {
  blank,
  invalidBoolean,
  invalidInteger,
  invalidNumber,
  maxDecimalPlaces,
  maxLength,
  maxValue,
  minValue,
  onePage,
  required,
} from '../../helpers/bodies.ts'
import { countRows } from '../../helpers/factories.ts'
import { makeDiscount } from '../../helpers/product-factories.ts'
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
/** Every can_* flag but not an organization admin: discounts are admin-written. */
const staff = useStaff(t, 'allButAdmin')

const PATH = '/api/discounts/'
const count = () => countRows(t.db, 'discounts')
const ids = listIds(t, PATH)

const codeTaken = ['discount with this code already exists.']
const oneKind = { non_field_errors: ['Set exactly one of percent_off and amount_off.'] }

function discountBody(id: number, fields: Record<string, unknown> = {}) {
  return {
    id,
    url: `${ORIGIN}/api/discounts/${id}/`,
    code: 'SPRING10',
    name: '',
    display_name: '',
    association_id: null,
    percent_off: '10.00',
    amount_off: null,
    is_active: true,
    created_at: START,
    updated_at: START,
    ...fields,
  }
}

const valid = () => ({ code: 'STUDENT', percent_off: '15' })

describe('/api/discounts/ 401', () => {
  const routes = [
    ['GET', PATH],
    ['GET', `${PATH}1/`],
    ['POST', PATH],
    ['PUT', `${PATH}1/`],
    ['PATCH', `${PATH}1/`],
  ] as const
  testEachNeedsToken(t, routes, valid())
})

describe('/api/discounts/ 400', () => {
  const post = (body: unknown) => t.request('POST', PATH, { token: t.seed.adminToken, body })

  test('an empty body: code is required, and one kind of discount', async () => {
    const res = await post({})
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ code: required, ...oneKind })
    expect(await count()).toBe(0)
  })

  const cases: RefusedPost[] = [
    ['a blank code', { code: '' }, { code: blank }],
    ['a code of 65 characters', { code: 'A'.repeat(65) }, { code: maxLength(64) }],
    ['association_id "x"', { association_id: 'x' }, { association_id: invalidInteger }],
    ['is_active "x"', { is_active: 'x' }, { is_active: invalidBoolean }],
    ['percent_off 0', { percent_off: 0 }, { percent_off: minValue(0.01) }],
    ['percent_off 100.01', { percent_off: '100.01' }, { percent_off: maxValue(100) }],
    ['percent_off with 3 decimal places', { percent_off: '12.125' }, { percent_off: maxDecimalPlaces(2) }],
    ['percent_off "10%"', { percent_off: '10%' }, { percent_off: invalidNumber }],
    ['amount_off 0', { percent_off: null, amount_off: '0.00' }, { amount_off: minValue(0.01) }],
    ['amount_off -5', { percent_off: null, amount_off: -5 }, { amount_off: minValue(0.01) }],
    ['both percent_off and amount_off', { amount_off: '5' }, oneKind],
    ['neither (both null)', { percent_off: null, amount_off: null }, oneKind],
  ]
  testEachRefusedPost(cases, { post, count, base: valid })

  test('a code already taken, in any case, is refused', async () => {
    await makeDiscount(t.db)
    const res = await post({ code: 'spring10', amount_off: '5' })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ code: codeTaken })
    expect(await count()).toBe(1)
  })

  test('two posts of one code at once: one 201, the other the same 400, not a 500', async () => {
    const answers = await Promise.all([
      post({ code: 'RACE5', amount_off: '5' }),
      post({ code: 'race5', amount_off: '5' }),
    ])
    expect(answers.map((res) => res.status).sort()).toEqual([201, 400])
    expect(answers.find((res) => res.status === 400)!.body).toEqual({ code: codeTaken })
    expect(await count()).toBe(1)
  })

  test('PATCH judges the kind on the resulting discount; a refused change stores nothing', async () => {
    const spring = await makeDiscount(t.db)
    await makeDiscount(t.db, { code: 'FALL5', percent_off_hundredths: null, amount_off_cents: 500 })
    for (const [body, errors] of [
      [{ amount_off: '5' }, oneKind],
      [{ percent_off: null }, oneKind],
      [{ code: 'Fall5', name: 'Renamed' }, { code: codeTaken }],
    ] as const) {
      const res = await t.request('PATCH', `${PATH}${spring.id}/`, { token: t.seed.adminToken, body })
      expect(res.status).toBe(400)
      expect(res.body).toEqual(errors)
    }
    const read = await t.request('GET', `${PATH}${spring.id}/`, { token: t.seed.staffToken })
    expect(read.body).toEqual(discountBody(spring.id))
  })
})

describe('/api/discounts/ 403, 404 and 405', () => {
  testAdminWrittenNeverDeleted(t, {
    path: PATH,
    instead: 'retire a discount instead',
    allButAdmin: () => staff.allButAdmin,
    make: () => makeDiscount(t.db),
    body: discountBody,
    valid,
    count,
  })
})

describe('/api/discounts/ success', () => {
  test('any staff user lists discounts by code; code (exact, any case), is_active and search filter', async () => {
    const spring = await makeDiscount(t.db, { name: 'Spring sale', display_name: 'Spring 10% off' })
    const club = await makeDiscount(t.db, {
      code: 'ALPINECLUB',
      name: 'Alpine Club members',
      association_id: 3,
      percent_off_hundredths: 1250,
    })
    const old = await makeDiscount(t.db, {
      code: 'SPRING',
      percent_off_hundredths: null,
      amount_off_cents: 500,
      is_active: 0,
    })
    const list = await t.request('GET', PATH, { token: t.seed.staffToken })
    expect(list.body).toEqual(
      onePage([
        discountBody(club.id, {
          code: 'ALPINECLUB',
          name: 'Alpine Club members',
          association_id: 3,
          percent_off: '12.50',
        }),
        discountBody(old.id, { code: 'SPRING', percent_off: null, amount_off: '5.00', is_active: false }),
        discountBody(spring.id, { name: 'Spring sale', display_name: 'Spring 10% off' }),
      ]),
    )
    expect(await ids('code=spring10')).toEqual([spring.id])
    expect(await ids('code=SPRIN')).toEqual([])
    expect(await ids('is_active=false')).toEqual([old.id])
    expect(await ids('search=spring')).toEqual([old.id, spring.id])
    expect(await ids('search=club alpine')).toEqual([club.id])
    expect(await ids('search=10%25 off')).toEqual([spring.id])
  })

  test('POST with the required fields, and with every field', async () => {
    const res = await t.request('POST', PATH, { token: t.seed.adminToken, body: valid() })
    expect(res.status).toBe(201)
    expect(res.body).toEqual(discountBody(res.body.id, { code: 'STUDENT', percent_off: '15.00' }))
    const body = {
      code: 'Staff-Friend',
      name: 'Friends of staff',
      display_name: 'Friends & family',
      association_id: 12,
      percent_off: null,
      amount_off: 7.5,
      is_active: false,
    }
    const every = await t.request('POST', PATH, { token: t.seed.adminToken, body })
    expect(every.status).toBe(201)
    expect(every.body).toEqual(discountBody(every.body.id, { ...body, amount_off: '7.50' }))
    const read = await t.request('GET', `${PATH}${every.body.id}/`, { token: t.seed.staffToken })
    expect(read.body).toEqual(every.body)
  })

  test('PUT and PATCH; a discount switches kind with the other sent as null, and keeps its own code in a new case', async () => {
    const discount = await makeDiscount(t.db)
    t.clock.advance(60_000)
    const put = await t.request('PUT', `${PATH}${discount.id}/`, {
      token: t.seed.adminToken,
      body: { code: 'Spring10', name: 'Spring sale', percent_off: '100' },
    })
    expect(put.status).toBe(200)
    expect(put.body).toEqual(
      discountBody(discount.id, {
        code: 'Spring10',
        name: 'Spring sale',
        percent_off: '100.00',
        updated_at: ONE_MINUTE_LATER,
      }),
    )
    const patch = await t.request('PATCH', `${PATH}${discount.id}/`, {
      token: t.seed.adminToken,
      body: { percent_off: null, amount_off: '0.01', association_id: 4 },
    })
    expect(patch.status).toBe(200)
    expect(patch.body).toEqual({ ...put.body, percent_off: null, amount_off: '0.01', association_id: 4 })
  })
})
