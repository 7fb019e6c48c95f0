/**
 * Two guards of the desk, against the built executable over real HTTP, where they were found broken:
 * a guest check-in sent many times at once records one check-in and uses one guest pass, and logins
 * posted from another site's page are refused before they count, so they lock nobody out.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { getToken, removeTempDirs, request, startServer, stopAll, type Server } from './helpers.ts'

const ADMIN_EMAIL = 'manager@crag.example'
const ADMIN_PASSWORD = 'hidden-forms-lock-nobody-out'

let server: Server
let token: string

beforeAll(async () => {
  server = await startServer({
    env: { BELAY_ADMIN_EMAIL: ADMIN_EMAIL, BELAY_ADMIN_PASSWORD: ADMIN_PASSWORD },
  })
  token = await getToken(server.base, ADMIN_EMAIL, ADMIN_PASSWORD)
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

describe('guest check-in over HTTP', () => {
  let hostId: number
  let guestId: number
  const guestCheckIn = (guest: number, host: number) =>
    request(server.base, 'POST', `/api/gym-endpoints/guest-check-in/${guest}/`, {
      token,
      json: { host_customer_id: host },
    })

  beforeAll(async () => {
    const org = await request(server.base, 'PATCH', '/api/organization/', {
      token,
      json: { waiver_required: false },
    })
    expect(org.status).toBe(200)
    const typeId = await create('/api/memberships/', {
      name: 'Adult Monthly',
      status: 'ACT',
      purchase_type: 'REC',
      interval: 'MON',
      price: '60.00',
      guest_passes_per_month: 4,
    })
    hostId = await create('/api/customers/', {
      first_name: 'Alex',
      last_name: 'Honnold',
      birthday: '1985-08-17',
    })
    guestId = await create('/api/customers/', {
      first_name: 'Tommy',
      last_name: 'Caldwell',
      birthday: '1978-08-11',
    })
    await create('/api/customer-memberships/', {
      membership_id: typeId,
      owner_id: hostId,
      start_date: '2020-01-01',
    })
  })

  test('a member as their own guest is 400 at host_customer_id and records nothing', async () => {
    const res = await guestCheckIn(hostId, hostId)
    expect({ status: res.status, body: res.body }).toEqual({
      status: 400,
      body: { host_customer_id: ['A customer cannot be their own guest.'] },
    })
    const checkIns = await request(server.base, 'GET', '/api/check-ins/', { token })
    expect(checkIns.body.count).toBe(0)
  })

  test('eight of one guest sent at once: one 201, seven 400, one check-in, one pass used', async () => {
    const answers = await Promise.all(Array.from({ length: 8 }, () => guestCheckIn(guestId, hostId)))
    expect(answers.map((r) => r.status).sort()).toEqual([201, 400, 400, 400, 400, 400, 400, 400])
    for (const res of answers.filter((r) => r.status === 400)) {
      expect(res.body).toEqual({
        non_field_errors: ['This customer already checked in at this location within the last 5 minutes.'],
      })
    }
    const checkIns = await request(server.base, 'GET', '/api/check-ins/', { token })
    expect(checkIns.body.count).toBe(1)
    expect(checkIns.body.results[0]).toMatchObject({
      customer_id: guestId,
      entry_method: 'GUE',
      entry_method_description: 'Guest of Alex Honnold',
    })
  })
})

describe('get-token from another site over HTTP', () => {
  const crossSiteRefused = {
    detail: "Logins from another site's page are refused: log in from this box's own page.",
  }
  const hiddenFormPost = (password: string) =>
    request(server.base, 'POST', '/api/get-token/', {
      body: new URLSearchParams({ username: ADMIN_EMAIL, password }).toString(),
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        origin: 'https://evil.example',
        'sec-fetch-site': 'cross-site',
      },
    })

  test('eleven hidden form posts are 403 and throttle nothing: the desk page and curl still log in', async () => {
    for (let i = 0; i < 11; i++) {
      const res = await hiddenFormPost(`guess ${i}`)
      expect({ status: res.status, body: res.body }).toEqual({ status: 403, body: crossSiteRefused })
    }
    const desk = await request(server.base, 'POST', '/api/get-token/', {
      json: { username: ADMIN_EMAIL, password: ADMIN_PASSWORD },
      headers: { origin: server.base, 'sec-fetch-site': 'same-origin' },
    })
    expect(desk.status).toBe(200)
    expect(desk.body).toEqual({ token: expect.stringMatching(/^[0-9a-f]{40}$/) })
    expect(await getToken(server.base, ADMIN_EMAIL, ADMIN_PASSWORD)).toMatch(/^[0-9a-f]{40}$/)
  })
})
