import { describe, expect, test } from 'bun:test'
import { ONE_MINUTE_LATER, ORIGIN, START } from '../../helpers/app.ts'
import { blank, notNull, onePage, required } from '../../helpers/bodies.ts'
import { customerRecordSuite, useCustomerRecordFixture } from '../../helpers/customer-record-checks.ts'
import { makeMedicalNote } from '../../helpers/customer-record-factories.ts'
import { useSeededApp } from '../../helpers/seeded.ts'

/**
 * /api/customers/<customer_id>/medical-notes/: list, read, create, replace,
 * update; no DELETE. medical_notes is required and not blank. Order: 401 -> 400 -> 403 -> 404/405
 * -> success.
 */

const t = useSeededApp()
const f = useCustomerRecordFixture(t)

const suite = customerRecordSuite(t, f, {
  name: 'medical-notes',
  table: 'customer_medical_notes',
  valid: () => ({ medical_notes: 'Bee sting allergy; EpiPen at the front desk.' }),
  make: async (customerId) => (await makeMedicalNote(t.db, customerId)).id,
  writes: ['PUT', 'PATCH'],
})
const { recordPath, post, read, count: noteCount } = suite

function noteBody(id: number, fields: Record<string, unknown> = {}) {
  return {
    id,
    url: `${ORIGIN}${recordPath(id)}`,
    medical_notes: 'Asthma; inhaler in locker 12.',
    created_at: START,
    updated_at: START,
    ...fields,
  }
}

suite.describeUnauthenticated()

describe('medical-notes 400', () => {
  const cases: Array<[string, Record<string, unknown>, Record<string, string[]>]> = [
    ['an empty body', {}, { medical_notes: required }],
    ['a blank note', { medical_notes: '' }, { medical_notes: blank }],
    ['a null note', { medical_notes: null }, { medical_notes: notNull }],
  ]

  for (const [name, body, errors] of cases) {
    test(`POST with ${name} is 400 and creates nothing`, async () => {
      const res = await post(body)
      expect(res.status).toBe(400)
      expect(res.body).toEqual(errors)
      expect(await noteCount()).toBe(0)
    })

    test(`PUT with ${name} is 400 and changes nothing`, async () => {
      const note = await makeMedicalNote(t.db, f.customer.id)
      const res = await t.request('PUT', recordPath(note.id), { token: f.membersToken, body })
      expect(res.status).toBe(400)
      expect(res.body).toEqual(errors)
      expect(await read(note.id)).toEqual(noteBody(note.id))
    })
  }

  test('PATCH with a blank note is 400 and changes nothing', async () => {
    const note = await makeMedicalNote(t.db, f.customer.id)
    const res = await t.request('PATCH', recordPath(note.id), {
      token: f.membersToken,
      body: { medical_notes: '' },
    })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ medical_notes: blank })
    expect(await read(note.id)).toEqual(noteBody(note.id))
  })
})

suite.describeForbidden()
suite.describeNotFoundAndNotAllowed()

describe('medical-notes success', () => {
  test('POST by a can_manage_members user', async () => {
    const res = await post({ medical_notes: 'Type 1 diabetes.\nGlucose tabs in bag.' })
    expect(res.status).toBe(201)
    expect(res.body).toEqual(
      noteBody(res.body.id, { medical_notes: 'Type 1 diabetes.\nGlucose tabs in bag.' }),
    )
    expect(await read(res.body.id)).toEqual(res.body)
  })

  test('POST by an admin', async () => {
    const res = await post({ medical_notes: 'None.' }, t.seed.adminToken)
    expect(res.status).toBe(201)
    expect(res.body).toEqual(noteBody(res.body.id, { medical_notes: 'None.' }))
  })

  for (const method of ['PUT', 'PATCH']) {
    test(`${method} replaces the note; updated_at moves`, async () => {
      const note = await makeMedicalNote(t.db, f.customer.id)
      t.clock.advance(60_000)
      const res = await t.request(method, recordPath(note.id), {
        token: f.membersToken,
        body: { medical_notes: 'Recovered from shoulder surgery.' },
      })
      expect(res.status).toBe(200)
      expect(res.body).toEqual(
        noteBody(note.id, {
          medical_notes: 'Recovered from shoulder surgery.',
          updated_at: ONE_MINUTE_LATER,
        }),
      )
    })
  }

  test('an empty PATCH changes nothing but updated_at', async () => {
    const note = await makeMedicalNote(t.db, f.customer.id)
    t.clock.advance(60_000)
    const res = await t.request('PATCH', recordPath(note.id), { token: f.membersToken, body: {} })
    expect(res.status).toBe(200)
    expect(res.body).toEqual(noteBody(note.id, { updated_at: ONE_MINUTE_LATER }))
  })

  test("the list holds this customer's notes only, in id order", async () => {
    const first = await makeMedicalNote(t.db, f.customer.id)
    await makeMedicalNote(t.db, f.other.id)
    const second = await makeMedicalNote(t.db, f.customer.id, { medical_notes: 'Second note' })
    expect(await suite.list()).toEqual(
      onePage([noteBody(first.id), noteBody(second.id, { medical_notes: 'Second note' })]),
    )
  })
})
