import { afterEach, beforeEach, expect, test } from 'bun:test'
import type { Connection } from '../../src/db/connection.ts'
import { allocateSiteIds, nextSiteId, siteIdAbove, stopAllocatingSiteIds } from '../../src/db/site-ids.ts'
import { gymValues, makeOrganization } from '../helpers/factories.ts'
import { openMigratedMemory } from '../helpers/migrated-memory.ts'

let connection: Connection

beforeEach(async () => {
  connection = await openMigratedMemory()
  await makeOrganization(connection.db)
})

afterEach(() => connection.close())

const gym = (name: string) => gymValues({ name })

test('the id above another that is congruent to the site number modulo 1024', () => {
  expect([
    siteIdAbove(0, 1),
    siteIdAbove(1, 1),
    siteIdAbove(5, 3),
    siteIdAbove(1024, 1),
    siteIdAbove(1030, 7),
  ]).toEqual([1, 1025, 1027, 1025, 1031])
})

test('a box that is no site: SQLite picks ids as always, and nextSiteId says null', async () => {
  const rows = await connection.db
    .insertInto('gyms')
    .values([gym('A'), gym('B')])
    .returning('id')
    .execute()
  expect(rows).toEqual([{ id: 1 }, { id: 2 }])
  expect(nextSiteId(connection.sqlite, 'gyms')).toBeNull()
})

test("a site's inserts, one row or several, take ids only it allocates, above every id there", async () => {
  await connection.db.insertInto('gyms').values(gym('Before')).execute()
  allocateSiteIds(connection.sqlite, 3, ['gyms'])
  const one = await connection.db.insertInto('gyms').values(gym('One')).returning('id').execute()
  const two = await connection.db
    .insertInto('gyms')
    .values([gym('Two'), gym('Three')])
    .returning('id')
    .execute()
  expect([...one, ...two]).toEqual([{ id: 3 }, { id: 1027 }, { id: 2051 }])
  // An id the insert names is kept; a table not allocated is left to SQLite.
  const named = await connection.db
    .insertInto('gyms')
    .values({ ...gym('Named'), id: 5000 })
    .returning('id')
    .execute()
  expect(named).toEqual([{ id: 5000 }])
  expect(nextSiteId(connection.sqlite, 'gyms')).toBe(5123)
  expect(nextSiteId(connection.sqlite, 'customers')).toBeNull()
  stopAllocatingSiteIds(connection.sqlite)
  expect(await connection.db.insertInto('gyms').values(gym('After')).returning('id').execute()).toEqual([
    { id: 5001 },
  ])
})

test('a site number is 1 to 1023', () => {
  expect(() => allocateSiteIds(connection.sqlite, 0, ['gyms'])).toThrow('a site number is 1 to 1023, not 0')
  expect(() => allocateSiteIds(connection.sqlite, 1024, ['gyms'])).toThrow(
    'a site number is 1 to 1023, not 1024',
  )
})
