import { beforeEach, describe, expect, test } from 'bun:test'
import type { Customer, MembershipType } from '../../../src/db/schema.ts'
import { ONE_MINUTE_LATER, ORIGIN, START } from '../../helpers/app.ts'
import {
  cannotChange,
  doesNotExist,
  invalidChoice,
  invalidDate,
  invalidInteger,
  invalidNumber,
  minValue,
  notANumber,
  onePage,
  required,
} from '../../helpers/bodies.ts'
import { makeCustomer } from '../../helpers/customer-factories.ts'
import { countRows, makeGym } from '../../helpers/factories.ts'
import { makeAddOn, makeCustomerMembership, makeMembershipType } from '../../helpers/product-factories.ts'
import {
  expectEachForbidden,
  expectEachNotAllowed,
  expectEachNotFound,
  listIds,
  testEachNeedsToken,
  useSeededApp,
  useStaff,
} from '../../helpers/seeded.ts'

const t = useSeededApp()
/** `members` writes memberships (and is the `changed_by` of what it writes); `events` cannot. */
const staff = useStaff(t, 'members', 'events')

const PATH = '/api/customer-memberships/'
/** The organization-local day of the fixed clock (08:04 in Denver). */
const TODAY = '2026-11-22'

const messages = {
  endBeforeStart: ['The end date cannot be before the start date.'],
  solo: ['This membership type is not a group type: it covers exactly its owner.'],
  statusByAction: ['The status changes only through the freeze/, unfreeze/ and cancel/ actions.'],
  freezeNotActive: { non_field_errors: ['Only an active membership can be frozen.'] },
  unfreezeNotFrozen: { non_field_errors: ['Only a frozen membership can be unfrozen.'] },
  memberNotActive: {
    non_field_errors: ['Members can be frozen or unfrozen only while the membership is active.'],
  },
  notAMember: { member_id: ['This customer is not a member of this membership.'] },
  alreadyFrozen: { member_id: ['This member is already frozen.'] },
  notFrozen: { member_id: ['This member is not frozen.'] },
  finished: { non_field_errors: ['This membership is already cancelled, ended or denied.'] },
}

let monthly: MembershipType
let family: MembershipType
let owner: Customer
let kid: Customer
let stranger: Customer

beforeEach(async () => {
  monthly = await makeMembershipType(t.db)
  family = await makeMembershipType(t.db, { name: 'Family', is_group: 1, price_cents: 12000 })
  owner = await makeCustomer(t.db, { first_name: 'Tommy', last_name: 'Caldwell' })
  kid = await makeCustomer(t.db, { first_name: 'Fitz', last_name: 'Caldwell' })
  stranger = await makeCustomer(t.db, { first_name: 'Lynn', last_name: 'Hill' })
  await makeAddOn(t.db, { id: 'locker', name: 'Locker' })
  await makeAddOn(t.db, { id: 'chalk', name: 'Chalk' })
})

const member = (c: Customer, fields: Record<string, unknown> = {}) => ({
  customer_id: c.id,
  customer_url: `${ORIGIN}/api/customers/${c.id}/`,
  first_name: c.first_name,
  last_name: c.last_name,
  is_frozen: false,
  add_ons: [],
  ...fields,
})

const change = (
  from: string | null,
  to: string,
  changed_on: string,
  member_customer_id: number | null = null,
) => ({
  from_status: from,
  to_status: to,
  changed_on,
  member_customer_id,
})

/** The whole record for the factory's default: a monthly solo membership of `owner` since 2026-01-01. */
function membershipBody(id: number, fields: Record<string, unknown> = {}) {
  return {
    id,
    url: `${ORIGIN}/api/customer-memberships/${id}/`,
    membership_id: monthly.id,
    membership_name: 'Monthly Adult',
    membership_url: `${ORIGIN}/api/memberships/${monthly.id}/`,
    owner_id: owner.id,
    owner_url: `${ORIGIN}/api/customers/${owner.id}/`,
    owner_first_name: 'Tommy',
    owner_last_name: 'Caldwell',
    status: 'ACT',
    start_date: '2026-01-01',
    end_date: null,
    billing_location_id: null,
    billing_location_name: null,
    billing_location_url: null,
    has_payment_method: false,
    is_pending_staff_approval: false,
    billing_amount: '0.00',
    referring_customer_id: null,
    members: [member(owner)],
    status_history: [change(null, 'ACT', '2026-01-01')],
    created_at: START,
    updated_at: START,
    ...fields,
  }
}

const solo = (fields: Record<string, unknown> = {}) =>
  makeCustomerMembership(t.db, { membership_type_id: monthly.id, owner_id: owner.id, ...fields })
const group = (fields: Record<string, unknown> = {}) =>
  makeCustomerMembership(t.db, {
    membership_type_id: family.id,
    owner_id: owner.id,
    members: [{ customer_id: owner.id }, { customer_id: kid.id }],
    ...fields,
  })

const read = async (id: number) =>
  (await t.request('GET', `${PATH}${id}/`, { token: t.seed.staffToken })).body
const act = (id: number, action: string, body: unknown = {}, token = staff.members.token) =>
  t.request('POST', `${PATH}${id}/${action}/`, { token, body })
const counts = async () => ({
  memberships: await countRows(t.db, 'customer_memberships'),
  members: await countRows(t.db, 'membership_members'),
  addOns: await countRows(t.db, 'membership_member_add_ons'),
  changes: await countRows(t.db, 'membership_status_changes'),
})
const nothing = { memberships: 0, members: 0, addOns: 0, changes: 0 }

describe('/api/customer-memberships/ 401', () => {
  const routes = [
    ['GET', PATH],
    ['GET', `${PATH}1/`],
    ['POST', PATH],
    ['PATCH', `${PATH}1/`],
    ['POST', `${PATH}1/freeze/`],
    ['POST', `${PATH}1/unfreeze/`],
    ['POST', `${PATH}1/cancel/`],
  ] as const
  testEachNeedsToken(t, routes)
})

describe('/api/customer-memberships/ 400 on create', () => {
  const post = (body: unknown) => t.request('POST', PATH, { token: staff.members.token, body })
  const valid = () => ({ membership_id: monthly.id, owner_id: owner.id, start_date: '2026-11-01' })

  test('an empty body reports membership_id, owner_id and start_date', async () => {
    const res = await post({})
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ membership_id: required, owner_id: required, start_date: required })
    expect(await counts()).toEqual(nothing)
  })

  test('unknown records and bad values are reported together, in field order', async () => {
    const res = await post({
      membership_id: 999,
      owner_id: 998,
      start_date: '2026-11-01',
      end_date: '2026-10-31',
      billing_location_id: 997,
      has_payment_method: 'x',
      billing_amount: '-5',
      member_ids: [owner.id, 996],
      add_on_ids: ['locker', 'nope'],
      referring_customer_id: 995,
      status: 'NEW',
    })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({
      membership_id: doesNotExist(999),
      owner_id: doesNotExist(998),
      end_date: messages.endBeforeStart,
      billing_location_id: doesNotExist(997),
      has_payment_method: ['Must be a valid boolean.'],
      billing_amount: minValue(0),
      member_ids: doesNotExist(996),
      add_on_ids: doesNotExist('nope'),
      referring_customer_id: doesNotExist(995),
      status: invalidChoice('NEW'),
    })
    expect(await counts()).toEqual(nothing)
  })

  // Changes are functions: the customers exist only once each test has started.
  const cases: Array<[string, () => Record<string, unknown>, Record<string, unknown>]> = [
    ['a start date that is not a date', () => ({ start_date: '2026-13-01' }), { start_date: invalidDate }],
    [
      'a solo type covering two people',
      () => ({ member_ids: [owner.id, kid.id] }),
      { member_ids: messages.solo },
    ],
    ['a solo type covering someone else', () => ({ member_ids: [kid.id] }), { member_ids: messages.solo }],
    [
      'member_ids that is not a list',
      () => ({ member_ids: 5 }),
      { member_ids: ['Expected a list of items but got type "int".'] },
    ],
    ['a member id that is not a number', () => ({ member_ids: ['x'] }), { member_ids: invalidInteger }],
  ]
  for (const [name, changes, errors] of cases) {
    test(`${name} is 400 and stores nothing`, async () => {
      const res = await post({ ...valid(), ...changes() })
      expect(res.status).toBe(400)
      expect(res.body).toEqual(errors)
      expect(await counts()).toEqual(nothing)
    })
  }

  test('a group type needs at least one member, each listed once', async () => {
    for (const [ids, errors] of [
      [[], ['This list may not be empty.']],
      [[kid.id, kid.id], [`Customer ${kid.id} is listed more than once.`]],
    ] as const) {
      const res = await post({ ...valid(), membership_id: family.id, member_ids: ids })
      expect(res.status).toBe(400)
      expect(res.body).toEqual({ member_ids: errors })
    }
    expect(await counts()).toEqual(nothing)
  })

  test('bad list filters are 400', async () => {
    const res = await t.request('GET', `${PATH}?owner_id=x&membership_id=y`, { token: t.seed.staffToken })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ owner_id: notANumber, membership_id: notANumber })
  })
})

describe('/api/customer-memberships/ 400 on PATCH', () => {
  test('fixed fields cannot change, the status changes only by action, end not before start', async () => {
    const m = await solo()
    t.clock.advance(60_000)
    const res = await t.request('PATCH', `${PATH}${m.id}/`, {
      token: staff.members.token,
      body: {
        membership_id: family.id,
        owner_id: kid.id,
        start_date: '2026-02-01',
        status: 'CAN',
        end_date: '2025-12-31',
        billing_location_id: 999,
        billing_amount: 'lots',
      },
    })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({
      end_date: messages.endBeforeStart,
      billing_location_id: doesNotExist(999),
      billing_amount: invalidNumber,
      membership_id: cannotChange,
      owner_id: cannotChange,
      start_date: cannotChange,
      status: messages.statusByAction,
    })
    expect(await read(m.id)).toEqual(membershipBody(m.id))
  })
})

describe('/api/customer-memberships/ 400 on actions (nothing changes, no history row)', () => {
  const refused = async (id: number, action: string, body: unknown, errors: unknown) => {
    const before = await read(id)
    const res = await act(id, action, body)
    expect(res.status).toBe(400)
    expect(res.body).toEqual(errors)
    expect(await read(id)).toEqual(before)
  }

  test('freeze/: only an active membership; one member must be a member, not yet frozen', async () => {
    for (const status of ['FRZ', 'FPR', 'PAF', 'PAY', 'CAN', 'END']) {
      const m = await solo({ status })
      await refused(m.id, 'freeze', {}, messages.freezeNotActive)
    }
    const m = await group()
    await refused(m.id, 'freeze', { member_id: stranger.id }, messages.notAMember)
    await refused(m.id, 'freeze', { member_id: 999 }, { member_id: doesNotExist(999) })
    await refused(m.id, 'freeze', { member_id: 'x' }, { member_id: invalidInteger })
    await t.db
      .updateTable('membership_members')
      .set({ is_frozen: 1 })
      .where('customer_id', '=', kid.id)
      .execute()
    await refused(m.id, 'freeze', { member_id: kid.id }, messages.alreadyFrozen)
    const frozen = await group({ status: 'FRZ' })
    await refused(frozen.id, 'freeze', { member_id: owner.id }, messages.memberNotActive)
    await refused(
      frozen.id,
      'freeze',
      { member_id: stranger.id },
      { ...messages.notAMember, ...messages.memberNotActive },
    )
  })

  test('unfreeze/: only a frozen membership; one member must be frozen, in an active membership', async () => {
    for (const status of ['ACT', 'PAF', 'CAN']) {
      const m = await solo({ status })
      await refused(m.id, 'unfreeze', { member_id: null }, messages.unfreezeNotFrozen)
    }
    const m = await group()
    await refused(m.id, 'unfreeze', { member_id: kid.id }, messages.notFrozen)
    await refused(m.id, 'unfreeze', { member_id: stranger.id }, messages.notAMember)
    const frozen = await group({ status: 'FRZ' })
    await t.db.updateTable('membership_members').set({ is_frozen: 1 }).execute()
    await refused(frozen.id, 'unfreeze', { member_id: kid.id }, messages.memberNotActive)
  })

  test('cancel/: not from CAN, END or DEN', async () => {
    for (const status of ['CAN', 'END', 'DEN']) {
      const m = await solo({ status, end_date: '2026-06-30' })
      await refused(m.id, 'cancel', {}, messages.finished)
    }
  })
})

describe('/api/customer-memberships/ actions sent at the same instant: one is applied', () => {
  const changedMeanwhile = {
    non_field_errors: [
      'This membership was changed by another request while this one was recorded; nothing was changed.',
    ],
  }
  /** Ten of the same action at once: one 200, and each other refused as already done or changed meanwhile. */
  const raced = async (id: number, action: string, body: unknown, alreadyDone: unknown) => {
    const answers = await Promise.all(Array.from({ length: 10 }, () => act(id, action, body)))
    expect(answers.filter((res) => res.status === 200)).toHaveLength(1)
    for (const res of answers.filter((res) => res.status !== 200)) {
      expect(res.status).toBe(400)
      expect([changedMeanwhile, alreadyDone]).toContainEqual(res.body)
    }
  }
  const historyOf = async (id: number) =>
    (await read(id)).status_history.map((row: { from_status: string | null; to_status: string }) => [
      row.from_status,
      row.to_status,
    ])

  test('freeze/, unfreeze/ and cancel/ each change the membership once, with one history row', async () => {
    const m = await solo()
    await raced(m.id, 'freeze', {}, messages.freezeNotActive)
    await raced(m.id, 'unfreeze', {}, messages.unfreezeNotFrozen)
    await raced(m.id, 'cancel', {}, messages.finished)
    expect(await historyOf(m.id)).toEqual([
      [null, 'ACT'],
      ['ACT', 'FRZ'],
      ['FRZ', 'ACT'],
      ['ACT', 'CAN'],
    ])
  })

  test('one member frozen and unfrozen: each once, with one history row naming them', async () => {
    const m = await group()
    await raced(m.id, 'freeze', { member_id: kid.id }, messages.alreadyFrozen)
    await raced(m.id, 'unfreeze', { member_id: kid.id }, messages.notFrozen)
    expect(await historyOf(m.id)).toEqual([
      [null, 'ACT'],
      ['ACT', 'FRZ'],
      ['FRZ', 'ACT'],
    ])
  })

  test('a freeze beside a cancel: whichever is first is applied, the other refused', async () => {
    const m = await solo()
    const [freeze, cancel] = await Promise.all([act(m.id, 'freeze'), act(m.id, 'cancel')])
    expect([freeze.status, cancel.status].sort()).toEqual([200, 400])
    expect(await historyOf(m.id)).toHaveLength(2)
  })
})

describe('/api/customer-memberships/ 403, 404 and 405', () => {
  test('without can_manage_members nobody creates, changes or acts', async () => {
    const m = await solo()
    const body = { membership_id: monthly.id }
    await expectEachForbidden(
      t,
      [t.seed.staffToken, staff.events.token],
      [
        ['POST', PATH, body],
        ['PATCH', `${PATH}${m.id}/`, body],
        ['POST', `${PATH}${m.id}/freeze/`, body],
        ['POST', `${PATH}${m.id}/unfreeze/`, body],
        ['POST', `${PATH}${m.id}/cancel/`, body],
      ],
    )
    expect(await read(m.id)).toEqual(membershipBody(m.id))
  })

  test('unknown ids are 404 for reads, PATCH and actions; PUT and DELETE are 405', async () => {
    await expectEachNotFound(t, staff.members.token, [
      ['GET', `${PATH}999/`],
      ['PATCH', `${PATH}999/`, {}],
      ['POST', `${PATH}999/freeze/`, {}],
      ['POST', `${PATH}999/unfreeze/`, {}],
      ['POST', `${PATH}999/cancel/`, {}],
      ['POST', `${PATH}abc/cancel/`, {}],
    ])
    const m = await solo()
    await expectEachNotAllowed(t, t.seed.adminToken, [
      ['PUT', `${PATH}${m.id}/`, {}],
      ['DELETE', `${PATH}${m.id}/`, {}],
    ])
  })
})

describe('/api/customer-memberships/ success', () => {
  test('list: newest start first, then newest record; filters', async () => {
    const uptown = await makeGym(t.db, { name: 'Uptown' })
    const older = await solo({ start_date: '2025-05-01' })
    const a = await solo({ start_date: '2026-03-01', status: 'FRZ', billing_location_id: uptown.id })
    const b = await group({ start_date: '2026-03-01' })
    const theirs = await solo({ owner_id: stranger.id, start_date: '2024-01-01', status: 'CAN' })
    const ids = listIds(t, PATH)
    expect(await ids()).toEqual([b.id, a.id, older.id, theirs.id])
    expect(await ids(`owner_id=${stranger.id}`)).toEqual([theirs.id])
    expect(await ids('status=frz')).toEqual([a.id])
    expect(await ids(`membership_id=${family.id}`)).toEqual([b.id])
    expect(await ids(`billing_location_id=${uptown.id}`)).toEqual([a.id])
    const page = await t.request('GET', `${PATH}?owner_id=${stranger.id}`, { token: t.seed.staffToken })
    expect(page.body).toEqual(
      onePage([
        membershipBody(theirs.id, {
          owner_id: stranger.id,
          owner_url: `${ORIGIN}/api/customers/${stranger.id}/`,
          owner_first_name: 'Lynn',
          owner_last_name: 'Hill',
          status: 'CAN',
          start_date: '2024-01-01',
          members: [member(stranger)],
          status_history: [change(null, 'CAN', '2024-01-01')],
        }),
      ]),
    )
  })

  test('POST with the required fields: the owner alone, ACT since the (past) start, the type price', async () => {
    const res = await t.request('POST', PATH, {
      token: staff.members.token,
      body: { membership_id: monthly.id, owner_id: owner.id, start_date: '2026-01-01' },
    })
    expect(res.status).toBe(201)
    expect(res.body).toEqual(membershipBody(res.body.id, { billing_amount: '65.00' }))
    expect(await read(res.body.id)).toEqual(res.body)
    const history = await t.db.selectFrom('membership_status_changes').selectAll().execute()
    expect(history).toEqual([
      {
        id: expect.any(Number),
        customer_membership_id: res.body.id,
        member_customer_id: null,
        from_status: null,
        to_status: 'ACT',
        changed_on: '2026-01-01',
        changed_by_id: staff.members.id,
        created_at: START,
      },
    ])
  })

  test('POST a group membership with every field: listed members (owner not covered), add-ons on each', async () => {
    const partner = await makeCustomer(t.db, { first_name: 'Becca', last_name: 'Caldwell' })
    const res = await t.request('POST', PATH, {
      token: t.seed.adminToken,
      body: {
        membership_id: family.id,
        owner_id: owner.id,
        start_date: '2026-12-01',
        end_date: '2027-11-30',
        billing_location_id: t.seed.gym.id,
        member_ids: [kid.id, partner.id],
        add_on_ids: ['locker', 'chalk', 'locker'],
        has_payment_method: true,
        is_pending_staff_approval: true,
        billing_amount: 99.5,
        referring_customer_id: stranger.id,
        status: 'PAY',
      },
    })
    expect(res.status).toBe(201)
    const addOns = [
      { id: 'chalk', name: 'Chalk' },
      { id: 'locker', name: 'Locker' },
    ]
    expect(res.body).toEqual(
      membershipBody(res.body.id, {
        membership_id: family.id,
        membership_name: 'Family',
        membership_url: `${ORIGIN}/api/memberships/${family.id}/`,
        status: 'PAY',
        start_date: '2026-12-01',
        end_date: '2027-11-30',
        billing_location_id: t.seed.gym.id,
        billing_location_name: 'Boulder Barn Downtown',
        billing_location_url: `${ORIGIN}/api/gyms/${t.seed.gym.id}/`,
        has_payment_method: true,
        is_pending_staff_approval: true,
        billing_amount: '99.50',
        referring_customer_id: stranger.id,
        members: [member(kid, { add_ons: addOns }), member(partner, { add_ons: addOns })],
        // The start is in the future: the first status is recorded today.
        status_history: [change(null, 'PAY', TODAY)],
      }),
    )
    expect(await counts()).toEqual({ memberships: 1, members: 2, addOns: 4, changes: 1 })
  })

  test('a prepaid membership bills nothing unless told', async () => {
    const prepaid = await makeMembershipType(t.db, { name: 'Ten Weeks', purchase_type: 'PRE', interval: '' })
    const res = await t.request('POST', PATH, {
      token: staff.members.token,
      body: { membership_id: prepaid.id, owner_id: owner.id, start_date: TODAY, member_ids: [owner.id] },
    })
    expect(res.body).toMatchObject({ billing_amount: '0.00', status_history: [change(null, 'ACT', TODAY)] })
  })

  test('PATCH changes billing details and the end date; fixed fields may be sent unchanged', async () => {
    const m = await solo()
    t.clock.advance(60_000)
    const res = await t.request('PATCH', `${PATH}${m.id}/`, {
      token: staff.members.token,
      body: {
        end_date: '2026-12-31',
        billing_location_id: t.seed.gym.id,
        has_payment_method: true,
        is_pending_staff_approval: false,
        billing_amount: '70',
        membership_id: monthly.id,
        owner_id: owner.id,
        start_date: '2026-01-01',
        status: 'ACT',
      },
    })
    expect(res.status).toBe(200)
    expect(res.body).toEqual(
      membershipBody(m.id, {
        end_date: '2026-12-31',
        billing_location_id: t.seed.gym.id,
        billing_location_name: 'Boulder Barn Downtown',
        billing_location_url: `${ORIGIN}/api/gyms/${t.seed.gym.id}/`,
        has_payment_method: true,
        billing_amount: '70.00',
        updated_at: ONE_MINUTE_LATER,
      }),
    )
  })

  test('freeze/ and unfreeze/ the whole membership, each dated and recorded', async () => {
    const m = await solo()
    t.clock.advance(60_000)
    const frozen = await act(m.id, 'freeze', {})
    expect(frozen.status).toBe(200)
    expect(frozen.body).toEqual(
      membershipBody(m.id, {
        status: 'FRZ',
        status_history: [change(null, 'ACT', '2026-01-01'), change('ACT', 'FRZ', TODAY)],
        updated_at: ONE_MINUTE_LATER,
      }),
    )
    // 06:30 UTC on the 23rd is still the 22nd in Denver.
    t.clock.set('2026-11-23T06:30:00.000Z')
    const thawed = await act(m.id, 'unfreeze', { member_id: null })
    expect(thawed.status).toBe(200)
    expect(thawed.body).toEqual(
      membershipBody(m.id, {
        status: 'ACT',
        status_history: [
          change(null, 'ACT', '2026-01-01'),
          change('ACT', 'FRZ', TODAY),
          change('FRZ', 'ACT', TODAY),
        ],
        updated_at: '2026-11-23T06:30:00.000Z',
      }),
    )
    t.clock.set('2026-11-23T07:00:00.000Z')
    const again = await act(m.id, 'freeze')
    expect(again.body.status_history.at(-1)).toEqual(change('ACT', 'FRZ', '2026-11-23'))
    const actors = await t.db
      .selectFrom('membership_status_changes')
      .select('changed_by_id')
      .orderBy('id')
      .execute()
    expect(actors.slice(1).map((a) => a.changed_by_id)).toEqual([
      staff.members.id,
      staff.members.id,
      staff.members.id,
    ])
  })

  test('a membership in a payment-processing or failed state can be frozen; FPR can be unfrozen', async () => {
    const processing = await solo({ status: 'PPR' })
    expect((await act(processing.id, 'freeze')).body.status_history.at(-1)).toEqual(
      change('PPR', 'FRZ', TODAY),
    )
    const freezePayment = await solo({ status: 'FPR' })
    expect((await act(freezePayment.id, 'unfreeze')).body.status_history.at(-1)).toEqual(
      change('FPR', 'ACT', TODAY),
    )
  })

  test('freeze/ and unfreeze/ one member: the flag, and a history row naming the member', async () => {
    const m = await group()
    t.clock.advance(60_000)
    const frozen = await act(m.id, 'freeze', { member_id: kid.id })
    expect(frozen.status).toBe(200)
    const history = [change(null, 'ACT', '2026-01-01'), change('ACT', 'FRZ', TODAY, kid.id)]
    const groupBody = (fields: Record<string, unknown>) =>
      membershipBody(m.id, {
        membership_id: family.id,
        membership_name: 'Family',
        membership_url: `${ORIGIN}/api/memberships/${family.id}/`,
        updated_at: ONE_MINUTE_LATER,
        ...fields,
      })
    expect(frozen.body).toEqual(
      groupBody({ members: [member(owner), member(kid, { is_frozen: true })], status_history: history }),
    )
    const thawed = await act(m.id, 'unfreeze', { member_id: kid.id })
    expect(thawed.status).toBe(200)
    expect(thawed.body).toEqual(
      groupBody({
        members: [member(owner), member(kid)],
        status_history: [...history, change('FRZ', 'ACT', TODAY, kid.id)],
      }),
    )
  })

  test('cancel/: CAN from any other status, ending today unless it ends sooner', async () => {
    const cases: Array<[Record<string, unknown>, string | null]> = [
      [{ end_date: null }, TODAY],
      [{ end_date: '2027-01-31' }, TODAY],
      [{ end_date: '2026-11-30', status: 'FRZ' }, TODAY],
      [{ end_date: '2026-11-01', status: 'PAF' }, '2026-11-01'],
      // Not started yet: it ends on its start date, never before it.
      [{ start_date: '2026-12-15', status: 'PAY' }, '2026-12-15'],
    ]
    for (const [fields, endDate] of cases) {
      const m = await solo(fields)
      const res = await act(m.id, 'cancel')
      expect(res.status).toBe(200)
      expect(res.body).toEqual(
        membershipBody(m.id, {
          ...fields,
          status: 'CAN',
          end_date: endDate,
          status_history: [
            change(null, (fields.status as string) ?? 'ACT', (fields.start_date as string) ?? '2026-01-01'),
            change((fields.status as string) ?? 'ACT', 'CAN', TODAY),
          ],
        }),
      )
    }
  })
})
