import { beforeEach, describe, expect, test } from 'bun:test'
import { forbidden, notFound } from '../../helpers/bodies.ts'
import { makeAlert } from '../../helpers/customer-factories.ts'
import {
  makeDoorCustomer,
  makeMembershipFor,
  makePassFor,
  storedCheckIns,
} from '../../helpers/door-factories.ts'
import { makeUser } from '../../helpers/factories.ts'
import { testEachNeedsTokenApart, useSeededApp, useStaff } from '../../helpers/seeded.ts'
import { logInSession, sessionLogIn, withSession, type Session } from '../../helpers/sessions.ts'

/*
 * The self check-in kiosk: customers' kiosk PINs, the kiosk's check-in (a card, or a telephone
 * number and PIN) by the door's rules, answered for a public screen, and the session locked to it.
 * The fixed clock reads 2026-11-22T15:04:05.123Z, Sunday 08:04:05 in Denver.
 */

const t = useSeededApp()
const staff = useStaff(t, 'members', 'allButMembers')

const CHECK_IN = '/api/kiosk/check-in/'
const START = '/api/kiosk/start/'
const pinPath = (id: number) => `/api/customers/${id}/kiosk-pin/`
const PASSWORD = 'correct horse battery'
const KIOSK_ONLY = {
  detail: 'This screen is a self check-in kiosk: a staff member must log in to use the desk.',
}

testEachNeedsTokenApart(t, [
  ['POST', CHECK_IN],
  ['POST', START],
  ['GET', pinPath(1)],
  ['PUT', pinPath(1)],
  ['DELETE', pinPath(1)],
])

const kioskCheckIn = (body: unknown, token = staff.members.token) =>
  t.request('POST', CHECK_IN, { token, body })
const setPin = (id: number, pin: unknown, token = staff.members.token) =>
  t.request('PUT', pinPath(id), { token, body: { pin } })

/** A member with a card, a waiver, a membership and (unless told) this telephone and kiosk PIN. */
async function member(
  barcode: string,
  fields: { first_name?: string; telephone?: string; pin?: string } = {},
) {
  const { pin, ...rest } = fields
  const c = await makeDoorCustomer(t.db, barcode, { telephone: '+1 303-555-0182', ...rest })
  await makeMembershipFor(t.db, c.id)
  if (pin !== undefined) expect((await setPin(c.id, pin)).status).toBe(200)
  return c
}

const green = (name: string, details: string[] = []) => ({
  outcome: 'admitted',
  light: 'green',
  first_name: name,
  message: `Welcome, ${name}!`,
  details,
})
const red = (name: string, details: string[]) => ({
  outcome: 'refused',
  light: 'red',
  first_name: name,
  message: `Please see the front desk, ${name}`,
  details,
})
const WRONG_PIN = {
  outcome: 'wrong_pin',
  light: 'red',
  first_name: null,
  message: 'That phone number and PIN do not match',
  details: ['Try again, or please see the front desk.'],
}
const answerOf = (res: { status: number; body: unknown }) => ({ status: res.status, body: res.body })

describe('PUT/GET/DELETE /api/customers/<id>/kiosk-pin/', () => {
  test('400: a PIN of 4 to 6 digits, and nothing changes', async () => {
    const c = await member('P1')
    for (const pin of ['123', '1234567', '12a4', ''])
      expect(answerOf(await setPin(c.id, pin))).toEqual({
        status: 400,
        body: { pin: ['Enter a PIN of 4 to 6 digits.'] },
      })
    expect(answerOf(await t.request('PUT', pinPath(c.id), { token: staff.members.token, body: {} }))).toEqual(
      {
        status: 400,
        body: { pin: ['This field is required.'] },
      },
    )
    expect((await t.request('GET', pinPath(c.id), { token: staff.members.token })).body).toEqual({
      has_kiosk_pin: false,
    })
  })

  test('403 without can_manage_members, 404 for an unknown customer', async () => {
    const c = await member('P2')
    for (const [method, body] of [
      ['GET', undefined],
      ['PUT', { pin: '1234' }],
      ['DELETE', undefined],
    ] as const) {
      const res = await t.request(method, pinPath(c.id), { token: staff.allButMembers.token, body })
      expect(answerOf(res)).toEqual({ status: 403, body: forbidden })
      const missing = await t.request(method, pinPath(999999), { token: staff.members.token, body })
      expect(answerOf(missing)).toEqual({ status: 404, body: notFound })
    }
  })

  test('set, shown only as has_kiosk_pin, kept as an argon2id hash, removed', async () => {
    const c = await member('P3')
    expect(answerOf(await setPin(c.id, '2468'))).toEqual({ status: 200, body: { has_kiosk_pin: true } })
    expect(answerOf(await t.request('GET', pinPath(c.id), { token: staff.members.token }))).toEqual({
      status: 200,
      body: { has_kiosk_pin: true },
    })
    const row = await t.db.selectFrom('customer_kiosk_pins').selectAll().executeTakeFirstOrThrow()
    expect(row.pin_hash).toStartWith('$argon2id$')
    expect(row.pin_hash).not.toContain('2468')
    const gone = await t.request('DELETE', pinPath(c.id), { token: staff.members.token })
    expect({ status: gone.status, body: gone.body }).toEqual({ status: 204, body: '' })
    expect((await t.request('GET', pinPath(c.id), { token: staff.members.token })).body).toEqual({
      has_kiosk_pin: false,
    })
    expect(answerOf(await t.request('DELETE', pinPath(c.id), { token: staff.members.token }))).toEqual({
      status: 404,
      body: notFound,
    })
  })

  test('a customer without a telephone, and a PIN the family already uses, are refused on pin', async () => {
    const loner = await member('P4', { telephone: '' })
    expect(answerOf(await setPin(loner.id, '1111'))).toEqual({
      status: 400,
      body: { pin: ["Add the customer's phone number first: the kiosk asks for it with the PIN."] },
    })
    await member('P5', { first_name: 'Mia', pin: '1357' })
    const sibling = await member('P6', { first_name: 'Sam', telephone: '(303) 555 0182' })
    expect(answerOf(await setPin(sibling.id, '1357'))).toEqual({
      status: 400,
      body: { pin: ['Someone else with this phone number has this PIN: choose another.'] },
    })
    expect((await setPin(sibling.id, '9753')).status).toBe(200)
  })
})

describe('POST /api/kiosk/check-in/ by card', () => {
  test("admits by the door's rules: 201 green with the first name only, one check-in recorded", async () => {
    const c = await member('K1', { first_name: 'Lynn' })
    expect(answerOf(await kioskCheckIn({ barcode: 'K1' }))).toEqual({ status: 201, body: green('Lynn') })
    const stored = await storedCheckIns(t.db)
    expect(stored.map((s) => [s.customer_id, s.entry_method])).toEqual([[c.id, 'MEM']])
  })

  test("the last entry on a pass is green with the desk's notice", async () => {
    const c = await makeDoorCustomer(t.db, 'K2', { first_name: 'Alex' })
    await makePassFor(t.db, c.id, { entries_remaining: 1 })
    expect(answerOf(await kioskCheckIn({ barcode: 'K2' }))).toEqual({
      status: 201,
      body: green('Alex', ['Last entry on this pass']),
    })
  })

  test('a second scan within the window is amber, already inside, and records nothing', async () => {
    await member('K3', { first_name: 'Lynn' })
    expect((await kioskCheckIn({ barcode: 'K3' })).status).toBe(201)
    expect(answerOf(await kioskCheckIn({ barcode: 'K3' }))).toEqual({
      status: 400,
      body: {
        outcome: 'already_inside',
        light: 'amber',
        first_name: 'Lynn',
        message: 'You are already checked in, Lynn.',
        details: ['Already inside since 08:04.'],
      },
    })
    expect(await storedCheckIns(t.db)).toHaveLength(1)
  })

  test('refusals are red with the reasons in words, and record nothing', async () => {
    const noWaiver = await makeDoorCustomer(t.db, 'K4', { first_name: 'Tom', waiver: false })
    await makeMembershipFor(t.db, noWaiver.id)
    expect(answerOf(await kioskCheckIn({ barcode: 'K4' }))).toEqual({
      status: 400,
      body: red('Tom', ['No signed waiver.']),
    })
    await makeDoorCustomer(t.db, 'K5', { first_name: 'Ada' })
    expect(answerOf(await kioskCheckIn({ barcode: 'K5' }))).toEqual({
      status: 400,
      body: red('Ada', ['No membership, entry pass or event booking.']),
    })
    const frozen = await makeDoorCustomer(t.db, 'K6', { first_name: 'Eve' })
    await makeMembershipFor(t.db, frozen.id, { membership: { status: 'FRZ' } })
    expect(answerOf(await kioskCheckIn({ barcode: 'K6' }))).toEqual({
      status: 400,
      body: red('Eve', ['Monthly Adult is frozen.']),
    })
    expect(await storedCheckIns(t.db)).toHaveLength(0)
  })

  test("an alert's own text is for staff: the kiosk says only that the desk must see them", async () => {
    const c = await member('K7', { first_name: 'Bo' })
    await makeAlert(t.db, c.id, { alert_text: 'Owes 40.00 for a broken harness', prevents_check_in: 1 })
    const res = await kioskCheckIn({ barcode: 'K7' })
    expect(answerOf(res)).toEqual({
      status: 400,
      body: red('Bo', ['A note on your account needs the front desk.']),
    })
    expect(JSON.stringify(res.body)).not.toContain('harness')
  })

  test('an unknown card is 404 red, naming nobody', async () => {
    expect(answerOf(await kioskCheckIn({ barcode: 'NOPE' }))).toEqual({
      status: 404,
      body: {
        outcome: 'unknown_card',
        light: 'red',
        first_name: null,
        message: 'We do not know this card',
        details: ['Please see the front desk.'],
      },
    })
  })

  test('ten simultaneous check-ins of one customer record exactly one', async () => {
    await member('K8', { first_name: 'Lynn' })
    const answers = await Promise.all(Array.from({ length: 10 }, () => kioskCheckIn({ barcode: 'K8' })))
    expect(answers.map((a) => a.status).sort()).toEqual([201, ...Array(9).fill(400)])
    expect(new Set(answers.filter((a) => a.status === 400).map((a) => a.body.outcome))).toEqual(
      new Set(['already_inside']),
    )
    expect(await storedCheckIns(t.db)).toHaveLength(1)
  })
})

describe('POST /api/kiosk/check-in/ by telephone and PIN', () => {
  test('the number is matched by its digits, whole or without its country code', async () => {
    const c = await member('T1', { first_name: 'Lynn', pin: '2468' })
    expect(answerOf(await kioskCheckIn({ telephone: '303 555 0182', pin: '2468' }))).toEqual({
      status: 201,
      body: green('Lynn'),
    })
    t.clock.advance(10 * 60 * 1000)
    expect((await kioskCheckIn({ telephone: '+1 (303) 555-0182', pin: '2468' })).status).toBe(201)
    expect((await storedCheckIns(t.db)).map((s) => s.customer_id)).toEqual([c.id, c.id])
  })

  test('a family sharing a phone: the PIN decides who checks in', async () => {
    const mia = await member('T2', { first_name: 'Mia', pin: '1111' })
    const sam = await member('T3', { first_name: 'Sam', telephone: '303.555.0182', pin: '2222' })
    expect(answerOf(await kioskCheckIn({ telephone: '3035550182', pin: '2222' }))).toEqual({
      status: 201,
      body: green('Sam'),
    })
    expect(answerOf(await kioskCheckIn({ telephone: '3035550182', pin: '1111' }))).toEqual({
      status: 201,
      body: green('Mia'),
    })
    expect((await storedCheckIns(t.db)).map((s) => s.customer_id)).toEqual([sam.id, mia.id])
  })

  test('a refusal by phone is red with its reason', async () => {
    const c = await makeDoorCustomer(t.db, 'T4', { first_name: 'Ada', telephone: '720-555-0101' })
    expect((await setPin(c.id, '4321')).status).toBe(200)
    expect(answerOf(await kioskCheckIn({ telephone: '720 555 0101', pin: '4321' }))).toEqual({
      status: 400,
      body: red('Ada', ['No membership, entry pass or event booking.']),
    })
  })

  test('a wrong PIN, a number nobody has, and a customer without a PIN are all wrong_pin', async () => {
    await member('T5', { pin: '2468' })
    await member('T6', { telephone: '720-555-0199' })
    for (const body of [
      { telephone: '3035550182', pin: '8642' },
      { telephone: '9995550000', pin: '2468' },
      { telephone: '7205550199', pin: '2468' },
    ])
      expect(answerOf(await kioskCheckIn(body))).toEqual({ status: 400, body: WRONG_PIN })
    expect(await storedCheckIns(t.db)).toHaveLength(0)
  })

  test('five wrong PINs for a number: 429 with Retry-After, even for the right PIN; other numbers go on', async () => {
    await member('T7', { first_name: 'Lynn', pin: '2468' })
    await member('T8', { first_name: 'Kai', telephone: '720-555-0123', pin: '1357' })
    for (let i = 0; i < 5; i++)
      expect((await kioskCheckIn({ telephone: '3035550182', pin: `000${i}` })).status).toBe(400)
    const throttled = await kioskCheckIn({ telephone: '303-555-0182', pin: '2468' })
    expect(answerOf(throttled)).toEqual({
      status: 429,
      body: {
        outcome: 'throttled',
        light: 'red',
        first_name: null,
        message: 'Too many wrong PINs',
        details: ['Please see the front desk, or try again in 15 minutes.'],
      },
    })
    expect(throttled.headers.get('retry-after')).toBe('900')
    expect(answerOf(await kioskCheckIn({ telephone: '7205550123', pin: '1357' }))).toEqual({
      status: 201,
      body: green('Kai'),
    })
    t.clock.advance(15 * 60 * 1000)
    expect((await kioskCheckIn({ telephone: '3035550182', pin: '2468' })).status).toBe(201)
  })

  test('twenty wrong PINs from one kiosk, whatever the numbers, stop that kiosk alone', async () => {
    await member('T9', { first_name: 'Lynn', pin: '2468' })
    for (let i = 0; i < 20; i++)
      expect(
        (await kioskCheckIn({ telephone: `72055501${String(i).padStart(2, '0')}`, pin: '0000' })).status,
      ).toBe(400)
    expect((await kioskCheckIn({ telephone: '3035550182', pin: '2468' })).status).toBe(429)
    const other = await makeUser(t.db, {
      can_manage_members: 1,
      email: 'other-kiosk@gym.example',
      password: PASSWORD,
    })
    const session = await logInSession(t, other.email, PASSWORD)
    const res = await withSession(t, session, 'POST', CHECK_IN, {
      body: { telephone: '3035550182', pin: '2468' },
    })
    expect(answerOf(res)).toEqual({ status: 201, body: green('Lynn') })
  })

  test("400 in DRF's words for what is missing or too much, changing nothing", async () => {
    const cases: [unknown, unknown][] = [
      [{}, { non_field_errors: ['Scan a card, or enter a phone number and PIN.'] }],
      [
        { barcode: 'K1', telephone: '3035550182' },
        { non_field_errors: ['Send a card, or a phone number and PIN, not both.'] },
      ],
      [{ telephone: '3035550182' }, { pin: ['This field is required.'] }],
      [{ pin: '1234' }, { telephone: ['This field is required.'] }],
      [{ barcode: '' }, { barcode: ['This field may not be blank.'] }],
      [
        { barcode: 'K1', location_id: 999999 },
        { location_id: ['Invalid pk "999999" - object does not exist.'] },
      ],
    ]
    await member('K1')
    for (const [body, expected] of cases)
      expect({ sent: body, ...answerOf(await kioskCheckIn(body)) }).toEqual({
        sent: body,
        status: 400,
        body: expected,
      })
    expect(await storedCheckIns(t.db)).toHaveLength(0)
  })
})

describe('the kiosk session', () => {
  let session: Session
  const EMAIL = 'front@gym.example'
  beforeEach(async () => {
    await makeUser(t.db, { email: EMAIL, password: PASSWORD, can_manage_members: 1 })
    session = await logInSession(t, EMAIL, PASSWORD)
  })

  test('only a session with can_manage_members can become a kiosk', async () => {
    expect(answerOf(await t.request('POST', START, { token: staff.members.token, body: {} }))).toEqual({
      status: 403,
      body: {
        detail: "Only a browser session can become a kiosk: start it from the desk page's Kiosk screen.",
      },
    })
    await makeUser(t.db, { email: 'scanner@gym.example', password: PASSWORD })
    const scanner = await logInSession(t, 'scanner@gym.example', PASSWORD)
    expect(answerOf(await withSession(t, scanner, 'POST', START, { body: {} }))).toEqual({
      status: 403,
      body: forbidden,
    })
    expect((await withSession(t, scanner, 'GET', '/api/my-account/')).body.kiosk).toBe(false)
  })

  test('a kiosk session may check in, read its account and log out; anything else is 403', async () => {
    expect((await withSession(t, session, 'GET', '/api/my-account/')).body.kiosk).toBe(false)
    expect(answerOf(await withSession(t, session, 'POST', START, { body: {} }))).toEqual({
      status: 200,
      body: { kiosk: true },
    })
    const account = await withSession(t, session, 'GET', '/api/my-account/')
    expect({ status: account.status, kiosk: account.body.kiosk }).toEqual({ status: 200, kiosk: true })
    await member('L1', { first_name: 'Lynn' })
    expect(answerOf(await withSession(t, session, 'POST', CHECK_IN, { body: { barcode: 'L1' } }))).toEqual({
      status: 201,
      body: green('Lynn'),
    })
    const c = await member('L2')
    for (const [method, path, body] of [
      ['GET', '/api/customers/', undefined],
      ['GET', `/api/customers/${c.id}/`, undefined],
      ['POST', '/api/customers/', { first_name: 'X', last_name: 'Y' }],
      ['POST', '/api/customers/check-in-by-barcode/', { barcode: 'L2' }],
      ['GET', '/api/gyms/', undefined],
      ['GET', '/api/users/', undefined],
      ['PATCH', '/api/my-account/', { first_name: 'Hacked' }],
      ['PUT', pinPath(c.id), { pin: '1234' }],
      ['GET', '/api/kiosk/check-in/../../customers/', undefined],
    ] as const)
      expect({ method, path, ...answerOf(await withSession(t, session, method, path, { body })) }).toEqual({
        method,
        path,
        status: 403,
        body: KIOSK_ONLY,
      })
    expect((await withSession(t, session, 'POST', '/api/logout/')).status).toBe(204)
    expect((await withSession(t, session, 'GET', '/api/my-account/')).status).toBe(401)
  })

  test('a staff login on the same browser replaces the kiosk session', async () => {
    expect((await withSession(t, session, 'POST', START, { body: {} })).status).toBe(200)
    const login = await sessionLogIn(t, EMAIL, PASSWORD, {
      headers: { cookie: `sessionid=${session.key}; csrftoken=${session.csrf}` },
    })
    expect({ status: login.status, kiosk: login.body.kiosk }).toEqual({ status: 200, kiosk: false })
    expect((await withSession(t, session, 'GET', '/api/my-account/')).status).toBe(401)
    const desk = await logInSession(t, EMAIL, PASSWORD)
    expect((await withSession(t, desk, 'GET', '/api/customers/')).status).toBe(200)
  })

  test('a wrong staff password on the kiosk leaves it a kiosk', async () => {
    expect((await withSession(t, session, 'POST', START, { body: {} })).status).toBe(200)
    const login = await sessionLogIn(t, EMAIL, 'not the password', {
      headers: { cookie: `sessionid=${session.key}; csrftoken=${session.csrf}` },
    })
    expect(login.status).toBe(400)
    expect((await withSession(t, session, 'GET', '/api/my-account/')).body.kiosk).toBe(true)
    expect(answerOf(await withSession(t, session, 'GET', '/api/customers/'))).toEqual({
      status: 403,
      body: KIOSK_ONLY,
    })
  })
})
