import { beforeEach, describe, expect, test } from 'bun:test'
import type { StaffUser } from '../../../src/db/schema.ts'
import { forbidden } from '../../helpers/bodies.ts'
import { makeDoorCustomer, makeMembershipFor } from '../../helpers/door-factories.ts'
import { makeUser } from '../../helpers/factories.ts'
import { logIn, useSeededApp } from '../../helpers/seeded.ts'
import { logInSession, sessionLogIn, withSession, type Session } from '../../helpers/sessions.ts'

/**
 * PIN mode: a desk signed in as a shared account makes each change as the staff member whose email
 * and PIN it sends (X-Staff-Email, X-Staff-PIN); a pin_mode_required account's session must.
 */

const t = useSeededApp()
const PASSWORD = 'correct horse battery'
const DESK = 'counter@gym.example'
const ANA = 'ana@gym.example'
const BEN = 'ben@gym.example'
const ANA_PIN = '4321'
let desk: StaffUser
let ana: StaffUser
let ben: StaffUser

const wrongPin = { detail: 'Wrong staff email or PIN.' }
const incomplete = { detail: 'PIN mode needs both X-Staff-Email and X-Staff-PIN.' }
const pinRequired = {
  detail:
    "This desk is in PIN mode: each change needs the acting staff member's email and PIN (X-Staff-Email and X-Staff-PIN).",
}
const throttledFor = (seconds: number) => ({
  detail: `Request was throttled. Expected available in ${seconds} seconds.`,
})

beforeEach(async () => {
  // The shared desk account may do nothing but scan; Ana may manage members; Ben has no PIN.
  desk = await makeUser(t.db, { email: DESK, password: PASSWORD, pin_mode_required: 1 })
  ana = await makeUser(t.db, { email: ANA, first_name: 'Ana', last_name: 'Lopez', can_manage_members: 1 })
  ben = await makeUser(t.db, { email: BEN, can_manage_members: 1 })
  const res = await t.request('PATCH', `/api/users/${ana.id}/`, {
    token: t.seed.adminToken,
    body: { pin: ANA_PIN },
  })
  expect(res.body.has_pin).toBe(true)
})

const freeEntry = async (session: Session, headers: Record<string, string> = {}) => {
  const customer = await makeDoorCustomer(t.db, `FREE${crypto.randomUUID().slice(0, 8)}`)
  return withSession(t, session, 'POST', `/api/gym-endpoints/free-entry-check-in/${customer.id}/`, {
    body: { free_entry_reason: 'Birthday' },
    headers,
  })
}
const asAna = (pin = ANA_PIN, email = ANA) => ({ 'x-staff-email': email, 'x-staff-pin': pin })

describe('a pin_mode_required account logs in to a session in PIN mode', () => {
  test('the login answer and my-account say pin_mode: true; a token or an ordinary session says false', async () => {
    const res = await sessionLogIn(t, DESK, PASSWORD)
    expect(res.body.pin_mode).toBe(true)
    const session = await logInSession(t, DESK, PASSWORD)
    expect((await withSession(t, session, 'GET', '/api/my-account/')).body.pin_mode).toBe(true)
    const token = (await logIn(t, DESK, PASSWORD)).body.token
    expect((await t.request('GET', '/api/my-account/', { token })).body.pin_mode).toBe(false)
    await makeUser(t.db, { email: 'plain@gym.example', password: PASSWORD })
    expect((await sessionLogIn(t, 'plain@gym.example', PASSWORD)).body.pin_mode).toBe(false)
  })

  test('an unsafe request without a PIN is 403 with what it needs, and records nothing', async () => {
    const session = await logInSession(t, DESK, PASSWORD)
    const res = await freeEntry(session)
    expect({ status: res.status, body: res.body }).toEqual({ status: 403, body: pinRequired })
    expect(await t.db.selectFrom('check_ins').selectAll().execute()).toEqual([])
  })

  test("with the acting member's PIN the change is made as them and recorded as theirs", async () => {
    const session = await logInSession(t, DESK, PASSWORD)
    const res = await freeEntry(session, asAna())
    expect(res.status).toBe(201)
    expect(res.body.free_entry_granting_user_id).toBe(ana.id)
    expect([
      res.body.free_entry_granting_user_first_name,
      res.body.free_entry_granting_user_last_name,
    ]).toEqual(['Ana', 'Lopez'])
  })

  test("the acting member's permissions apply, not the desk account's", async () => {
    await t.request('PATCH', `/api/users/${ana.id}/`, {
      token: t.seed.adminToken,
      body: { can_manage_members: false },
    })
    const session = await logInSession(t, DESK, PASSWORD)
    const res = await freeEntry(session, asAna())
    expect({ status: res.status, body: res.body }).toEqual({ status: 403, body: forbidden })
  })

  test("reads, the door's scan and logout need no PIN", async () => {
    const session = await logInSession(t, DESK, PASSWORD)
    expect((await withSession(t, session, 'GET', '/api/customers/')).status).toBe(200)
    const member = await makeDoorCustomer(t.db, 'SCAN-1')
    await makeMembershipFor(t.db, member.id)
    const scan = await withSession(t, session, 'POST', '/api/gym-endpoints/barcode-check-in/SCAN-1/', {
      body: {},
      headers: asAna('0000'),
    })
    expect(scan.status).toBe(200)
    // The scan is the door's, recorded as the account signed in: the PIN headers are ignored.
    expect(await t.db.selectFrom('check_ins').select('customer_id').execute()).toEqual([
      { customer_id: member.id },
    ])
    expect((await withSession(t, session, 'POST', '/api/logout/')).status).toBe(204)
  })

  test("the desk's check-ins take the door's decision, and no PIN: by barcode and by customer", async () => {
    await makeUser(t.db, {
      email: 'front@gym.example',
      password: PASSWORD,
      pin_mode_required: 1,
      can_manage_members: 1,
    })
    const session = await logInSession(t, 'front@gym.example', PASSWORD)
    const member = await makeDoorCustomer(t.db, 'DESK-1')
    await makeMembershipFor(t.db, member.id)
    const scan = await withSession(t, session, 'POST', '/api/customers/check-in-by-barcode/', {
      body: { barcode: 'DESK-1' },
    })
    expect(scan.status).toBe(201)
    const cardless = await makeDoorCustomer(t.db, 'DESK-2')
    await makeMembershipFor(t.db, cardless.id)
    const byId = await withSession(t, session, 'POST', `/api/customers/${cardless.id}/check-in/`, {
      body: {},
    })
    expect(byId.status).toBe(201)
    // A change that is the desk's word still asks for the PIN.
    expect((await freeEntry(session)).body).toEqual(pinRequired)
  })
})

describe('refused PINs', () => {
  test('a wrong PIN, an unknown email, a member without a PIN: the same 403, nothing recorded', async () => {
    const session = await logInSession(t, DESK, PASSWORD)
    for (const headers of [asAna('9999'), asAna(ANA_PIN, 'nobody@gym.example'), asAna(ANA_PIN, BEN)]) {
      const res = await freeEntry(session, headers)
      expect({ status: res.status, body: res.body }).toEqual({ status: 403, body: wrongPin })
    }
    expect(await t.db.selectFrom('check_ins').selectAll().execute()).toEqual([])
  })

  test("an inactive member's right PIN is refused the same way", async () => {
    await t.db.updateTable('staff_users').set({ is_active: 0 }).where('id', '=', ana.id).execute()
    t.deps.tokenCache.clear()
    const res = await freeEntry(await logInSession(t, DESK, PASSWORD), asAna())
    expect({ status: res.status, body: res.body }).toEqual({ status: 403, body: wrongPin })
  })

  test('one header without the other is 403', async () => {
    const session = await logInSession(t, DESK, PASSWORD)
    const halves: Record<string, string>[] = [{ 'x-staff-email': ANA }, { 'x-staff-pin': ANA_PIN }]
    for (const headers of halves) {
      const res = await freeEntry(session, headers)
      expect({ status: res.status, body: res.body }).toEqual({ status: 403, body: incomplete })
    }
  })

  test('ten wrong PINs for one email within 15 minutes: 429 with Retry-After, even with the right PIN', async () => {
    const session = await logInSession(t, DESK, PASSWORD)
    for (let i = 0; i < 10; i++) expect((await freeEntry(session, asAna(`000${i}`))).status).toBe(403)
    const res = await freeEntry(session, asAna())
    expect({ status: res.status, body: res.body }).toEqual({ status: 429, body: throttledFor(900) })
    expect(res.headers.get('retry-after')).toBe('900')
    t.clock.advance(15 * 60_000)
    expect((await freeEntry(session, asAna())).status).toBe(201)
  })

  test('PIN mode works on a token too, and the token user may act as another', async () => {
    const token = (await logIn(t, DESK, PASSWORD)).body.token
    const customer = await makeDoorCustomer(t.db, 'TOK-1')
    const res = await t.request('POST', `/api/gym-endpoints/free-entry-check-in/${customer.id}/`, {
      token,
      body: { free_entry_reason: 'Birthday' },
      headers: asAna(),
    })
    expect(res.status).toBe(201)
    expect(res.body.free_entry_granting_user_id).toBe(ana.id)
    const without = await t.request('POST', `/api/gym-endpoints/free-entry-check-in/${customer.id}/`, {
      token,
      body: { free_entry_reason: 'Birthday' },
    })
    expect({ status: without.status, body: without.body }).toEqual({ status: 403, body: forbidden })
  })
})
