import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import {
  renewMembership,
  type RenewableMembership,
  type RenewalOutcome,
} from '../../../src/core/memberships/renew.ts'
import { openDatabase, type Connection, type Db } from '../../../src/db/connection.ts'
import { migrateToLatest } from '../../../src/db/migrator.ts'
import type { MembershipStatus } from '../../../src/db/schema.ts'
import { START } from '../../helpers/app.ts'
import { makeCustomer } from '../../helpers/customer-factories.ts'
import { seedBasics } from '../../helpers/factories.ts'
import { makeCustomerMembership, makeMembershipType } from '../../helpers/product-factories.ts'

/*
 * renewMembership (src/core/memberships/renew.ts), as a sale's MRE line and a settled payment call
 * it, on a membership stored as each case says and read as the caller read it.
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

describe('renewMembership: where a renewal leaves the membership', () => {
  const AT = '2026-11-22T15:04:05.123Z'
  const TODAY = '2026-11-22'

  interface Case {
    name: string
    stored: { status: MembershipStatus; start_date: string; end_date: string | null }
    /** What the caller read; the stored row unless said */
    read?: Partial<RenewableMembership>
    interval?: RenewableMembership['interval']
    outcome: RenewalOutcome
    /** renewMembership's answer, then the membership's status and next bill date, and its history */
    changed: boolean
    status: MembershipStatus
    endDate: string | null
    history: Array<[from: MembershipStatus | null, to: MembershipStatus]>
  }

  const cases: Case[] = [
    {
      name: 'paid: the next bill date moves on one month; an active one records no change',
      stored: { status: 'ACT', start_date: '2026-10-22', end_date: '2026-11-22' },
      outcome: 'paid',
      changed: true,
      status: 'ACT',
      endDate: '2026-12-22',
      history: [],
    },
    {
      name: 'paid from the 31st in a short month: back to the 31st where the month has one',
      stored: { status: 'ACT', start_date: '2027-01-31', end_date: '2027-02-28' },
      outcome: 'paid',
      changed: true,
      status: 'ACT',
      endDate: '2027-03-31',
      history: [],
    },
    {
      name: 'paid with no bill date on record: one period after the start',
      stored: { status: 'ACT', start_date: '2026-11-20', end_date: null },
      interval: 'WEE',
      outcome: 'paid',
      changed: true,
      status: 'ACT',
      endDate: '2026-11-27',
      history: [],
    },
    {
      name: 'paid after a failed renewal: active again, the change dated today',
      stored: { status: 'PAF', start_date: '2026-09-15', end_date: '2026-11-15' },
      outcome: 'paid',
      changed: true,
      status: 'ACT',
      endDate: '2026-12-15',
      history: [['PAF', 'ACT']],
    },
    {
      name: 'processing: waits in PPR, its bill date where it was',
      stored: { status: 'ACT', start_date: '2026-10-22', end_date: '2026-11-22' },
      outcome: 'processing',
      changed: true,
      status: 'PPR',
      endDate: '2026-11-22',
      history: [['ACT', 'PPR']],
    },
    {
      name: 'failed: PAF, its bill date where it was',
      stored: { status: 'ACT', start_date: '2026-10-22', end_date: '2026-11-22' },
      outcome: 'failed',
      changed: true,
      status: 'PAF',
      endDate: '2026-11-22',
      history: [['ACT', 'PAF']],
    },
    {
      name: 'failed again: still PAF, no second change recorded',
      stored: { status: 'PAF', start_date: '2026-10-22', end_date: '2026-11-22' },
      outcome: 'failed',
      changed: true,
      status: 'PAF',
      endDate: '2026-11-22',
      history: [],
    },
    {
      name: 'renewed first by another sale (the bill date read has moved on): nothing changes',
      stored: { status: 'ACT', start_date: '2026-10-22', end_date: '2026-12-22' },
      read: { end_date: '2026-11-22' },
      outcome: 'paid',
      changed: false,
      status: 'ACT',
      endDate: '2026-12-22',
      history: [],
    },
    {
      name: 'frozen since it was read: nothing changes',
      stored: { status: 'FRZ', start_date: '2026-10-22', end_date: '2026-11-22' },
      read: { status: 'ACT' },
      outcome: 'paid',
      changed: false,
      status: 'FRZ',
      endDate: '2026-11-22',
      history: [],
    },
  ]

  test.each(cases.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const membership = await makeCustomerMembership(db, {
      membership_type_id: typeId,
      owner_id: 1,
      ...c.stored,
      changed_on: c.stored.start_date,
    })
    const changed = await renewMembership(
      db,
      {
        id: membership.id,
        interval: c.interval ?? 'MON',
        ...c.stored,
        ...c.read,
      },
      c.outcome,
      { today: TODAY, at: AT, changedById: 1 },
    )
    expect(changed).toBe(c.changed)
    const row = await db
      .selectFrom('customer_memberships')
      .select(['status', 'end_date', 'updated_at'])
      .where('id', '=', membership.id)
      .executeTakeFirstOrThrow()
    expect(row).toEqual({ status: c.status, end_date: c.endDate, updated_at: c.changed ? AT : START })
    const later = await db
      .selectFrom('membership_status_changes')
      .select(['from_status', 'to_status', 'changed_on', 'changed_by_id', 'created_at'])
      .where('customer_membership_id', '=', membership.id)
      .where('from_status', 'is not', null)
      .execute()
    expect(later).toEqual(
      c.history.map(([from, to]) => ({
        from_status: from,
        to_status: to,
        changed_on: TODAY,
        changed_by_id: 1,
        created_at: AT,
      })),
    )
  })
})
