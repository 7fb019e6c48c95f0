import { describe, expect, test } from 'bun:test'
import { ONE_MINUTE_LATER, ORIGIN, START } from '../../helpers/app.ts'
import { blank, invalidEmail, maxLength, notNull, onePage, required } from '../../helpers/bodies.ts'
import { customerRecordSuite, useCustomerRecordFixture } from '../../helpers/customer-record-checks.ts'
import { makeEmergencyContact } from '../../helpers/customer-record-factories.ts'
import { type RefusedPost, testEachRefusedPost, useSeededApp } from '../../helpers/seeded.ts'

/**
 * /api/customers/<customer_id>/emergency-contacts/: list, read, create,
 * replace, update; no DELETE. first_name, last_name and telephone are required and not blank;
 * email (a valid address or blank) and relation are optional. Order: 401 -> 400 -> 403 -> 404/405
 * -> success.
 */

const t = useSeededApp()
const f = useCustomerRecordFixture(t)

const valid = () => ({ first_name: 'Beth', last_name: 'Rodden', telephone: '+1 720 555 0199' })

const suite = customerRecordSuite(t, f, {
  name: 'emergency-contacts',
  table: 'customer_emergency_contacts',
  valid,
  make: async (customerId) => (await makeEmergencyContact(t.db, customerId)).id,
  writes: ['PUT', 'PATCH'],
})
const { recordPath, post, read, count: contactCount } = suite

/** The whole record as the API answers it: the factory's contact, then overrides. */
function contactBody(id: number, fields: Record<string, unknown> = {}) {
  return {
    id,
    url: `${ORIGIN}${recordPath(id)}`,
    first_name: 'Dana',
    last_name: 'Rivera',
    telephone: '+1 303 555 0100',
    email: '',
    relation: '',
    created_at: START,
    updated_at: START,
    ...fields,
  }
}

suite.describeUnauthenticated()

describe('emergency-contacts 400', () => {
  test('POST with an empty body needs first_name, last_name and telephone', async () => {
    const res = await post({})
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ first_name: required, last_name: required, telephone: required })
    expect(await contactCount()).toBe(0)
  })

  const cases: RefusedPost[] = [
    ['a blank first_name', { first_name: '' }, { first_name: blank }],
    ['a blank last_name', { last_name: '' }, { last_name: blank }],
    ['a blank telephone', { telephone: '' }, { telephone: blank }],
    ['a null telephone', { telephone: null }, { telephone: notNull }],
    ['a first_name of 151 characters', { first_name: 'x'.repeat(151) }, { first_name: maxLength(150) }],
    ['a telephone of 65 characters', { telephone: '5'.repeat(65) }, { telephone: maxLength(64) }],
    ['an invalid email', { email: 'not-an-email' }, { email: invalidEmail }],
    ['a null email', { email: null }, { email: notNull }],
    ['a null relation', { relation: null }, { relation: notNull }],
    ['a relation of 151 characters', { relation: 'x'.repeat(151) }, { relation: maxLength(150) }],
  ]

  testEachRefusedPost(cases, { post, count: contactCount, base: valid })

  test('every failing field is reported in one body', async () => {
    const res = await post({ first_name: '', last_name: 'Rodden', email: 'x@' })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ first_name: blank, telephone: required, email: invalidEmail })
  })

  test('PUT needs first_name, last_name and telephone', async () => {
    const contact = await makeEmergencyContact(t.db, f.customer.id)
    const res = await t.request('PUT', recordPath(contact.id), {
      token: f.membersToken,
      body: { email: 'dana@example.com' },
    })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ first_name: required, last_name: required, telephone: required })
    expect(await read(contact.id)).toEqual(contactBody(contact.id))
  })

  test('PATCH with a bad value changes nothing', async () => {
    const contact = await makeEmergencyContact(t.db, f.customer.id)
    const res = await t.request('PATCH', recordPath(contact.id), {
      token: f.membersToken,
      body: { first_name: 'Renamed', telephone: '' },
    })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ telephone: blank })
    expect(await read(contact.id)).toEqual(contactBody(contact.id))
  })
})

suite.describeForbidden()
suite.describeNotFoundAndNotAllowed()

describe('emergency-contacts success', () => {
  test('POST with the required fields only: email and relation are blank', async () => {
    const res = await post(valid())
    expect(res.status).toBe(201)
    expect(res.body).toEqual(
      contactBody(res.body.id, { first_name: 'Beth', last_name: 'Rodden', telephone: '+1 720 555 0199' }),
    )
    expect(await read(res.body.id)).toEqual(res.body)
  })

  test('POST by an admin with every field', async () => {
    const res = await post({ ...valid(), email: 'beth@example.com', relation: 'Sister' }, t.seed.adminToken)
    expect(res.status).toBe(201)
    expect(res.body).toEqual(
      contactBody(res.body.id, {
        first_name: 'Beth',
        last_name: 'Rodden',
        telephone: '+1 720 555 0199',
        email: 'beth@example.com',
        relation: 'Sister',
      }),
    )
  })

  test('POST with a blank email and relation is accepted', async () => {
    const res = await post({ ...valid(), email: '', relation: '' })
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({ email: '', relation: '' })
  })

  test('PUT replaces the sent fields; updated_at moves', async () => {
    const contact = await makeEmergencyContact(t.db, f.customer.id, { email: 'dana@example.com' })
    t.clock.advance(60_000)
    const res = await t.request('PUT', recordPath(contact.id), {
      token: f.membersToken,
      body: { ...valid(), relation: 'Friend' },
    })
    expect(res.status).toBe(200)
    expect(res.body).toEqual(
      contactBody(contact.id, {
        first_name: 'Beth',
        last_name: 'Rodden',
        telephone: '+1 720 555 0199',
        email: 'dana@example.com',
        relation: 'Friend',
        updated_at: ONE_MINUTE_LATER,
      }),
    )
  })

  test('PATCH changes only the sent fields, and may blank the email', async () => {
    const contact = await makeEmergencyContact(t.db, f.customer.id, { email: 'dana@example.com' })
    t.clock.advance(60_000)
    const res = await t.request('PATCH', recordPath(contact.id), {
      token: f.membersToken,
      body: { telephone: '+1 303 555 0111', email: '' },
    })
    expect(res.status).toBe(200)
    expect(res.body).toEqual(
      contactBody(contact.id, { telephone: '+1 303 555 0111', updated_at: ONE_MINUTE_LATER }),
    )
  })

  test("the list holds this customer's contacts only, in id order", async () => {
    const first = await makeEmergencyContact(t.db, f.customer.id)
    await makeEmergencyContact(t.db, f.other.id)
    const second = await makeEmergencyContact(t.db, f.customer.id, { first_name: 'Sam', relation: 'Father' })
    expect(await suite.list()).toEqual(
      onePage([contactBody(first.id), contactBody(second.id, { first_name: 'Sam', relation: 'Father' })]),
    )
  })
})
