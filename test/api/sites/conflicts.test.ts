import { describe, expect, test } from 'bun:test'
import { emptyPage, forbidden, notANumber, notFound, onePage } from '../../helpers/bodies.ts'
import { makeCustomer } from '../../helpers/customer-factories.ts'
import { FakeSite, makeConflict } from '../../helpers/fake-site.ts'
import { expectUnauthenticated, useSeededApp, useStaff } from '../../helpers/seeded.ts'

/** /api/sites/conflicts/: the unique values two sites gave twice while apart, for admins. */

const t = useSeededApp({ site: new FakeSite() })
const staff = useStaff(t, 'allButAdmin')

const conflictUrl = (id: number) => `http://localhost/api/sites/conflicts/${id}/`

/**
 * Three conflicts as applying the stream records them: a barcode two customers were given, a
 * staff email two sites gave, and a second barcode, later.
 */
async function threeConflicts() {
  const kept = await makeCustomer(t.db, { first_name: 'Alex', last_name: 'Honnold', barcode: '1234' })
  const lost = await makeCustomer(t.db)
  const barcode = await makeConflict(t.db, { kept: kept.id, lost: lost.id })
  const email = await makeConflict(t.db, {
    kept: 7,
    lost: 9,
    table_name: 'staff_users',
    column_names: '["email"]',
    value: 'desk@gym.example',
    lost_site: 'north',
    resolution: 'refused',
    detected_at: '2026-11-22T15:04:06.000Z',
  })
  const later = await makeConflict(t.db, {
    kept: kept.id,
    lost: lost.id,
    value: '5678',
    detected_at: '2026-11-22T15:04:07.000Z',
  })
  const customerBarcode = (id: number, value: string, detected_at: string) => ({
    id,
    url: conflictUrl(id),
    table: 'customers',
    columns: ['barcode'],
    value,
    kept_row_key: [kept.id],
    lost_row_key: [lost.id],
    lost_site: 'south',
    resolution: 'cleared',
    detected_at,
    customer_url: `http://localhost/api/customers/${lost.id}/`,
  })
  return {
    lost,
    bodies: [
      customerBarcode(later, '5678', '2026-11-22T15:04:07.000Z'),
      {
        id: email,
        url: conflictUrl(email),
        table: 'staff_users',
        columns: ['email'],
        value: 'desk@gym.example',
        kept_row_key: [7],
        lost_row_key: [9],
        lost_site: 'north',
        resolution: 'refused',
        detected_at: '2026-11-22T15:04:06.000Z',
        customer_url: null,
      },
      customerBarcode(barcode, '1234', '2026-11-22T15:04:05.123Z'),
    ],
  }
}

describe('GET /api/sites/conflicts/', () => {
  test('without a token is 401', async () => {
    expectUnauthenticated(await t.request('GET', '/api/sites/conflicts/'))
  })

  test('a filter that is no id is 400', async () => {
    const res = await t.request('GET', '/api/sites/conflicts/?customer_id=x', { token: t.seed.adminToken })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ customer_id: notANumber })
  })

  test('is 403 for staff without the admin flag', async () => {
    const res = await t.request('GET', '/api/sites/conflicts/', { token: staff.allButAdmin.token })
    expect(res.status).toBe(403)
    expect(res.body).toEqual(forbidden)
  })

  test('is empty before any conflict', async () => {
    const res = await t.request('GET', '/api/sites/conflicts/', { token: t.seed.adminToken })
    expect(res.status).toBe(200)
    expect(res.body).toEqual(emptyPage)
  })

  test('lists every conflict, newest first, a lost customer linked', async () => {
    const { bodies } = await threeConflicts()
    const res = await t.request('GET', '/api/sites/conflicts/', { token: t.seed.adminToken })
    expect(res.status).toBe(200)
    expect(res.body).toEqual(onePage(bodies))
  })

  test('filters by table, by the site that lost, and by the customer who lost', async () => {
    const { bodies, lost } = await threeConflicts()
    const get = (query: string) =>
      t.request('GET', `/api/sites/conflicts/?${query}`, { token: t.seed.adminToken })
    expect((await get('table=customers')).body).toEqual(onePage([bodies[0], bodies[2]]))
    expect((await get('lost_site=north')).body).toEqual(onePage([bodies[1]]))
    expect((await get(`customer_id=${lost.id}`)).body).toEqual(onePage([bodies[0], bodies[2]]))
    // Staff user 9 lost an email: no customer 9 lost anything.
    expect((await get('customer_id=9')).body).toEqual(emptyPage)
  })

  test('is paginated as every list is', async () => {
    const { bodies } = await threeConflicts()
    const res = await t.request('GET', '/api/sites/conflicts/?page=2&page_size=2', {
      token: t.seed.adminToken,
    })
    expect(res.body).toEqual({
      count: 3,
      next: null,
      previous: 'http://localhost/api/sites/conflicts/?page_size=2',
      results: [bodies[2]],
    })
  })
})

describe('GET /api/sites/conflicts/{id}/', () => {
  test('is 403 for staff without the admin flag', async () => {
    const { bodies } = await threeConflicts()
    const res = await t.request('GET', `/api/sites/conflicts/${bodies[1]!.id}/`, {
      token: staff.allButAdmin.token,
    })
    expect(res.status).toBe(403)
    expect(res.body).toEqual(forbidden)
  })

  test('is 404 for no such conflict', async () => {
    const res = await t.request('GET', '/api/sites/conflicts/99/', { token: t.seed.adminToken })
    expect(res.status).toBe(404)
    expect(res.body).toEqual(notFound)
  })

  test('is the conflict as the list shows it', async () => {
    const { bodies } = await threeConflicts()
    const res = await t.request('GET', `/api/sites/conflicts/${bodies[1]!.id}/`, { token: t.seed.adminToken })
    expect(res.status).toBe(200)
    expect(res.body).toEqual(bodies[1])
  })
})
