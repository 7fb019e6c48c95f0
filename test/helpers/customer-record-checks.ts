import { beforeEach, describe, expect, test } from 'bun:test'
import type { CustomerRecordTable } from '../../src/api/customer-records/queries.ts'
import type { Customer } from '../../src/db/schema.ts'
import { START } from './app.ts'
import { forbidden, invalidToken, methodNotAllowed, notFound } from './bodies.ts'
import { makeCustomer } from './customer-factories.ts'
import { countRows } from './factories.ts'
import { expectAnswer, expectUnauthenticated, makeStaff, unknownToken, type SeededApp } from './seeded.ts'

/**
 * What the tests of every collection under /api/customers/<customer_id>/ share: the fixture, request helpers, and the checks that are the same for each: a
 * token first (401), then the permission (any staff reads, can_manage_members writes: 403), then
 * the customer and the record (404, also for another customer's record) and the method (405).
 * Each test file adds its own 400 and success cases between them.
 */

export interface CustomerRecordFixture {
  /** The customer whose records are under test (home gym: the seeded gym, America/Denver). */
  customer: Customer
  /** Another customer, whose records must never show under `customer`. */
  other: Customer
  /** A staff user with can_manage_members only. */
  membersToken: string
  /** A staff user with every can_* flag except can_manage_members, not an admin. */
  othersToken: string
}

/** Registers a beforeEach (after the app's) that fills the fixture; read it inside tests only. */
export function useCustomerRecordFixture(t: SeededApp): CustomerRecordFixture {
  const f = {} as CustomerRecordFixture
  beforeEach(async () => {
    f.customer = await makeCustomer(t.db, {
      first_name: 'Ashima',
      last_name: 'Shiraishi',
      email: 'ashima@example.com',
      home_location_id: t.seed.gym.id,
    })
    f.other = await makeCustomer(t.db, { first_name: 'Adam', last_name: 'Ondra', email: 'adam@example.com' })
    f.membersToken = (await makeStaff(t.db, 'members')).token
    f.othersToken = (await makeStaff(t.db, 'allButMembers')).token
  })
  return f
}

/** The computed and shared fields of a credit or voucher made by the factories at START. */
export const expiryDefaults = {
  expiry_date: null,
  expiry_date_str: 'Never',
  is_expired: false,
  is_removed: false,
  created_by_id: null,
  created_by_email: null,
  date_added_str: 'Nov 22, 2026',
  created_at: START,
  updated_at: START,
}

export interface CollectionUnderTest {
  /** The path segment, e.g. 'credits' */
  name: string
  table: CustomerRecordTable
  /** A body that creates a record of the fixture's customer (POST), or replaces one (PUT). */
  valid(): Record<string, unknown>
  /** A record of `customerId` built in the database; its id. */
  make(customerId: number): Promise<number>
  /** What a record path offers besides GET. */
  writes: Array<'PUT' | 'PATCH' | 'DELETE'>
}

const RECORD_METHODS = ['PUT', 'PATCH', 'DELETE'] as const
const bodyFor = (method: string, body: unknown) => (method === 'GET' || method === 'DELETE' ? {} : { body })

export function customerRecordSuite(t: SeededApp, f: CustomerRecordFixture, c: CollectionUnderTest) {
  const path = (customerId = f.customer.id) => `/api/customers/${customerId}/${c.name}/`
  const recordPath = (id: number | string, customerId = f.customer.id) => `${path(customerId)}${id}/`
  const count = () => countRows(t.db, c.table)
  /** A record as an admin reads it (whole body). */
  const read = async (id: number, customerId = f.customer.id) =>
    (await t.request('GET', recordPath(id, customerId), { token: t.seed.adminToken })).body
  const notOffered = RECORD_METHODS.filter((m) => !c.writes.includes(m))

  /** Each request of `calls` answers `status` and `body`, and the table keeps its rows. */
  async function expectEach(
    calls: Array<[string, string]>,
    token: string,
    status: number,
    body: (method: string) => unknown,
  ) {
    const rows = await count()
    for (const [method, url] of calls) {
      const res = await t.request(method, url, { token, ...bodyFor(method, c.valid()) })
      expectAnswer({ method, url }, res, status, body(method))
    }
    expect(await count()).toBe(rows)
  }

  return {
    path,
    recordPath,
    count,
    read,
    /** POST to the fixture customer's collection, as a can_manage_members user unless told. */
    post: (body: unknown, token = f.membersToken, customerId = f.customer.id) =>
      t.request('POST', path(customerId), { token, body }),
    /** The fixture customer's list as a staff user without flags. */
    list: async (customerId = f.customer.id) =>
      (await t.request('GET', path(customerId), { token: t.seed.staffToken })).body,

    describeUnauthenticated: () =>
      describe(`${c.name} 401`, () => {
        test('every method, offered or not, on a known or unknown customer, needs a valid token', async () => {
          const id = await c.make(f.customer.id)
          const rows = await count()
          const calls: Array<[string, string]> = [
            ['GET', path()],
            ['POST', path()],
            ['GET', path(999)],
            ['POST', path(999)],
            ['GET', recordPath(id)],
            ...RECORD_METHODS.map((m): [string, string] => [m, recordPath(id)]),
            ['GET', recordPath(id, 999)],
          ]
          for (const [method, url] of calls) {
            expectUnauthenticated(await t.request(method, url, bodyFor(method, {})))
            const res = await t.request(method, url, { token: unknownToken, ...bodyFor(method, {}) })
            expectUnauthenticated(res, invalidToken)
          }
          expect(await count()).toBe(rows)
        })
      }),

    describeForbidden: () =>
      describe(`${c.name} 403`, () => {
        test('a user without can_manage_members cannot write, valid body or not, and nothing changes', async () => {
          const id = await c.make(f.customer.id)
          const rows = await count()
          const before = await read(id)
          const writes: Array<[string, string]> = [
            ['POST', path()],
            ...c.writes.map((m): [string, string] => [m, recordPath(id)]),
          ]
          for (const token of [t.seed.staffToken, f.othersToken]) {
            for (const [method, url] of writes) {
              for (const body of [c.valid(), {}]) {
                const res = await t.request(method, url, { token, ...bodyFor(method, body) })
                expectAnswer({ method, body }, res, 403, forbidden)
              }
            }
          }
          expect(await count()).toBe(rows)
          expect(await read(id)).toEqual(before)
        })

        test('any staff user reads the list and a record', async () => {
          const id = await c.make(f.customer.id)
          const record = await read(id)
          for (const token of [t.seed.staffToken, f.othersToken, f.membersToken]) {
            const listed = await t.request('GET', path(), { token })
            expectAnswer({ token }, listed, 200, { count: 1, next: null, previous: null, results: [record] })
            expectAnswer({ token }, await t.request('GET', recordPath(id), { token }), 200, record)
          }
        })
      }),

    describeNotFoundAndNotAllowed: () =>
      describe(`${c.name} 404 and 405`, () => {
        test('an unknown customer is 404 for the list, a create and a record', async () => {
          const id = await c.make(f.customer.id)
          const calls: Array<[string, string]> = [
            ['GET', path(999)],
            ['POST', path(999)],
            ['GET', recordPath(id, 999)],
            ...c.writes.map((m): [string, string] => [m, recordPath(id, 999)]),
            ['GET', path(0)],
            ['GET', `/api/customers/abc/${c.name}/`],
          ]
          await expectEach(calls, f.membersToken, 404, () => notFound)
        })

        test("another customer's record is 404 under this customer, for every method, and stays as it was", async () => {
          const id = await c.make(f.other.id)
          const before = await read(id, f.other.id)
          const calls = ['GET', ...c.writes].map((m): [string, string] => [m, recordPath(id)])
          await expectEach(calls, t.seed.adminToken, 404, () => notFound)
          expect(await read(id, f.other.id)).toEqual(before)
          expect((await t.request('GET', path(), { token: t.seed.adminToken })).body.count).toBe(0)
        })

        test('an unknown or malformed record id is 404', async () => {
          await c.make(f.customer.id)
          const calls = [999, 0, -1, 'abc'].flatMap((id) =>
            ['GET', ...c.writes].map((m): [string, string] => [m, recordPath(id)]),
          )
          await expectEach(calls, f.membersToken, 404, () => notFound)
        })

        test('a method the collection does not offer is 405, after authentication', async () => {
          const id = await c.make(f.customer.id)
          const calls: Array<[string, string]> = [
            ...notOffered.map((m): [string, string] => [m, recordPath(id)]),
            ['PUT', path()],
            ['PATCH', path()],
            ['DELETE', path()],
          ]
          await expectEach(calls, t.seed.adminToken, 405, methodNotAllowed)
          for (const [method, url] of calls) expectUnauthenticated(await t.request(method, url))
        })
      }),
  }
}
