import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import {
  bringMembershipRollupCurrent,
  rebuildMembershipRollup,
} from '../../../src/core/membership-rollup/catch-up.ts'
import {
  listRollupAddOnNames,
  readRollupCounts,
  type RollupCount,
} from '../../../src/core/membership-rollup/read.ts'
import { openDatabase, type Connection, type Db } from '../../../src/db/connection.ts'
import { migrateToLatest } from '../../../src/db/migrator.ts'
import type { MembershipStatus } from '../../../src/db/schema.ts'
import { START } from '../../helpers/app.ts'
import { makeCustomer } from '../../helpers/customer-factories.ts'
import { makeGym } from '../../helpers/factories.ts'
import { makeAddOn, makeCustomerMembership, makeMembershipType } from '../../helpers/product-factories.ts'

/*
 * The daily membership rollup over a small November built here:
 *
 *   Ada   M1 Monthly, bills Downtown, ACT from 11-01, with a locker
 *         M3 Monthly, bills nowhere, association 7: PPR 11-03, PAF 11-05, ACT 11-07
 *   Ben   M2 Family (Ben and Cy), bills Uptown, ACT from 11-02
 *   Cy    member of M2 with a towel, frozen on his own 11-04, unfrozen 11-06
 *   Dee   M4 Monthly, bills Downtown: PAY 11-02, IPP 11-03, FRZ then CAN on 11-08
 *
 * Ids follow creation: Downtown 1, Uptown 2; Monthly Adult 1, Family 2.
 */

let connection: Connection
let db: Db
let ids: Awaited<ReturnType<typeof buildNovember>>

beforeEach(async () => {
  connection = openDatabase(':memory:')
  db = connection.db
  await migrateToLatest(db)
  ids = await buildNovember()
})
afterEach(() => connection.close())

async function change(
  membershipId: number,
  to: MembershipStatus,
  on: string,
  memberId: number | null = null,
) {
  await db
    .insertInto('membership_status_changes')
    .values({
      customer_membership_id: membershipId,
      member_customer_id: memberId,
      from_status: null,
      to_status: to,
      changed_on: on,
      created_at: START,
    })
    .execute()
}

async function buildNovember() {
  const downtown = await makeGym(db, { name: 'Downtown' })
  const uptown = await makeGym(db, { name: 'Uptown' })
  const monthly = await makeMembershipType(db, { name: 'Monthly Adult' })
  const family = await makeMembershipType(db, { name: 'Family', is_group: 1 })
  await makeAddOn(db, { id: 'locker', name: 'Locker' })
  await makeAddOn(db, { id: 'towel', name: 'Towel' })
  const [ada, ben, cy, dee] = await Promise.all(
    ['Ada', 'Ben', 'Cy', 'Dee'].map((first_name) => makeCustomer(db, { first_name })),
  )
  const m1 = await makeCustomerMembership(db, {
    membership_type_id: monthly.id,
    owner_id: ada!.id,
    billing_location_id: downtown.id,
    start_date: '2026-11-01',
    members: [{ customer_id: ada!.id, add_ons: ['locker'] }],
  })
  const m2 = await makeCustomerMembership(db, {
    membership_type_id: family.id,
    owner_id: ben!.id,
    billing_location_id: uptown.id,
    start_date: '2026-11-02',
    members: [{ customer_id: ben!.id }, { customer_id: cy!.id, add_ons: ['towel'] }],
  })
  await change(m2.id, 'FRZ', '2026-11-04', cy!.id)
  await change(m2.id, 'ACT', '2026-11-06', cy!.id)
  const m3 = await makeCustomerMembership(db, {
    membership_type_id: monthly.id,
    owner_id: ada!.id,
    status: 'PPR',
    start_date: '2026-11-03',
    discount_association_id: 7,
  })
  await change(m3.id, 'PAF', '2026-11-05')
  await change(m3.id, 'ACT', '2026-11-07')
  const m4 = await makeCustomerMembership(db, {
    membership_type_id: monthly.id,
    owner_id: dee!.id,
    status: 'PAY',
    billing_location_id: downtown.id,
    start_date: '2026-11-02',
  })
  await change(m4.id, 'IPP', '2026-11-03')
  await change(m4.id, 'FRZ', '2026-11-08')
  await change(m4.id, 'CAN', '2026-11-08')
  return { downtown, uptown, monthly, family, m1, m2, m3, m4, cy: cy! }
}

const NOVEMBER = Array.from({ length: 10 }, (_, i) => `2026-11-${String(i + 1).padStart(2, '0')}`)

/** The count on each of November's first ten days, 0 where the rollup has no row. */
async function series(count: Partial<RollupCount>): Promise<number[]> {
  const rows = await readRollupCounts(
    db,
    { countBy: 'memberships', statusClasses: ['active'], ...count },
    NOVEMBER[0]!,
    NOVEMBER.at(-1)!,
  )
  const byDay = new Map(rows.map((row) => [row.day, row.count]))
  return NOVEMBER.map((day) => byDay.get(day) ?? 0)
}

const everyClass = { statusClasses: ['active', 'frozen', 'payment_failed'] as const }

describe('rolling the status history into daily counts', () => {
  beforeEach(() => bringMembershipRollupCurrent(db, '2026-11-08'))

  test.each([
    // day:                                          01 02 03 04 05 06 07 08 09 10
    ['active memberships', {}, [1, 2, 4, 4, 3, 3, 4, 3, 0, 0]],
    ['payment_failed memberships', { statusClasses: ['payment_failed'] }, [0, 0, 0, 0, 1, 1, 0, 0, 0, 0]],
    // Cy's own freeze leaves the membership active.
    ['frozen memberships', { statusClasses: ['frozen'] }, [0, 0, 0, 0, 0, 0, 0, 0, 0, 0]],
    ['memberships in any class', everyClass, [1, 2, 4, 4, 4, 4, 4, 3, 0, 0]],
    ['active members', { countBy: 'members' }, [1, 3, 4, 3, 3, 4, 4, 3, 0, 0]],
    [
      'frozen members: Cy on his own',
      { countBy: 'members', statusClasses: ['frozen'] },
      [0, 0, 0, 1, 1, 0, 0, 0, 0, 0],
    ],
    // Ada is active through M1 while M3 has failed: she counts under both, once under the two together.
    [
      'payment_failed members',
      { countBy: 'members', statusClasses: ['payment_failed'] },
      [0, 0, 0, 0, 1, 1, 0, 0, 0, 0],
    ],
    ['members in any class', { countBy: 'members', ...everyClass }, [1, 3, 4, 4, 4, 4, 4, 3, 0, 0]],
    ['active memberships of one type', { membershipTypeIds: [1] }, [1, 1, 3, 3, 2, 2, 3, 2, 0, 0]],
    // Ada holds two Monthly memberships from 11-03 and counts once.
    [
      'active members of one type',
      { countBy: 'members', membershipTypeIds: [1] },
      [1, 1, 2, 2, 2, 2, 2, 1, 0, 0],
    ],
    ['memberships billing Downtown', { billingLocationIds: [1] }, [1, 1, 2, 2, 2, 2, 2, 1, 0, 0]],
    [
      'memberships billing Downtown or Uptown',
      { billingLocationIds: [1, 2] },
      [1, 2, 3, 3, 3, 3, 3, 2, 0, 0],
    ],
    [
      'memberships of association 7',
      { discountAssociationId: 7, ...everyClass },
      [0, 0, 1, 1, 1, 1, 1, 1, 0, 0],
    ],
    [
      'members of association 7',
      { countBy: 'members', discountAssociationId: 7 },
      [0, 0, 1, 1, 0, 0, 1, 1, 0, 0],
    ],
    ['active add-ons', { countBy: 'add_ons' }, [1, 2, 2, 1, 1, 2, 2, 2, 0, 0]],
    [
      'frozen add-ons: the towel of a frozen member',
      { countBy: 'add_ons', statusClasses: ['frozen'] },
      [0, 0, 0, 1, 1, 0, 0, 0, 0, 0],
    ],
    [
      'add-ons by name',
      { countBy: 'add_ons', addOnNames: ['Towel'], ...everyClass },
      [0, 1, 1, 1, 1, 1, 1, 1, 0, 0],
    ],
    // Add-ons have no association of their own: the filter is not theirs.
    [
      'add-ons ignore the association',
      { countBy: 'add_ons', discountAssociationId: 7 },
      [1, 2, 2, 1, 1, 2, 2, 2, 0, 0],
    ],
    ['an empty intersection of types', { membershipTypeIds: [] }, [0, 0, 0, 0, 0, 0, 0, 0, 0, 0]],
  ] as const)('%s', async (_name, count, expected) => {
    expect(await series(count as Partial<RollupCount>)).toEqual([...expected])
  })

  test('a recurring membership past its next bill date stays active until a change is recorded', async () => {
    await db
      .updateTable('customer_memberships')
      .set({ end_date: '2026-11-03' })
      .where('id', '=', ids.m1.id)
      .execute()
    await rebuildMembershipRollup(db, '2026-11-08')
    expect(await series({ billingLocationIds: [1] })).toEqual([1, 1, 2, 2, 2, 2, 2, 1, 0, 0])
  })

  test('the rollup says how far it has rolled, with nothing dirty', async () => {
    expect(await rollupState()).toEqual({ rolled_through: '2026-11-08', dirty_from: null })
  })
})

const rollupState = () =>
  db.selectFrom('membership_rollup_state').select(['rolled_through', 'dirty_from']).executeTakeFirstOrThrow()

/** Every row of the rollup's count tables, as text, to compare two ways of building it. */
async function rollupRows(): Promise<string[]> {
  const holdings = await db.selectFrom('membership_holdings').selectAll().orderBy('id').execute()
  const holding = new Map(
    holdings.map((h) => [
      h.id,
      `${h.membership_type_id}/${h.billing_location_id}/${h.discount_association_id}/${h.status_class}`,
    ]),
  )
  const items = await db.selectFrom('member_holding_set_items').selectAll().execute()
  const set = new Map<number, string[]>()
  for (const item of items)
    set.set(item.set_id, [...(set.get(item.set_id) ?? []), holding.get(item.holding_id)!])
  const memberships = await db.selectFrom('membership_day_counts').selectAll().execute()
  const members = await db.selectFrom('member_day_counts').selectAll().execute()
  const addOns = await db.selectFrom('add_on_day_counts').selectAll().execute()
  return [
    ...memberships.map((r) => `${r.day} memberships ${holding.get(r.holding_id)} ${r.memberships}`),
    ...members.map((r) => `${r.day} members ${set.get(r.set_id)!.sort().join('+')} ${r.members}`),
    ...addOns.map((r) => `${r.day} add-ons ${holding.get(r.holding_id)} ${r.add_on_name} ${r.add_ons}`),
  ].sort()
}

describe('the add-on names the rollup holds', () => {
  beforeEach(() => bringMembershipRollupCurrent(db, '2026-11-08'))

  test.each([
    ['all of its history, sorted', undefined, ['Locker', 'Towel']],
    [
      "11-01: only Ada's locker (the family membership starts on the 2nd)",
      ['2026-11-01', '2026-11-01'],
      ['Locker'],
    ],
    [
      'whatever the status: Cy frozen on the 4th still holds his towel',
      ['2026-11-04', '2026-11-05'],
      ['Locker', 'Towel'],
    ],
    ['days after the last one rolled hold none', ['2026-11-09', '2026-11-10'], []],
  ] as const)('%s', async (_name, days, names) => {
    const range = days ? { from: days[0], through: days[1] } : undefined
    expect(await listRollupAddOnNames(db, range)).toEqual([...names])
  })
})

describe('keeping the rollup current', () => {
  test('a billing location changed on a day counts at its new location from the last day rolled on', async () => {
    await bringMembershipRollupCurrent(db, '2026-11-07')
    await db
      .updateTable('customer_memberships')
      .set({ billing_location_id: 1 })
      .where('id', '=', ids.m2.id)
      .execute()
    expect(await rollupState()).toEqual({ rolled_through: '2026-11-07', dirty_from: '2026-11-07' })
    await bringMembershipRollupCurrent(db, '2026-11-09')
    // Family moved from Uptown to Downtown: the days rolled before keep it Uptown.
    expect(await series({ billingLocationIds: [1] })).toEqual([1, 1, 2, 2, 2, 2, 3, 2, 2, 0])
    expect(await series({ billingLocationIds: [2] })).toEqual([0, 1, 1, 1, 1, 1, 0, 0, 0, 0])
  })

  test('a back-dated status change marks its own day dirty, and the catch-up rolls again from it', async () => {
    await bringMembershipRollupCurrent(db, '2026-11-08')
    await change(ids.m1.id, 'FRZ', '2026-11-05')
    expect(await rollupState()).toEqual({ rolled_through: '2026-11-08', dirty_from: '2026-11-05' })
    await bringMembershipRollupCurrent(db, '2026-11-08')
    expect(await series({})).toEqual([1, 2, 4, 4, 2, 2, 3, 2, 0, 0])
    expect(await series({ statusClasses: ['frozen'] })).toEqual([0, 0, 0, 0, 1, 1, 1, 1, 0, 0])
    expect(await rollupState()).toEqual({ rolled_through: '2026-11-08', dirty_from: null })
  })

  test.each([
    [
      'a member added',
      async () => {
        await db
          .insertInto('membership_members')
          .values({ customer_membership_id: ids.m1.id, customer_id: ids.cy.id, is_frozen: 0 })
          .execute()
      },
    ],
    [
      'an add-on taken',
      async () => {
        const member = await db
          .selectFrom('membership_members')
          .select('id')
          .where('customer_membership_id', '=', ids.m2.id)
          .where('customer_id', '=', ids.cy.id)
          .executeTakeFirstOrThrow()
        await db
          .insertInto('membership_member_add_ons')
          .values({ membership_member_id: member.id, add_on_id: 'locker' })
          .execute()
      },
    ],
    [
      'an add-on renamed',
      async () => {
        await db.updateTable('add_ons').set({ name: 'Big Locker' }).where('id', '=', 'locker').execute()
      },
    ],
    [
      'a membership changing type',
      async () => {
        await db
          .updateTable('customer_memberships')
          .set({ membership_type_id: ids.family.id })
          .where('id', '=', ids.m1.id)
          .execute()
      },
    ],
  ])('%s marks the last day rolled dirty', async (_name, write) => {
    await bringMembershipRollupCurrent(db, '2026-11-06')
    await write()
    expect(await rollupState()).toEqual({ rolled_through: '2026-11-06', dirty_from: '2026-11-06' })
  })

  test('writes that change nothing the rollup reads leave it clean', async () => {
    await bringMembershipRollupCurrent(db, '2026-11-06')
    await db.updateTable('customer_memberships').set({ end_date: '2026-12-01', updated_at: START }).execute()
    expect(await rollupState()).toEqual({ rolled_through: '2026-11-06', dirty_from: null })
  })

  test('a change dated after the last day rolled is rolled with its day', async () => {
    await bringMembershipRollupCurrent(db, '2026-11-06')
    await change(ids.m1.id, 'FRZ', '2026-11-09')
    expect(await rollupState()).toEqual({ rolled_through: '2026-11-06', dirty_from: '2026-11-09' })
    const progress: string[] = []
    await bringMembershipRollupCurrent(db, '2026-11-10', { onProgress: (p) => progress.push(p.from) })
    expect(progress).toEqual(['2026-11-07'])
    expect(await series({ statusClasses: ['frozen'] })).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 1, 1])
  })

  test('before the first build nothing is marked: the build reads everything', async () => {
    await change(ids.m1.id, 'FRZ', '2026-11-05')
    expect(await rollupState()).toEqual({ rolled_through: null, dirty_from: null })
  })

  test('after a skipped week the catch-up rolls every missing day, as a build of them all does', async () => {
    await bringMembershipRollupCurrent(db, '2026-11-02')
    await bringMembershipRollupCurrent(db, '2026-11-10')
    expect(await series({})).toEqual([1, 2, 4, 4, 3, 3, 4, 3, 3, 3])
    const caughtUp = await rollupRows()
    await rebuildMembershipRollup(db, '2026-11-10')
    expect(await rollupRows()).toEqual(caughtUp)
  })

  test('rolled day by day, with changes recorded as the days pass, it equals a rebuild', async () => {
    for (const today of NOVEMBER) {
      if (today === '2026-11-04') await change(ids.m1.id, 'FRZ', '2026-11-04')
      // Recorded on the 8th, back-dated to the 6th.
      if (today === '2026-11-08') await change(ids.m2.id, 'PAF', '2026-11-06')
      await bringMembershipRollupCurrent(db, today)
    }
    const incremental = await rollupRows()
    expect(incremental.length).toBeGreaterThan(0)
    await rebuildMembershipRollup(db, '2026-11-10')
    expect(await rollupRows()).toEqual(incremental)
    expect(await series({ statusClasses: ['payment_failed'] })).toEqual([0, 0, 0, 0, 1, 2, 1, 1, 1, 1])
  })

  test('a clock set back rolls today again and drops the days rolled ahead of it', async () => {
    await bringMembershipRollupCurrent(db, '2026-11-10')
    await bringMembershipRollupCurrent(db, '2026-11-06')
    expect(await series({})).toEqual([1, 2, 4, 4, 3, 3, 0, 0, 0, 0])
    expect(await rollupState()).toEqual({ rolled_through: '2026-11-06', dirty_from: null })
  })

  test('a write while a catch-up is under way makes it begin again from the day the write touched', async () => {
    const rolledThrough: string[] = []
    let write: Promise<void> | undefined
    await bringMembershipRollupCurrent(db, '2026-11-10', {
      daysPerChunk: 3,
      onProgress(p) {
        rolledThrough.push(`${p.from}..${p.rolledThrough}`)
        // Between the first two chunks, as the desk might, back-dated into the chunk rolled.
        write ??= change(ids.m2.id, 'FRZ', '2026-11-02')
      },
    })
    await write
    expect(rolledThrough).toEqual([
      '2026-11-01..2026-11-03',
      '2026-11-02..2026-11-04',
      '2026-11-02..2026-11-07',
      '2026-11-02..2026-11-10',
    ])
    expect(await series({ statusClasses: ['frozen'] })).toEqual([0, 1, 1, 1, 1, 1, 1, 1, 1, 1])
    const caughtUp = await rollupRows()
    await rebuildMembershipRollup(db, '2026-11-10')
    expect(await rollupRows()).toEqual(caughtUp)
  })

  test('callers arriving during a catch-up wait for that one', async () => {
    const first = bringMembershipRollupCurrent(db, '2026-11-10')
    const second = bringMembershipRollupCurrent(db, '2026-11-10')
    expect(second).toBe(first)
    await first
    expect(bringMembershipRollupCurrent(db, '2026-11-10')).not.toBe(first)
  })

  test('progress is reported after each chunk of days', async () => {
    const progress: unknown[] = []
    await bringMembershipRollupCurrent(db, '2026-11-10', { onProgress: (p) => progress.push(p) })
    expect(progress).toEqual([
      { from: '2026-11-01', through: '2026-11-10', rolledThrough: '2026-11-10', rolled: 10, days: 10 },
    ])
  })
})
