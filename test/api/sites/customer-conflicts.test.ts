import { expect, test } from 'bun:test'
import { makeCustomer } from '../../helpers/customer-factories.ts'
import { makeConflict } from '../../helpers/fake-site.ts'
import { useSeededApp } from '../../helpers/seeded.ts'

/**
 * A customer who lost a barcode to another site's customer shows it on their record
 * (`site_conflicts`), read by any staff user, until they are given a new one.
 */

const t = useSeededApp()

async function lostBarcode() {
  const kept = await makeCustomer(t.db, { first_name: 'Alex', last_name: 'Honnold', barcode: '1234' })
  const lost = await makeCustomer(t.db)
  const bystander = await makeCustomer(t.db, {
    first_name: 'Tommy',
    last_name: 'Caldwell',
    barcode: '1234-x',
  })
  await makeConflict(t.db, { kept: kept.id, lost: lost.id })
  // Conflicts on other tables never name a customer, whatever their keys.
  await makeConflict(t.db, {
    kept: lost.id,
    lost: bystander.id,
    table_name: 'staff_users',
    column_names: '["email"]',
    value: 'desk@gym.example',
  })
  return { kept, lost, bystander }
}

const siteConflictsOf = async (id: number) =>
  (await t.request('GET', `/api/customers/${id}/`, { token: t.seed.staffToken })).body.site_conflicts

test('the customer who lost the barcode shows it, with who kept it; the others show nothing', async () => {
  const { kept, lost, bystander } = await lostBarcode()
  expect(await siteConflictsOf(lost.id)).toEqual([
    {
      barcode: '1234',
      site: 'south',
      kept_by_customer_id: kept.id,
      kept_by_customer_url: `http://localhost/api/customers/${kept.id}/`,
      kept_by_customer_name: 'Alex Honnold',
      detected_at: '2026-11-22T15:04:05.123Z',
    },
  ])
  expect(await siteConflictsOf(kept.id)).toEqual([])
  expect(await siteConflictsOf(bystander.id)).toEqual([])
})

test('the list shows it too, on the same customer only', async () => {
  const { lost } = await lostBarcode()
  const res = await t.request('GET', '/api/customers/?search=Hill', { token: t.seed.staffToken })
  expect(
    res.body.results.map((c: { id: number; site_conflicts: unknown[] }) => [c.id, c.site_conflicts.length]),
  ).toEqual([[lost.id, 1]])
})

test('giving the customer a new barcode settles it', async () => {
  const { lost } = await lostBarcode()
  const res = await t.request('PATCH', `/api/customers/${lost.id}/`, {
    token: t.seed.adminToken,
    body: { barcode: '9999' },
  })
  expect(res.status).toBe(200)
  expect(res.body.site_conflicts).toEqual([])
})
