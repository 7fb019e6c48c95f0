import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { sql } from 'kysely'
import {
  bringCheckInMetricsCurrent,
  CHECK_INS_PER_CHUNK,
  recountCheckInMetrics,
} from '../../../src/core/metrics/tables/check-in-catch-up.ts'
import type { Connection, Db } from '../../../src/db/connection.ts'
import { makeCheckIn } from '../../helpers/check-in-factories.ts'
import { makeCustomer } from '../../helpers/customer-factories.ts'
import { makeGym } from '../../helpers/factories.ts'
import { openVisitsDatabase } from '../../helpers/visits-database.ts'
import {
  makeCustomerEntryPass,
  makeCustomerMembership,
  makeEntryPassType,
  makeMembershipType,
} from '../../helpers/product-factories.ts'

/*
 * The check-in metrics' tables are kept by a catch-up, not by the door: a check-in is written
 * alone, and bringCheckInMetricsCurrent counts every check-in written since it last ran before a
 * metric reads them. Deleting or moving a check-in keeps the tables by triggers whether it has
 * been counted yet or not. The gyms are in America/Denver: noon there is 18:00Z in summer.
 */

let connection: Connection
let db: Db
let gymId: number
let ada: number
let ben: number
let membershipTypeId: number
let adaMembershipId: number

beforeEach(async () => {
  ;({ connection, db, gymId, ada, ben } = await openVisitsDatabase())
  membershipTypeId = (await makeMembershipType(db)).id
  adaMembershipId = (
    await makeCustomerMembership(db, { membership_type_id: membershipTypeId, owner_id: ada })
  ).id
})
afterEach(() => connection.close())

/** A check-in of Ada's membership at `time` UTC on `day`, her first-ever unless `count` says. */
const adaVisit = (day: string, time = '18:00', count = 1) =>
  makeCheckIn(db, {
    customer_id: ada,
    gym_id: gymId,
    customer_membership_id: adaMembershipId,
    check_in_count: count,
    at: `${day}T${time}:00.000Z`,
  })

const dayCounts = () =>
  db
    .selectFrom('check_in_day_counts')
    .select(['local_date', 'entry_method', 'product_id', 'check_ins', 'first_check_ins'])
    .where('check_ins', '>', 0)
    .orderBy('local_date')
    .orderBy('entry_method')
    .execute()

/** A day's row of check-ins with Ada's membership type: `checkIns`, `first` of them first-ever. */
const membershipDay = (local_date: string, checkIns: number, first: number) => ({
  local_date,
  entry_method: 'MEM' as const,
  product_id: membershipTypeId,
  check_ins: checkIns,
  first_check_ins: first,
})

const localTimes = () =>
  db.selectFrom('check_in_local_times').selectAll().orderBy('local_date').orderBy('local_time').execute()

const countedThrough = async () =>
  (await db.selectFrom('check_in_metrics_state').select('counted_through').executeTakeFirstOrThrow())
    .counted_through

const remove = (id: number) => db.deleteFrom('check_ins').where('id', '=', id).execute()

const moveTo = (id: number, day: string) =>
  db
    .updateTable('check_ins')
    .set({ local_date: day, created_at: `${day}T18:00:00.000Z` })
    .where('id', '=', id)
    .execute()

/** Every row of the five tables, as the metrics would read them (a day's count of 0 is no row). */
async function metricTables(from: Db) {
  const all = (table: string, order: string) =>
    sql.raw(`SELECT * FROM ${table} ORDER BY ${order}`).execute(from)
  return {
    localTimes: (await all('check_in_local_times', '1, 2, 3')).rows,
    dayCounts: (
      await sql`SELECT * FROM check_in_day_counts WHERE check_ins > 0 ORDER BY 1, 2, 3, 4`.execute(from)
    ).rows,
    firstUses: (await all('product_first_uses', '1, 2, 3')).rows,
    firstVisitDays: (await all('customer_first_visit_days', '1')).rows,
    sameDay: (await all('same_day_check_ins', '1, 2, 3')).rows,
  }
}

/** The five tables counted afresh from every check-in there is, leaving the database as it was. */
async function recounted() {
  let tables: Awaited<ReturnType<typeof metricTables>> | undefined
  const rolledBack = new Error('rolled back')
  await db
    .transaction()
    .execute(async (trx) => {
      await recountCheckInMetrics(trx)
      tables = await metricTables(trx)
      throw rolledBack
    })
    .catch((error) => {
      if (error !== rolledBack) throw error
    })
  return tables!
}

describe('the check-in metrics catch-up', () => {
  test('a check-in is counted once, when the tables are brought current, not when it is written', async () => {
    const first = await adaVisit('2026-08-10')
    await adaVisit('2026-08-10', '20:00', 2)
    await adaVisit('2026-08-11', '18:00', 3)
    expect(await dayCounts()).toEqual([])
    expect(await localTimes()).toEqual([])
    expect(await countedThrough()).toBe(0)

    await bringCheckInMetricsCurrent(db)
    const counted = [membershipDay('2026-08-10', 2, 1), membershipDay('2026-08-11', 1, 0)]
    expect(await dayCounts()).toEqual(counted)
    const atTheGym = {
      gym_id: gymId,
      entry_method: 'MEM' as const,
      product_id: membershipTypeId,
      customer_id: ada,
    }
    expect(await localTimes()).toEqual([
      {
        local_date: '2026-08-10',
        local_time: '12:00:00',
        check_in_id: first.id,
        ...atTheGym,
        check_in_count: 1,
      },
      {
        local_date: '2026-08-10',
        local_time: '14:00:00',
        check_in_id: first.id + 1,
        ...atTheGym,
        check_in_count: 2,
      },
      {
        local_date: '2026-08-11',
        local_time: '12:00:00',
        check_in_id: first.id + 2,
        ...atTheGym,
        check_in_count: 3,
      },
    ])
    expect(await countedThrough()).toBe(first.id + 2)
    expect(await db.selectFrom('product_first_uses').selectAll().execute()).toEqual([
      {
        customer_id: ada,
        product_type: 'membership',
        product_id: membershipTypeId,
        used_at: '2026-08-10T18:00:00.000Z',
        customer_membership_id: adaMembershipId,
      },
    ])

    // Nothing new: nothing counted twice.
    await bringCheckInMetricsCurrent(db)
    expect(await dayCounts()).toEqual(counted)
  })

  test('a counted check-in moved or deleted leaves its day; one not counted yet is counted where it is by then', async () => {
    const counted = await adaVisit('2026-08-10')
    const alsoCounted = await adaVisit('2026-08-10', '20:00', 2)
    await bringCheckInMetricsCurrent(db)
    const notYet = await adaVisit('2026-08-10', '21:00', 3)
    const removedBeforeCounting = await adaVisit('2026-08-10', '22:00', 4)

    await moveTo(counted.id, '2026-08-12')
    await remove(alsoCounted.id)
    await moveTo(notYet.id, '2026-08-13')
    await remove(removedBeforeCounting.id)
    // The counted ones have left 2026-08-10 already.
    expect(await dayCounts()).toEqual([membershipDay('2026-08-12', 1, 1)])

    await bringCheckInMetricsCurrent(db)
    expect(await dayCounts()).toEqual([membershipDay('2026-08-12', 1, 1), membershipDay('2026-08-13', 1, 0)])
  })

  test('the newest check-in deleted after counting: the next one takes its id and is still counted', async () => {
    await adaVisit('2026-08-10')
    const newest = await adaVisit('2026-08-11', '18:00', 2)
    await bringCheckInMetricsCurrent(db)
    await remove(newest.id)
    expect(await countedThrough()).toBe(newest.id - 1)

    const next = await adaVisit('2026-08-12', '18:00', 2)
    // SQLite gives a new row the largest id there is plus one: the deleted one's.
    expect(next.id).toBe(newest.id)
    await bringCheckInMetricsCurrent(db)
    expect(await dayCounts()).toEqual([membershipDay('2026-08-10', 1, 1), membershipDay('2026-08-12', 1, 0)])
  })

  test('more check-ins than a chunk are counted a chunk at a time, with a check-in written between chunks', async () => {
    const total = CHECK_INS_PER_CHUNK * 2 + 500
    await sql`
      WITH RECURSIVE n (i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${total})
      INSERT INTO check_ins (customer_id, gym_id, entry_method, customer_membership_id, entry_method_description,
        free_entry_reason, converted_from_free_entry, milestone_list, check_in_count, local_date, local_time,
        created_at, updated_at)
      SELECT CASE i % 2 WHEN 0 THEN ${ada} ELSE ${ben} END, ${gymId}, 'MEM', ${adaMembershipId}, 'Monthly Adult',
        '', 0, '[]', i, date('2026-01-01', '+' || (i / 10) || ' days'), '12:00:00',
        date('2026-01-01', '+' || (i / 10) || ' days') || 'T18:00:00.000Z',
        date('2026-01-01', '+' || (i / 10) || ' days') || 'T18:00:00.000Z'
      FROM n`.execute(db)
    const chunksCounted: number[] = []
    const catchingUp = bringCheckInMetricsCurrent(db)
    // A second caller shares the catch-up under way.
    expect(bringCheckInMetricsCurrent(db)).toBe(catchingUp)
    // Written while the first chunk holds the connection: after it, before the catch-up ends.
    const between = adaVisit('2026-12-24', '18:00', total + 1).then(async (row) => {
      chunksCounted.push(await countedThrough())
      return row
    })
    await catchingUp
    const late = await between
    expect(chunksCounted[0]).toBeLessThan(total)
    expect(await countedThrough()).toBe(late.id)
    expect(await metricTables(db)).toEqual(await recounted())
  })
})

/** A small seeded generator, so that a failing sequence can be run again. */
function random(seed: number) {
  let state = seed
  return (below: number) => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648
    return Math.floor((state / 2_147_483_648) * below)
  }
}

describe('written, moved and deleted in any order, caught up at any point', () => {
  const DAYS = ['2026-08-10', '2026-08-11', '2026-08-12', '2026-08-14']

  /**
   * `steps` random writes of check-ins (three customers; a membership, an entry pass or free
   * entry; two gyms; four days), with `alsoChange` moves and deletes among them, and the tables
   * brought current at random points between them.
   */
  async function writeAtRandom(seed: number, steps: number, alsoChange: boolean) {
    const next = random(seed)
    const secondGym = (await makeGym(db, { name: 'Boulder Barn' })).id
    const cy = (await makeCustomer(db, { first_name: 'Cy' })).id
    const passTypeId = (await makeEntryPassType(db)).id
    const ways = [
      { entry_method: 'MEM' as const, customer_membership_id: adaMembershipId },
      {
        entry_method: 'ENT' as const,
        customer_entry_pass_id: (
          await makeCustomerEntryPass(db, { entry_pass_type_id: passTypeId, owner_id: ben })
        ).id,
      },
      { entry_method: 'FRE' as const, free_entry_reason: 'Route setter' },
    ]
    const ids: number[] = []
    for (let step = 0; step < steps; step++) {
      const roll = next(10)
      if (roll === 0) await bringCheckInMetricsCurrent(db)
      else if (alsoChange && roll === 1 && ids.length > 0) {
        // Often the newest, whose id the next check-in may take again.
        const at = next(2) === 0 ? ids.length - 1 : next(ids.length)
        await remove(ids[at]!)
        ids.splice(at, 1)
      } else if (alsoChange && roll === 2 && ids.length > 0) {
        const id = ids[next(ids.length)]!
        if (next(2) === 0) await moveTo(id, DAYS[next(DAYS.length)]!)
        else
          await db
            .updateTable('check_ins')
            .set({ customer_id: [ada, ben, cy][next(3)]!, gym_id: [gymId, secondGym][next(2)]! })
            .where('id', '=', id)
            .execute()
      } else {
        const row = await makeCheckIn(db, {
          customer_id: [ada, ben, cy][next(3)]!,
          gym_id: [gymId, secondGym][next(2)]!,
          check_in_count: 1 + next(3),
          at: `${DAYS[next(DAYS.length)]}T${15 + next(8)}:${10 + next(50)}:00.000Z`,
          ...ways[next(ways.length)]!,
        })
        ids.push(row.id)
      }
    }
    await bringCheckInMetricsCurrent(db)
  }

  for (const seed of [1, 2, 3, 4, 5]) {
    test(`seed ${seed}: the tables equal a count afresh of the check-ins there are`, async () => {
      await writeAtRandom(seed, 150, true)
      const { firstUses: _keptFromDeleted, ...kept } = await metricTables(db)
      const { firstUses: _fromThoseLeft, ...fresh } = await recounted()
      // A first use stays on record when its check-in is moved or deleted, as it always has.
      expect(kept).toEqual(fresh)
    })
  }

  test('check-ins only written, never changed: the first uses too equal a count afresh', async () => {
    await writeAtRandom(7, 150, false)
    expect(await metricTables(db)).toEqual(await recounted())
  })
})
