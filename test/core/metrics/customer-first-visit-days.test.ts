import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { bringCheckInMetricsCurrent } from '../../../src/core/metrics/tables/check-in-catch-up.ts'
import type { Connection, Db } from '../../../src/db/connection.ts'
import { migrations } from '../../../migrations/index.ts'
import { makeCheckIn } from '../../helpers/check-in-factories.ts'
import { makeCustomer } from '../../helpers/customer-factories.ts'
import { makeGym } from '../../helpers/factories.ts'
import { migrateAfter } from '../../helpers/migrate.ts'
import { openVisitsDatabase } from '../../helpers/visits-database.ts'

/*
 * customer_first_visit_days as the metrics read it, brought current first: each customer's first
 * local day of check-ins and the first later one, whatever order the check-ins are written, moved
 * or deleted in, and whether the catch-up has counted them by then or not. The gyms are in
 * America/Denver: noon there is 18:00Z in summer.
 */

let connection: Connection
let db: Db
let gymId: number
let ada: number
let ben: number

beforeEach(async () => {
  ;({ connection, db, gymId, ada, ben } = await openVisitsDatabase())
})
afterEach(() => connection.close())

/** A check-in of `customerId` at noon (Denver) on `day`, at the gym unless another is given. */
const visit = (customerId: number, day: string, gym = gymId) =>
  makeCheckIn(db, { customer_id: customerId, gym_id: gym, at: `${day}T18:00:00.000Z` })

const stored = async () => {
  await bringCheckInMetricsCurrent(db)
  return db.selectFrom('customer_first_visit_days').selectAll().orderBy('customer_id').execute()
}

const days = (customerId: number, first_date: string, return_date: string | null) => ({
  customer_id: customerId,
  first_date,
  return_date,
})

describe('customer_first_visit_days', () => {
  test('the first day and the first later one, whatever order the check-ins come in', async () => {
    await visit(ada, '2026-08-10')
    expect(await stored()).toEqual([days(ada, '2026-08-10', null)])
    // A second visit on the first day is not a return.
    await visit(ada, '2026-08-10')
    expect(await stored()).toEqual([days(ada, '2026-08-10', null)])
    await visit(ada, '2026-08-20')
    await visit(ada, '2026-08-15')
    expect(await stored()).toEqual([days(ada, '2026-08-10', '2026-08-15')])
    // A first check-in written after the visits that followed it, at another gym.
    await visit(ada, '2026-08-01', (await makeGym(db, { name: 'Boulder Barn' })).id)
    expect(await stored()).toEqual([days(ada, '2026-08-01', '2026-08-10')])
    await visit(ben, '2026-08-12')
    expect(await stored()).toEqual([days(ada, '2026-08-01', '2026-08-10'), days(ben, '2026-08-12', null)])
  })

  test('a deleted check-in leaves the days of the check-ins that remain', async () => {
    const first = await visit(ada, '2026-08-10')
    const sameDay = await visit(ada, '2026-08-10')
    const back = await visit(ada, '2026-08-15')
    await visit(ada, '2026-09-01')
    const between = await visit(ada, '2026-08-20')
    const remove = (id: number) => db.deleteFrom('check_ins').where('id', '=', id).execute()

    await remove(between.id)
    expect(await stored()).toEqual([days(ada, '2026-08-10', '2026-08-15')])
    await remove(back.id)
    expect(await stored()).toEqual([days(ada, '2026-08-10', '2026-09-01')])
    // The first day still has a check-in.
    await remove(first.id)
    expect(await stored()).toEqual([days(ada, '2026-08-10', '2026-09-01')])
    await remove(sameDay.id)
    expect(await stored()).toEqual([days(ada, '2026-09-01', null)])
    await db.deleteFrom('check_ins').execute()
    expect(await stored()).toEqual([])
  })

  test('a check-in moved to another day or another customer counts where it is now', async () => {
    await visit(ada, '2026-08-10')
    const back = await visit(ada, '2026-11-10')
    const move = (set: { local_date?: string; customer_id?: number }) =>
      db.updateTable('check_ins').set(set).where('id', '=', back.id).execute()

    await move({ local_date: '2026-08-25' })
    expect(await stored()).toEqual([days(ada, '2026-08-10', '2026-08-25')])
    await move({ local_date: '2026-08-01' })
    expect(await stored()).toEqual([days(ada, '2026-08-01', '2026-08-10')])
    await move({ customer_id: ben })
    expect(await stored()).toEqual([days(ada, '2026-08-10', null), days(ben, '2026-08-01', null)])
    // Another column changed leaves the days as they are.
    await db.updateTable('check_ins').set({ check_out_at: '2026-08-01T20:00:00.000Z' }).execute()
    expect(await stored()).toEqual([days(ada, '2026-08-10', null), days(ben, '2026-08-01', null)])
  })

  test('the migration fills it from the check-ins written before it', async () => {
    connection.close()
    ;({ connection, db, gymId, ada, ben } = await openVisitsDatabase('0016_customer_visit_days'))
    const cy = (await makeCustomer(db, { first_name: 'Cy' })).id
    for (const day of ['2026-08-20', '2026-08-10', '2026-08-10', '2026-08-15']) await visit(ada, day)
    await visit(ben, '2026-08-12')
    await migrations['0016_customer_visit_days']!.up(db)
    // The later migrations too, and the catch-up that counts the check-ins written after them.
    await migrateAfter(db, '0016_customer_visit_days')
    await visit(ben, '2026-08-11')
    await visit(cy, '2026-08-13')
    expect(await stored()).toEqual([
      days(ada, '2026-08-10', '2026-08-15'),
      days(ben, '2026-08-11', '2026-08-12'),
      days(cy, '2026-08-13', null),
    ])
  })
})
