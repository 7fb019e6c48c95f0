import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { startMembership } from '../../../src/core/memberships/start.ts'
import { openDatabase, type Connection, type Db } from '../../../src/db/connection.ts'
import { migrateToLatest } from '../../../src/db/migrator.ts'
import type { MembershipStatus } from '../../../src/db/schema.ts'
import { START } from '../../helpers/app.ts'
import { makeCustomer } from '../../helpers/customer-factories.ts'
import { seedBasics } from '../../helpers/factories.ts'
import { makeAddOn, makeMembershipType } from '../../helpers/product-factories.ts'

/*
 * startMembership (src/core/memberships/start.ts), as /api/customer-memberships/, a sale and a gift
 * call it. The organization's today is passed in, as callers read it in the organization's zone:
 * the cases name days on either side of a local midnight.
 */

let connection: Connection
let db: Db
let typeId: number

beforeEach(async () => {
  connection = openDatabase(':memory:')
  db = connection.db
  await migrateToLatest(db)
  await seedBasics(db)
  for (const first_name of ['Ada', 'Ben', 'Cy']) await makeCustomer(db, { first_name })
  typeId = (await makeMembershipType(db)).id
})
afterEach(() => connection.close())

describe('startMembership: the record, its members with add-ons, its first status change', () => {
  const start = (start_date: string, today: string, status: MembershipStatus = 'ACT') =>
    startMembership(db, {
      row: {
        membership_type_id: typeId,
        owner_id: 1,
        status,
        start_date,
        end_date: null,
        has_payment_method: 0,
        is_pending_staff_approval: 0,
        billing_amount_cents: 6500,
        created_at: START,
        updated_at: START,
      },
      memberIds: [1, 2],
      addOnIds: ['locker', 'towel'],
      today,
      changedById: 1,
    })
  const changes = (id: number) =>
    db
      .selectFrom('membership_status_changes')
      .select(['from_status', 'to_status', 'changed_on', 'member_customer_id', 'changed_by_id', 'created_at'])
      .where('customer_membership_id', '=', id)
      .execute()

  const cases: Array<[name: string, startDate: string, today: string, changedOn: string]> = [
    [
      'started on an earlier day: dated its start (an import of a running one)',
      '2026-10-01',
      '2026-11-22',
      '2026-10-01',
    ],
    ['started the day before today: dated that day', '2026-11-21', '2026-11-22', '2026-11-21'],
    ['starting today: dated today', '2026-11-22', '2026-11-22', '2026-11-22'],
    ['starting later: dated today, not its start', '2026-12-01', '2026-11-22', '2026-11-22'],
    [
      "starting on UTC's today while the organization's is still the day before: dated the organization's",
      '2026-11-22',
      '2026-11-21',
      '2026-11-21',
    ],
  ]
  test.each(cases)('%s', async (_name, startDate, today, changedOn) => {
    await makeAddOn(db, { id: 'locker', name: 'Locker' })
    await makeAddOn(db, { id: 'towel', name: 'Towel' })
    const id = await start(startDate, today)
    expect(await changes(id)).toEqual([
      {
        from_status: null,
        to_status: 'ACT',
        changed_on: changedOn,
        member_customer_id: null,
        changed_by_id: 1,
        created_at: START,
      },
    ])
  })

  test('each member listed is covered, each with every add-on', async () => {
    await makeAddOn(db, { id: 'locker', name: 'Locker' })
    await makeAddOn(db, { id: 'towel', name: 'Towel' })
    const id = await start('2026-11-22', '2026-11-22', 'IPP')
    const covered = await db
      .selectFrom('membership_members as mm')
      .leftJoin('membership_member_add_ons as a', 'a.membership_member_id', 'mm.id')
      .select(['mm.customer_id', 'mm.is_frozen', 'a.add_on_id'])
      .where('mm.customer_membership_id', '=', id)
      .orderBy('mm.customer_id')
      .orderBy('a.add_on_id')
      .execute()
    expect(covered).toEqual([
      { customer_id: 1, is_frozen: 0, add_on_id: 'locker' },
      { customer_id: 1, is_frozen: 0, add_on_id: 'towel' },
      { customer_id: 2, is_frozen: 0, add_on_id: 'locker' },
      { customer_id: 2, is_frozen: 0, add_on_id: 'towel' },
    ])
    const row = await db
      .selectFrom('customer_memberships')
      .select(['status', 'start_date', 'owner_id'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow()
    expect(row).toEqual({ status: 'IPP', start_date: '2026-11-22', owner_id: 1 })
  })
})
