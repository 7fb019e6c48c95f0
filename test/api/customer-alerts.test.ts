import { beforeEach, describe, expect, test } from 'bun:test'
import { ONE_MINUTE_LATER, ORIGIN, START } from '../helpers/app.ts'
import {
  blank,
  forbidden,
  invalidBoolean,
  invalidToken,
  methodNotAllowed,
  notFound,
  notNull,
  onePage,
  emptyPage,
  required,
} from '../helpers/bodies.ts'
import { makeAlert, makeCustomer } from '../helpers/customer-factories.ts'
import { countRows, everyCanFlag, makeToken, makeUser } from '../helpers/factories.ts'
import { expectUnauthenticated, useSeededApp } from '../helpers/seeded.ts'

const t = useSeededApp()

/** A user with can_manage_members only. */
let membersToken: string
/** A user with every can_* flag except can_manage_members. */
let othersToken: string
let customerId: number
/** Another customer, whose alerts are not the first one's. */
let otherCustomerId: number

beforeEach(async () => {
  membersToken = await makeToken(t.db, await makeUser(t.db, { can_manage_members: 1 }))
  othersToken = await makeToken(t.db, await makeUser(t.db, { ...everyCanFlag, can_manage_members: 0 }))
  customerId = (await makeCustomer(t.db)).id
  otherCustomerId = (await makeCustomer(t.db, { first_name: 'Beth', last_name: 'Rodden' })).id
})

const invalidColor = ['Enter a valid color: 6 hexadecimal digits, such as FF0000.']
const alertsPath = (id = customerId) => `/api/customers/${id}/alerts/`
const alertPath = (alertId: number, id = customerId) => `/api/customers/${id}/alerts/${alertId}/`
const alertCount = () => countRows(t.db, 'customer_alerts')

/** The whole record the API answers for an alert with the factory's defaults. */
function alertBody(id: number, fields: Record<string, unknown> = {}) {
  const owner = (fields.customer_id as number | undefined) ?? customerId
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
  for (const [method, path] of routes) {
    test(`${method} ${path} without a token is 401`, async () => {
      await makeAlert(t.db, customerId)
      expectUnauthenticated(await t.request(method, path, method === 'GET' ? {} : { body: {} }))
    })

    test(`${method} ${path} with an unknown token is 401 Invalid token`, async () => {
      await makeAlert(t.db, customerId)
      const res = await t.request(method, path, {
        token: 'f'.repeat(40),
        ...(method === 'GET' ? {} : { body: {} }),
      })
      expectUnauthenticated(res, invalidToken)
    })
  }
})

describe('/api/customers/<id>/alerts/ 400', () => {
  const post = (body: unknown) => t.request('POST', alertsPath(), { token: membersToken, body })

  test('POST with an empty body needs alert_text', async () => {
    const res = await post({})
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ alert_text: required })
    expect(await alertCount()).toBe(0)
  })

  const cases: Array<[string, Record<string, unknown>, Record<string, string[]>]> = [
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
  for (const [name, change, errors] of cases) {
    test(`POST with ${name} is 400 and creates nothing`, async () => {
      const res = await post({ alert_text: 'Owes a fee', ...change })
      expect(res.status).toBe(400)
      expect(res.body).toEqual(errors)
      expect(await alertCount()).toBe(0)
    })
  }

  test('every failing field at once', async () => {
    const res = await post({ alert_text: '', color_hex: 'red', prevents_check_in: 'x', is_active: 'y' })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({
      alert_text: blank,
      color_hex: invalidColor,
      prevents_check_in: invalidBoolean,
      is_active: invalidBoolean,
    })
  })

  test('PUT needs alert_text; PATCH with a bad color changes nothing', async () => {
    const alert = await makeAlert(t.db, customerId)
    const put = await t.request('PUT', alertPath(alert.id), {
      token: membersToken,
      body: { color_hex: '00FF00' },
    })
    expect(put.status).toBe(400)
    expect(put.body).toEqual({ alert_text: required })
    const patch = await t.request('PATCH', alertPath(alert.id), {
      token: membersToken,
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
    ['a user with every permission but can_manage_members', () => othersToken],
  ] as const) {
    test(`${who} may read but not write`, async () => {
      const alert = await makeAlert(t.db, customerId)
      expect((await t.request('GET', alertsPath(), { token: token() })).status).toBe(200)
      expect((await t.request('GET', alertPath(alert.id), { token: token() })).status).toBe(200)
      for (const [method, path] of [
        ['POST', alertsPath()],
        ['PUT', alertPath(alert.id)],
        ['PATCH', alertPath(alert.id)],
      ] as const) {
        const res = await t.request(method, path, { token: token(), body: { alert_text: 'Nope' } })
        expect(res.status).toBe(403)
        expect(res.body).toEqual(forbidden)
      }
      expect(await storedAlert(alert.id)).toEqual(alert)
      expect(await alertCount()).toBe(1)
    })
  }
})

describe('/api/customers/<id>/alerts/ 404 and 405', () => {
  test('an unknown customer is 404 for the list, create and a record', async () => {
    const alert = await makeAlert(t.db, customerId)
    for (const [method, path] of [
      ['GET', alertsPath(999)],
      ['POST', alertsPath(999)],
      ['GET', alertPath(alert.id, 999)],
      ['PATCH', alertPath(alert.id, 999)],
    ] as const) {
      const res = await t.request(method, path, {
        token: membersToken,
        ...(method === 'GET' ? {} : { body: { alert_text: 'x' } }),
      })
      expect({ method, path, status: res.status, body: res.body }).toEqual({
        method,
        path,
        status: 404,
        body: notFound,
      })
    }
    expect(await alertCount()).toBe(1)
  })

  test("another customer's alert is 404 for read, PUT and PATCH, and is not changed", async () => {
    const theirs = await makeAlert(t.db, otherCustomerId)
    for (const method of ['GET', 'PUT', 'PATCH']) {
      const res = await t.request(method, alertPath(theirs.id), {
        token: membersToken,
        ...(method === 'GET' ? {} : { body: { alert_text: 'Hijacked' } }),
      })
      expect({ method, status: res.status, body: res.body }).toEqual({ method, status: 404, body: notFound })
    }
    expect(await storedAlert(theirs.id)).toEqual(theirs)
  })

  test('an unknown alert is 404', async () => {
    const res = await t.request('GET', alertPath(999), { token: membersToken })
    expect(res.status).toBe(404)
    expect(res.body).toEqual(notFound)
  })

  test('DELETE is 405: an alert is retired with is_active false', async () => {
    const alert = await makeAlert(t.db, customerId)
    const res = await t.request('DELETE', alertPath(alert.id), { token: t.seed.adminToken })
    expect(res.status).toBe(405)
    expect(res.body).toEqual(methodNotAllowed('DELETE'))
    expect(await alertCount()).toBe(1)
  })
})

describe('/api/customers/<id>/alerts/ success', () => {
  test('POST with alert_text only: defaults red, not blocking, active, dated today', async () => {
    t.clock.advance(60_000)
    const res = await t.request('POST', alertsPath(), {
      token: membersToken,
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
    const res = await t.request('POST', alertsPath(), { token: membersToken, body: { alert_text: 'Late' } })
    expect(res.status).toBe(201)
    expect(res.body.created_date).toBe('2026-11-22')
    expect(res.body.created_at).toBe('2026-11-23T05:30:00.000Z')
  })

  test('read-only fields sent on create are ignored', async () => {
    const res = await t.request('POST', alertsPath(), {
      token: membersToken,
      body: {
        alert_text: 'Check ID',
        id: 50,
        customer_id: otherCustomerId,
        created_date: '2000-01-01',
        created_at: '2000-01-01T00:00:00.000Z',
      },
    })
    expect(res.status).toBe(201)
    expect(res.body).toEqual(alertBody(1))
  })

  test('PUT replaces the sent fields and keeps created_date; PATCH changes one', async () => {
    const alert = await makeAlert(t.db, customerId, { color_hex: '0000FF' })
    t.clock.advance(60_000)
    const put = await t.request('PUT', alertPath(alert.id), {
      token: membersToken,
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
      token: membersToken,
      body: { is_active: false },
    })
    expect(patch.status).toBe(200)
    expect(patch.body).toEqual({ ...put.body, is_active: false })
    expect((await t.request('GET', alertPath(alert.id), { token: membersToken })).body).toEqual(patch.body)
  })

  test("the list holds this customer's alerts only, oldest first", async () => {
    const first = await makeAlert(t.db, customerId, { alert_text: 'First' })
    await makeAlert(t.db, otherCustomerId, { alert_text: 'Theirs' })
    const second = await makeAlert(t.db, customerId, { alert_text: 'Second', is_active: 0 })
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
    const active = await makeAlert(t.db, customerId, { prevents_check_in: 1 })
    const retired = await makeAlert(t.db, customerId, { is_active: 0 })
    const ids = async (query: string) =>
      (await t.request('GET', `${alertsPath()}?${query}`, { token: t.seed.staffToken })).body.results.map(
        (r: { id: number }) => r.id,
      )
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
