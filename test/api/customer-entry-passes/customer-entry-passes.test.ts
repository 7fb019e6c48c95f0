import { beforeEach, describe, expect, test } from 'bun:test'
import type { Customer } from '../../../src/db/schema.ts'
import { ONE_MINUTE_LATER, ORIGIN, START } from '../../helpers/app.ts'
import {
  cannotChange,
  doesNotExist,
  invalidChoice,
  invalidDate,
  maxValue,
  minValue,
  notANumber,
  onePage,
  required,
} from '../../helpers/bodies.ts'
import { makeCustomer } from '../../helpers/customer-factories.ts'
import { countRows } from '../../helpers/factories.ts'
import { makeCustomerEntryPass, makeEntryPassType } from '../../helpers/product-factories.ts'
import {
  expectEachForbidden,
  expectEachNotAllowed,
  expectEachNotFound,
  testEachNeedsToken,
  useSeededApp,
  useStaff,
} from '../../helpers/seeded.ts'

const t = useSeededApp()
const staff = useStaff(t, 'members', 'events')

const PATH = '/api/customer-entry-passes/'
const count = () => countRows(t.db, 'customer_entry_passes')

let punchCard: Awaited<ReturnType<typeof makeEntryPassType>>
let owner: Customer
let parent: Customer

beforeEach(async () => {
  punchCard = await makeEntryPassType(t.db)
  owner = await makeCustomer(t.db, { first_name: 'Sasha', last_name: 'DiGiulian' })
  parent = await makeCustomer(t.db, { first_name: 'Lynn', last_name: 'Hill' })
})

function passBody(id: number, fields: Record<string, unknown> = {}) {
  return {
    id,
    url: `${ORIGIN}/api/customer-entry-passes/${id}/`,
    entry_pass_id: punchCard.id,
    entry_pass_name: '10-Punch Card',
    entry_pass_url: `${ORIGIN}/api/entry-passes/${punchCard.id}/`,
    owner_id: owner.id,
    owner_url: `${ORIGIN}/api/customers/${owner.id}/`,
    purchaser_id: null,
    purchaser_first_name: null,
    purchaser_last_name: null,
    entries_total: 10,
    entries_remaining: 10,
    expiry_date: null,
    is_expired: false,
    acquired_via: 'manual',
    created_at: START,
    updated_at: START,
    ...fields,
  }
}

const heldPass = (fields: Record<string, unknown> = {}) =>
  makeCustomerEntryPass(t.db, { entry_pass_type_id: punchCard.id, owner_id: owner.id, ...fields })

describe('/api/customer-entry-passes/ 401', () => {
  const routes = [
    ['GET', PATH],
    ['GET', `${PATH}1/`],
    ['POST', PATH],
    ['PATCH', `${PATH}1/`],
  ] as const
  testEachNeedsToken(t, routes)
})

describe('/api/customer-entry-passes/ 400', () => {
  const post = (body: unknown) => t.request('POST', PATH, { token: staff.members.token, body })

  test('an empty body reports entry_pass_id and owner_id', async () => {
    const res = await post({})
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ entry_pass_id: required, owner_id: required })
    expect(await count()).toBe(0)
  })

  test('unknown type, owner and purchaser, a bad acquired_via and expiry_date, all at once', async () => {
    const res = await post({
      entry_pass_id: 999,
      owner_id: 998,
      purchaser_id: 997,
      acquired_via: 'stolen',
      expiry_date: '2026-02-30',
    })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({
      entry_pass_id: doesNotExist(999),
      owner_id: doesNotExist(998),
      purchaser_id: doesNotExist(997),
      acquired_via: invalidChoice('stolen'),
      expiry_date: invalidDate,
    })
    expect(await count()).toBe(0)
  })

  test('PATCH: entries_remaining within 0..entries_total; type and owner cannot change', async () => {
    const held = await heldPass({ entries_total: 10, entries_remaining: 4 })
    t.clock.advance(60_000)
    const patch = (body: unknown) =>
      t.request('PATCH', `${PATH}${held.id}/`, { token: staff.members.token, body })
    const other = await makeEntryPassType(t.db, { name: 'Day Pass', number_of_entries: 1 })
    for (const [body, errors] of [
      [{ entries_remaining: 11 }, { entries_remaining: maxValue(10) }],
      [{ entries_remaining: -1 }, { entries_remaining: minValue(0) }],
      [{ expiry_date: '22/11/2026' }, { expiry_date: invalidDate }],
      [
        { entry_pass_id: other.id, owner_id: parent.id, entries_remaining: 3 },
        { entry_pass_id: cannotChange, owner_id: cannotChange },
      ],
    ] as const) {
      const res = await patch(body)
      expect(res.status).toBe(400)
      expect(res.body).toEqual(errors)
    }
    const read = await t.request('GET', `${PATH}${held.id}/`, { token: t.seed.staffToken })
    expect(read.body).toEqual(passBody(held.id, { entries_remaining: 4 }))
  })

  test('a bad owner_id filter is 400', async () => {
    const res = await t.request('GET', `${PATH}?owner_id=me`, { token: t.seed.staffToken })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ owner_id: notANumber })
  })
})

describe('/api/customer-entry-passes/ 403, 404 and 405', () => {
  test('without can_manage_members nobody writes', async () => {
    const held = await heldPass()
    await expectEachForbidden(
      t,
      [t.seed.staffToken, staff.events.token],
      [
        ['POST', PATH, { entry_pass_id: punchCard.id, owner_id: owner.id }],
        ['PATCH', `${PATH}${held.id}/`, { entries_remaining: 0 }],
      ],
    )
    expect(await count()).toBe(1)
  })

  test('unknown ids are 404; PUT and DELETE are 405', async () => {
    await expectEachNotFound(t, staff.members.token, [
      ['GET', `${PATH}999/`],
      ['PATCH', `${PATH}999/`, { entries_remaining: 1 }],
    ])
    const held = await heldPass()
    await expectEachNotAllowed(t, t.seed.adminToken, [
      ['PUT', `${PATH}${held.id}/`, {}],
      ['DELETE', `${PATH}${held.id}/`, {}],
    ])
  })
})

describe('/api/customer-entry-passes/ success', () => {
  test('any staff user lists and reads passes; owner_id filters', async () => {
    const mine = await heldPass({ purchaser_id: parent.id, acquired_via: 'gift', expiry_date: '2026-12-31' })
    const theirs = await heldPass({ owner_id: parent.id })
    const list = await t.request('GET', PATH, { token: t.seed.staffToken })
    const mineBody = passBody(mine.id, {
      purchaser_id: parent.id,
      purchaser_first_name: 'Lynn',
      purchaser_last_name: 'Hill',
      acquired_via: 'gift',
      expiry_date: '2026-12-31',
    })
    const theirsBody = passBody(theirs.id, {
      owner_id: parent.id,
      owner_url: `${ORIGIN}/api/customers/${parent.id}/`,
    })
    expect(list.body).toEqual(onePage([mineBody, theirsBody]))
    const filtered = await t.request('GET', `${PATH}?owner_id=${parent.id}`, { token: t.seed.staffToken })
    expect(filtered.body).toEqual(onePage([theirsBody]))
    const read = await t.request('GET', `${PATH}${mine.id}/`, { token: t.seed.staffToken })
    expect(read.body).toEqual(mineBody)
  })

  test("POST takes the type's entries and expires valid_days from today, counting today", async () => {
    const res = await t.request('POST', PATH, {
      token: staff.members.token,
      body: { entry_pass_id: punchCard.id, owner_id: owner.id },
    })
    expect(res.status).toBe(201)
    // 365 days counting 2026-11-22 (Denver): usable through 2027-11-21.
    expect(res.body).toEqual(passBody(res.body.id, { expiry_date: '2027-11-21' }))
    const stored = await t.db
      .selectFrom('customer_entry_passes')
      .select(['created_by_id', 'invoice_id'])
      .where('id', '=', res.body.id)
      .executeTakeFirstOrThrow()
    expect(stored.invoice_id).toBeNull()
    expect(stored.created_by_id).not.toBeNull()
  })

  test('the default expiry counts days in the organization zone, not UTC', async () => {
    const dayPass = await makeEntryPassType(t.db, { name: 'Day Pass', number_of_entries: 1, valid_days: 1 })
    // 06:30 UTC on the 23rd is still 23:30 on the 22nd in Denver.
    t.clock.set('2026-11-23T06:30:00.000Z')
    const res = await t.request('POST', PATH, {
      token: staff.members.token,
      body: { entry_pass_id: dayPass.id, owner_id: owner.id },
    })
    expect(res.body).toMatchObject({
      entries_total: 1,
      entries_remaining: 1,
      expiry_date: '2026-11-22',
      is_expired: false,
    })
    t.clock.set('2026-11-23T07:00:00.000Z')
    const next = await t.request('GET', `${PATH}${res.body.id}/`, { token: t.seed.staffToken })
    expect(next.body.is_expired).toBe(true)
  })

  test('POST with every field; a type without valid_days gives no expiry, an explicit one wins', async () => {
    const unlimited = await makeEntryPassType(t.db, {
      name: 'Forever Five',
      number_of_entries: 5,
      valid_days: null,
    })
    const res = await t.request('POST', PATH, {
      token: t.seed.adminToken,
      body: {
        entry_pass_id: unlimited.id,
        owner_id: owner.id,
        purchaser_id: parent.id,
        acquired_via: 'purchase',
      },
    })
    expect(res.status).toBe(201)
    expect(res.body).toEqual(
      passBody(res.body.id, {
        entry_pass_id: unlimited.id,
        entry_pass_name: 'Forever Five',
        entry_pass_url: `${ORIGIN}/api/entry-passes/${unlimited.id}/`,
        purchaser_id: parent.id,
        purchaser_first_name: 'Lynn',
        purchaser_last_name: 'Hill',
        entries_total: 5,
        entries_remaining: 5,
        acquired_via: 'purchase',
      }),
    )
    const dated = await t.request('POST', PATH, {
      token: staff.members.token,
      body: {
        entry_pass_id: punchCard.id,
        owner_id: owner.id,
        expiry_date: '2026-11-21',
        purchaser_id: null,
      },
    })
    expect(dated.body).toEqual(passBody(dated.body.id, { expiry_date: '2026-11-21', is_expired: true }))
    const never = await t.request('POST', PATH, {
      token: staff.members.token,
      body: { entry_pass_id: punchCard.id, owner_id: owner.id, expiry_date: null },
    })
    expect(never.body).toEqual(passBody(never.body.id))
  })

  test('PATCH sets the entries left and the expiry date; the type and owner may be sent unchanged', async () => {
    const held = await heldPass({ expiry_date: '2026-12-31' })
    t.clock.advance(60_000)
    const res = await t.request('PATCH', `${PATH}${held.id}/`, {
      token: staff.members.token,
      body: { entries_remaining: 0, expiry_date: null, entry_pass_id: punchCard.id, owner_id: owner.id },
    })
    expect(res.status).toBe(200)
    expect(res.body).toEqual(passBody(held.id, { entries_remaining: 0, updated_at: ONE_MINUTE_LATER }))
    const refill = await t.request('PATCH', `${PATH}${held.id}/`, {
      token: staff.members.token,
      body: { entries_remaining: 10, expiry_date: '2026-11-22' },
    })
    expect(refill.body).toEqual(
      passBody(held.id, { expiry_date: '2026-11-22', updated_at: ONE_MINUTE_LATER }),
    )
  })
})
