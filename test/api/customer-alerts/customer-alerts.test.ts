import { describe, expect, test } from 'bun:test'
import { ONE_MINUTE_LATER, ORIGIN, START } from '../../helpers/app.ts'
import { blank, emptyPage, invalidBoolean, notNull, onePage, required } from '../../helpers/bodies.ts'
import { makeAlert } from '../../helpers/customer-factories.ts'
import { useCustomerRecordFixture } from '../../helpers/customer-record-checks.ts'
import { countRows } from '../../helpers/factories.ts'
import {
  expectEachForbidden,
  expectEachNotAllowed,
  expectEachNotFound,
  listIds,
  type RefusedPost,
  testEachNeedsTokenApart,
  testEachRefusedPost,
  useSeededApp,
} from '../../helpers/seeded.ts'

const t = useSeededApp()
/** The customer whose alerts are tested, another customer, and members/others tokens. */
const f = useCustomerRecordFixture(t)

const invalidColor = ['Enter a valid color: 6 hexadecimal digits, such as FF0000.']
const alertsPath = (id = f.customer.id) => `/api/customers/${id}/alerts/`
const alertPath = (alertId: number, id = f.customer.id) => `/api/customers/${id}/alerts/${alertId}/`
const alertCount = () => countRows(t.db, 'customer_alerts')

/** The whole record the API answers for an alert with the factory's defaults. */
function alertBody(id: number, fields: Record<string, unknown> = {}) {
  const owner = (fields.customer_id as number | undefined) ?? f.customer.id
  return {
    id,
    url: `${ORIGIN}/api/customers/${owner}/alerts/${id}/`,
    customer_id: owner,
    alert_text: 'Check ID',
    color_hex: 'FF0000',
    prevents_check_in: false,
    is_active: true,
    created_date: '2026-11-22',
    created_at: START,
    updated_at: START,
    ...fields,
  }
}

const storedAlert = (id: number) =>
  t.db.selectFrom('customer_alerts').selectAll().where('id', '=', id).executeTakeFirstOrThrow()

describe('/api/customers/<id>/alerts/ 401', () => {
  const routes: Array<[string, string]> = [
    ['GET', '/api/customers/1/alerts/'],
    ['GET', '/api/customers/1/alerts/1/'],
    ['POST', '/api/customers/1/alerts/'],
    ['PUT', '/api/customers/1/alerts/1/'],
    ['PATCH', '/api/customers/1/alerts/1/'],
    ['DELETE', '/api/customers/1/alerts/1/'],
  ]
  testEachNeedsTokenApart(t, routes, { setUp: () => makeAlert(t.db, f.customer.id) })
})

describe('/api/customers/<id>/alerts/ 400', () => {
  const post = (body: unknown) => t.request('POST', alertsPath(), { token: f.membersToken, body })

  test('POST with an empty body needs alert_text', async () => {
    const res = await post({})
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ alert_text: required })
    expect(await alertCount()).toBe(0)
  })

  const cases: RefusedPost[] = [
    ['a blank alert_text', { alert_text: '' }, { alert_text: blank }],
    ['a null alert_text', { alert_text: null }, { alert_text: notNull }],
    ['a color of 3 digits', { color_hex: 'F00' }, { color_hex: invalidColor }],
    ['a color with a "#"', { color_hex: '#FF0000' }, { color_hex: invalidColor }],
    ['a color that is not hexadecimal', { color_hex: 'GG0000' }, { color_hex: invalidColor }],
    ['a color of 7 digits', { color_hex: 'FF00000' }, { color_hex: invalidColor }],
    [
      'prevents_check_in "sometimes"',
      { prevents_check_in: 'sometimes' },
      { prevents_check_in: invalidBoolean },
    ],
    ['is_active "x"', { is_active: 'x' }, { is_active: invalidBoolean }],
  ]
  testEachRefusedPost(cases, { post, count: alertCount, base: () => ({ alert_text: 'Owes a fee' }) })

  test('every failing field at once', async () => {
    const res = await post({ alert_text: '', color_hex: 'red', prevents_check_in: 'x', is_active: 'maybe' })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({
      alert_text: blank,
      color_hex: invalidColor,
      prevents_check_in: invalidBoolean,
      is_active: invalidBoolean,
    })
  })

  test('PUT needs alert_text; PATCH with a bad color changes nothing', async () => {
    const alert = await makeAlert(t.db, f.customer.id)
    const put = await t.request('PUT', alertPath(alert.id), {
      token: f.membersToken,
      body: { color_hex: '00FF00' },
    })
    expect(put.status).toBe(400)
    expect(put.body).toEqual({ alert_text: required })
    const patch = await t.request('PATCH', alertPath(alert.id), {
      token: f.membersToken,
      body: { alert_text: 'Changed', color_hex: 'blue' },
    })
    expect(patch.status).toBe(400)
    expect(patch.body).toEqual({ color_hex: invalidColor })
    expect(await storedAlert(alert.id)).toEqual(alert)
  })
})

describe('/api/customers/<id>/alerts/ 403', () => {
  for (const [who, token] of [
    ['a user without permissions', () => t.seed.staffToken],
    ['a user with every permission but can_manage_members', () => f.othersToken],
  ] as const) {
    test(`${who} may read but not write`, async () => {
      const alert = await makeAlert(t.db, f.customer.id)
      expect((await t.request('GET', alertsPath(), { token: token() })).status).toBe(200)
      expect((await t.request('GET', alertPath(alert.id), { token: token() })).status).toBe(200)
      const body = { alert_text: 'Nope' }
      await expectEachForbidden(
        t,
        [token()],
        [
          ['POST', alertsPath(), body],
          ['PUT', alertPath(alert.id), body],
          ['PATCH', alertPath(alert.id), body],
        ],
      )
      expect(await storedAlert(alert.id)).toEqual(alert)
      expect(await alertCount()).toBe(1)
    })
  }
})

describe('/api/customers/<id>/alerts/ 404 and 405', () => {
  test('an unknown customer is 404 for the list, create and a record', async () => {
    const alert = await makeAlert(t.db, f.customer.id)
    const body = { alert_text: 'x' }
    await expectEachNotFound(t, f.membersToken, [
      ['GET', alertsPath(999)],
      ['POST', alertsPath(999), body],
      ['GET', alertPath(alert.id, 999)],
      ['PATCH', alertPath(alert.id, 999), body],
    ])
    expect(await alertCount()).toBe(1)
  })

  test("another customer's alert is 404 for read, PUT and PATCH, and is not changed", async () => {
    const theirs = await makeAlert(t.db, f.other.id)
    const calls = ['GET', 'PUT', 'PATCH'].map(
      (method) => [method, alertPath(theirs.id), { alert_text: 'Hijacked' }] as const,
    )
    await expectEachNotFound(t, f.membersToken, calls)
    expect(await storedAlert(theirs.id)).toEqual(theirs)
  })

  test('an unknown alert is 404', async () => {
    await expectEachNotFound(t, f.membersToken, [['GET', alertPath(999)]])
  })

  test('DELETE is 405: an alert is retired with is_active false', async () => {
    const alert = await makeAlert(t.db, f.customer.id)
    await expectEachNotAllowed(t, t.seed.adminToken, [['DELETE', alertPath(alert.id)]])
    expect(await alertCount()).toBe(1)
  })
})

describe('/api/customers/<id>/alerts/ success', () => {
  test('POST with alert_text only: defaults red, not blocking, active, dated today', async () => {
    t.clock.advance(60_000)
    const res = await t.request('POST', alertsPath(), {
      token: f.membersToken,
      body: { alert_text: 'Check ID' },
    })
    expect(res.status).toBe(201)
    expect(res.body).toEqual(
      alertBody(res.body.id, { created_at: ONE_MINUTE_LATER, updated_at: ONE_MINUTE_LATER }),
    )
    const read = await t.request('GET', alertPath(res.body.id), { token: t.seed.staffToken })
    expect(read.body).toEqual(res.body)
  })

  test('POST with every field; a lower-case color is stored upper case (admin passes too)', async () => {
    const res = await t.request('POST', alertsPath(), {
      token: t.seed.adminToken,
      body: { alert_text: 'Unpaid balance', color_hex: '00aa7f', prevents_check_in: true, is_active: false },
    })
    expect(res.status).toBe(201)
    expect(res.body).toEqual(
      alertBody(res.body.id, {
        alert_text: 'Unpaid balance',
        color_hex: '00AA7F',
        prevents_check_in: true,
        is_active: false,
      }),
    )
  })

  test('created_date is the organization-local day: 05:30 UTC is still the day before in Denver', async () => {
    t.clock.set('2026-11-23T05:30:00.000Z')
    const res = await t.request('POST', alertsPath(), { token: f.membersToken, body: { alert_text: 'Late' } })
    expect(res.status).toBe(201)
    expect(res.body.created_date).toBe('2026-11-22')
    expect(res.body.created_at).toBe('2026-11-23T05:30:00.000Z')
  })

  test('read-only fields sent on create are ignored', async () => {
    const res = await t.request('POST', alertsPath(), {
      token: f.membersToken,
      body: {
        alert_text: 'Check ID',
        id: 50,
        customer_id: f.other.id,
        created_date: '2000-01-01',
        created_at: '2000-01-01T00:00:00.000Z',
      },
    })
    expect(res.status).toBe(201)
    expect(res.body).toEqual(alertBody(1))
  })

  test('PUT replaces the sent fields and keeps created_date; PATCH changes one', async () => {
    const alert = await makeAlert(t.db, f.customer.id, { color_hex: '0000FF' })
    t.clock.advance(60_000)
    const put = await t.request('PUT', alertPath(alert.id), {
      token: f.membersToken,
      body: { alert_text: 'Banned', prevents_check_in: true },
    })
    expect(put.status).toBe(200)
    expect(put.body).toEqual(
      alertBody(alert.id, {
        alert_text: 'Banned',
        color_hex: '0000FF',
        prevents_check_in: true,
        updated_at: ONE_MINUTE_LATER,
      }),
    )
    const patch = await t.request('PATCH', alertPath(alert.id), {
      token: f.membersToken,
      body: { is_active: false },
    })
    expect(patch.status).toBe(200)
    expect(patch.body).toEqual({ ...put.body, is_active: false })
    expect((await t.request('GET', alertPath(alert.id), { token: f.membersToken })).body).toEqual(patch.body)
  })

  test("the list holds this customer's alerts only, oldest first", async () => {
    const first = await makeAlert(t.db, f.customer.id, { alert_text: 'First' })
    await makeAlert(t.db, f.other.id, { alert_text: 'Theirs' })
    const second = await makeAlert(t.db, f.customer.id, { alert_text: 'Second', is_active: 0 })
    const res = await t.request('GET', alertsPath(), { token: t.seed.staffToken })
    expect(res.status).toBe(200)
    expect(res.body).toEqual(
      onePage([
        alertBody(first.id, { alert_text: 'First' }),
        alertBody(second.id, { alert_text: 'Second', is_active: false }),
      ]),
    )
  })

  test('the list filters on is_active and prevents_check_in', async () => {
    const active = await makeAlert(t.db, f.customer.id, { prevents_check_in: 1 })
    const retired = await makeAlert(t.db, f.customer.id, { is_active: 0 })
    const ids = listIds(t, alertsPath())
    expect(await ids('is_active=true')).toEqual([active.id])
    expect(await ids('is_active=false')).toEqual([retired.id])
    expect(await ids('prevents_check_in=true')).toEqual([active.id])
    expect(await ids('prevents_check_in=false&is_active=true')).toEqual([])
  })

  test('a customer without alerts has an empty list', async () => {
    const res = await t.request('GET', alertsPath(), { token: t.seed.staffToken })
    expect(res.body).toEqual(emptyPage)
  })
})
