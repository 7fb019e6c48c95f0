/**
 * A sale sent many times at once, against the built executable over real HTTP, where a renewal was
 * found charged and applied once for every copy: each renewal pays one period, once, and a sale
 * retried with one Idempotency-Key is recorded once and answered with that sale every time.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { DateTime } from 'luxon'
import { getToken, removeTempDirs, request, startServer, stopAll, type Server } from './helpers.ts'

const ADMIN_EMAIL = 'manager@crag.example'
const ADMIN_PASSWORD = 'one-period-paid-once'
/** The organization's today: the server starts in UTC. */
const today = () => DateTime.utc().toISODate()!
const daysFromToday = (days: number) => DateTime.utc().plus({ days }).toISODate()!

let server: Server
let token: string
let customerId: number
let weeklyId: number

beforeAll(async () => {
  server = await startServer({
    env: { BELAY_ADMIN_EMAIL: ADMIN_EMAIL, BELAY_ADMIN_PASSWORD: ADMIN_PASSWORD },
  })
  token = await getToken(server.base, ADMIN_EMAIL, ADMIN_PASSWORD)
  weeklyId = await create('/api/memberships/', {
    name: 'Weekly',
    status: 'ACT',
    purchase_type: 'REC',
    interval: 'WEE',
    price: '20.00',
  })
  customerId = await create('/api/customers/', {
    first_name: 'Lynn',
    last_name: 'Hill',
    birthday: '1961-01-03',
  })
})

afterAll(async () => {
  await stopAll()
  removeTempDirs()
})

/** POST with the admin's token, answered 201 (else the test fails with the answer), the body's id. */
async function create(path: string, json: unknown): Promise<number> {
  const res = await request(server.base, 'POST', path, { token, json })
  expect({ path, status: res.status, body: res.body }).toEqual({ path, status: 201, body: res.body })
  return res.body.id
}

/** A weekly membership billed today: its period from today is due. */
const membershipDueToday = () =>
  create('/api/customer-memberships/', {
    membership_id: weeklyId,
    owner_id: customerId,
    start_date: daysFromToday(-28),
    end_date: today(),
  })

const nextBillDate = async (id: number) =>
  (await request(server.base, 'GET', `/api/customer-memberships/${id}/`, { token })).body.end_date

const sell = (membershipId: number, headers: Record<string, string> = {}) =>
  request(server.base, 'POST', '/api/invoices/', {
    token,
    headers,
    json: {
      customer_id: customerId,
      line_items: [{ purchase_type: 'MRE', customer_membership_id: membershipId }],
      payments: [{ payment_type: 'OFF', amount: '20.00' }],
    },
  })

describe('POST /api/invoices/ sent many times at once over HTTP', () => {
  test('twenty renewals of one membership: one recorded, the bill date moved one week', async () => {
    const id = await membershipDueToday()
    const answers = await Promise.all(Array.from({ length: 20 }, () => sell(id)))
    expect(answers.filter((res) => res.status === 201)).toHaveLength(1)
    const paidUntil = daysFromToday(7)
    for (const res of answers.filter((res) => res.status !== 201)) {
      expect({ status: res.status, body: res.body }).toEqual({
        status: 400,
        body: {
          line_items: [
            {
              customer_membership_id: [
                `This membership is already paid until ${paidUntil}. To pay ahead, name the period: period_start "${paidUntil}".`,
              ],
            },
          ],
        },
      })
    }
    expect(await nextBillDate(id)).toBe(paidUntil)
    const sold = await request(server.base, 'GET', `/api/invoices/?customer_id=${customerId}`, { token })
    const renewals = sold.body.results.filter(
      (invoice: any) => invoice.line_items[0].customer_membership_id === id,
    )
    expect(renewals).toHaveLength(1)
    expect(renewals[0].line_items[0].period_start).toBe(today())
  })

  test('ten copies of one sale with one Idempotency-Key: one recorded, each answered with it', async () => {
    const id = await membershipDueToday()
    const key = crypto.randomUUID()
    const answers = await Promise.all(Array.from({ length: 10 }, () => sell(id, { 'idempotency-key': key })))
    expect(answers.map((res) => res.status)).toEqual(Array(10).fill(201))
    const first = answers.find((res) => res.headers.get('idempotent-replayed') === null)!
    expect(answers.filter((res) => res.headers.get('idempotent-replayed') === 'true')).toHaveLength(9)
    for (const res of answers) expect(res.body).toEqual(first.body)
    expect(await nextBillDate(id)).toBe(daysFromToday(7))
  })
})
