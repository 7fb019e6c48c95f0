import { beforeEach, describe, expect, test } from 'bun:test'
import { ONE_MINUTE_LATER, ORIGIN, START } from '../../helpers/app.ts'
import {
  blank,
  doesNotExist,
  invalidChoice,
  invalidInteger,
  invalidNumber,
  maxLength,
  minValue,
  notANumber,
  onePage,
  required,
} from '../../helpers/bodies.ts'
import { countRows, makeEventType } from '../../helpers/factories.ts'
import { makeTaxRate, makeVoucherPack } from '../../helpers/product-factories.ts'
import {
  listIds,
  type RefusedPost,
  testEachNeedsToken,
  testAdminWrittenNeverDeleted,
  testEachRefusedPost,
  useSeededApp,
  useStaff,
} from '../../helpers/seeded.ts'
import type { EventType } from '../../../src/db/schema.ts'

const t = useSeededApp()
/** Every can_* flag but not an organization admin: voucher packs are admin-written. */
const staff = useStaff(t, 'allButAdmin')

const PATH = '/api/voucher-packs/'
const count = () => countRows(t.db, 'voucher_packs')
const ids = listIds(t, PATH)

let yoga: EventType
beforeEach(async () => {
  yoga = await makeEventType(t.db, { name: 'Yoga', gym_id: t.seed.gym.id })
})

/** The factory's pack, of yoga classes unless told. */
const makeYogaPack = (fields: Partial<Parameters<typeof makeVoucherPack>[1]> = {}) =>
  makeVoucherPack(t.db, { event_type_id: yoga.id, ...fields })

function packBody(id: number, fields: Record<string, unknown> = {}) {
  return {
    id,
    url: `${ORIGIN}/api/voucher-packs/${id}/`,
    name: 'Yoga 5-pack',
    status: 'ACT',
    event_type_id: yoga.id,
    event_type_name: 'Yoga',
    event_type_url: `${ORIGIN}/api/event-types/${yoga.id}/`,
    number_of_uses: 5,
    valid_days: 90,
    price: '60.00',
    tax_rate_id: null,
    revenue_account_code: '',
    created_at: START,
    updated_at: START,
    ...fields,
  }
}

const valid = () => ({ name: 'Yoga 10-pack', status: 'ACT', event_type_id: yoga.id, number_of_uses: 10 })

describe('/api/voucher-packs/ 401', () => {
  const routes = [
    ['GET', PATH],
    ['GET', `${PATH}1/`],
    ['POST', PATH],
    ['PUT', `${PATH}1/`],
    ['PATCH', `${PATH}1/`],
  ] as const
  testEachNeedsToken(t, routes, { name: '' })
})

describe('/api/voucher-packs/ 400', () => {
  const post = (body: unknown) => t.request('POST', PATH, { token: t.seed.adminToken, body })

  test('an empty body reports name, status, event_type_id and number_of_uses', async () => {
    const res = await post({})
    expect(res.status).toBe(400)
    expect(res.body).toEqual({
      name: required,
      status: required,
      event_type_id: required,
      number_of_uses: required,
    })
    expect(await count()).toBe(0)
  })

  const cases: RefusedPost[] = [
    ['a blank name', { name: '' }, { name: blank }],
    ['status LIVE', { status: 'LIVE' }, { status: invalidChoice('LIVE') }],
    ['event_type_id 999 (no such event type)', { event_type_id: 999 }, { event_type_id: doesNotExist(999) }],
    ['event_type_id "yoga"', { event_type_id: 'yoga' }, { event_type_id: invalidInteger }],
    ['number_of_uses 0', { number_of_uses: 0 }, { number_of_uses: minValue(1) }],
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
    const res = await post({ ...valid(), event_type_id: 999, number_of_uses: 0, tax_rate_id: 98 })
    expect(res.body).toEqual({
      event_type_id: doesNotExist(999),
      number_of_uses: minValue(1),
      tax_rate_id: doesNotExist(98),
    })
    const pack = await makeYogaPack()
    const patch = await t.request('PATCH', `${PATH}${pack.id}/`, {
      token: t.seed.adminToken,
      body: { name: 'Renamed', tax_rate_id: 98 },
    })
    expect(patch.status).toBe(400)
    expect(patch.body).toEqual({ tax_rate_id: doesNotExist(98) })
    const read = await t.request('GET', `${PATH}${pack.id}/`, { token: t.seed.staffToken })
    expect(read.body).toEqual(packBody(pack.id))
  })

  test('a bad filter value is 400 on that parameter', async () => {
    const res = await t.request('GET', `${PATH}?status=act&event_type_id=yoga`, { token: t.seed.staffToken })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({
      status: ['Select a valid choice. act is not one of the available choices.'],
      event_type_id: notANumber,
    })
  })
})

describe('/api/voucher-packs/ 403, 404 and 405', () => {
  testAdminWrittenNeverDeleted(t, {
    path: PATH,
    instead: 'retire a pack instead',
    allButAdmin: () => staff.allButAdmin,
    make: () => makeYogaPack(),
    body: packBody,
    valid,
    count,
  })
})

describe('/api/voucher-packs/ success', () => {
  test('any staff user lists packs by name and reads one; status and event_type_id filter', async () => {
    const climbing = await makeEventType(t.db, { name: 'Lead climbing', gym_id: t.seed.gym.id })
    const five = await makeYogaPack()
    const lead = await makeYogaPack({
      name: 'Lead 3-pack',
      event_type_id: climbing.id,
      number_of_uses: 3,
      valid_days: null,
      status: 'DRA',
    })
    const old = await makeYogaPack({ name: 'Yoga 20-pack', number_of_uses: 20, status: 'RET' })
    const leadBody = packBody(lead.id, {
      name: 'Lead 3-pack',
      event_type_id: climbing.id,
      event_type_name: 'Lead climbing',
      event_type_url: `${ORIGIN}/api/event-types/${climbing.id}/`,
      number_of_uses: 3,
      valid_days: null,
      status: 'DRA',
    })
    const list = await t.request('GET', PATH, { token: t.seed.staffToken })
    expect(list.body).toEqual(
      onePage([
        leadBody,
        packBody(old.id, { name: 'Yoga 20-pack', number_of_uses: 20, status: 'RET' }),
        packBody(five.id),
      ]),
    )
    expect(await ids('status=ACT')).toEqual([five.id])
    expect(await ids(`event_type_id=${yoga.id}`)).toEqual([old.id, five.id])
    expect(await ids(`event_type_id=${yoga.id}&status=RET`)).toEqual([old.id])
    const read = await t.request('GET', `${PATH}${lead.id}/`, { token: t.seed.staffToken })
    expect(read.body).toEqual(leadBody)
  })

  test('POST with the required fields: no expiry, free, untaxed; and with every field', async () => {
    const res = await t.request('POST', PATH, { token: t.seed.adminToken, body: valid() })
    expect(res.status).toBe(201)
    expect(res.body).toEqual(
      packBody(res.body.id, { name: 'Yoga 10-pack', number_of_uses: 10, valid_days: null, price: '0.00' }),
    )
    const taxRate = await makeTaxRate(t.db)
    const body = {
      ...valid(),
      status: 'DRA',
      valid_days: 365,
      price: '110.5',
      tax_rate_id: taxRate.id,
      revenue_account_code: '4300-CLASSES',
    }
    const every = await t.request('POST', PATH, { token: t.seed.adminToken, body })
    expect(every.status).toBe(201)
    expect(every.body).toEqual(packBody(every.body.id, { ...body, price: '110.50' }))
    const read = await t.request('GET', `${PATH}${every.body.id}/`, { token: t.seed.staffToken })
    expect(read.body).toEqual(every.body)
  })

  test('PUT and PATCH change the pack, including its event type', async () => {
    const pack = await makeYogaPack()
    const climbing = await makeEventType(t.db, { name: 'Lead climbing', gym_id: t.seed.gym.id })
    t.clock.advance(60_000)
    const put = await t.request('PUT', `${PATH}${pack.id}/`, {
      token: t.seed.adminToken,
      body: { name: 'Lead 5-pack', status: 'ACT', event_type_id: climbing.id, number_of_uses: 5, price: 75 },
    })
    expect(put.status).toBe(200)
    expect(put.body).toEqual(
      packBody(pack.id, {
        name: 'Lead 5-pack',
        event_type_id: climbing.id,
        event_type_name: 'Lead climbing',
        event_type_url: `${ORIGIN}/api/event-types/${climbing.id}/`,
        price: '75.00',
        updated_at: ONE_MINUTE_LATER,
      }),
    )
    const patch = await t.request('PATCH', `${PATH}${pack.id}/`, {
      token: t.seed.adminToken,
      body: { status: 'RET', valid_days: null, revenue_account_code: '4310' },
    })
    expect(patch.body).toEqual({ ...put.body, status: 'RET', valid_days: null, revenue_account_code: '4310' })
  })
})
