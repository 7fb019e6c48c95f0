import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { bringCheckInMetricsCurrent } from '../../../src/core/metrics/tables/check-in-catch-up.ts'
import type { Connection, Db } from '../../../src/db/connection.ts'
import { migrations } from '../../../migrations/index.ts'
import { makeCheckIn } from '../../helpers/check-in-factories.ts'
import { makeGym } from '../../helpers/factories.ts'
import { migrateAfter } from '../../helpers/migrate.ts'
import { openVisitsDatabase } from '../../helpers/visits-database.ts'

/*
 * same_day_check_ins as the metrics read it, brought current first: every check-in of a customer on
 * a local day where they have more than one, at any gym, as check-ins are written, moved and
 * deleted, counted by the catch-up by then or not. The first gym is in America/Denver: noon there
 * is 18:00Z in summer.
 */

let connection: Connection
let db: Db
let gymId: number
let ada: number
let ben: number

async function setUp(upTo?: string) {
  ;({ connection, db, gymId, ada, ben } = await openVisitsDatabase(upTo))
}
afterEach(() => connection.close())

/** A check-in of `customerId` at `time` UTC on `day`, at the gym unless another is given. */
const visit = (customerId: number, day: string, time = '18:00', gym = gymId) =>
  makeCheckIn(db, { customer_id: customerId, gym_id: gym, at: `${day}T${time}:00.000Z` })

/** The listed check-ins, as [local_date, customer, check-in id], brought current first. */
const listed = async () => {
  await bringCheckInMetricsCurrent(db)
  return (await db.selectFrom('same_day_check_ins').selectAll().orderBy('check_in_id').execute()).map(
    (row) => [row.local_date, row.customer_id, row.check_in_id],
  )
}

describe('same_day_check_ins', () => {
  describe('kept as check-ins are written, moved and deleted', () => {
    beforeEach(() => setUp())

    test('a second check-in on a day lists both, at whichever gym; other days and customers stay off', async () => {
      const first = await visit(ada, '2026-08-10')
      await visit(ada, '2026-08-11')
      await visit(ben, '2026-08-10')
      expect(await listed()).toEqual([])
      // 21:30 MDT on Aug 10 at another gym.
      const second = await visit(ada, '2026-08-11', '03:30', (await makeGym(db, { name: 'Boulder Barn' })).id)
      expect(await listed()).toEqual([
        ['2026-08-10', ada, first.id],
        ['2026-08-10', ada, second.id],
      ])
      const third = await visit(ada, '2026-08-10', '20:00')
      expect((await listed()).map(([, , id]) => id)).toEqual([first.id, second.id, third.id])
    })

    test("gyms at the zones' extremes share a local day a day apart in UTC", async () => {
      const kiritimati = await makeGym(db, { name: 'Kiritimati', time_zone: 'Pacific/Kiritimati' })
      const pagoPago = await makeGym(db, { name: 'Pago Pago', time_zone: 'Pacific/Pago_Pago' })
      // Aug 10 00:30 at UTC+14, then Aug 10 23:30 at UTC-11.
      const early = await visit(ada, '2026-08-09', '10:30', kiritimati.id)
      const late = await visit(ada, '2026-08-11', '10:30', pagoPago.id)
      expect(await listed()).toEqual([
        ['2026-08-10', ada, early.id],
        ['2026-08-10', ada, late.id],
      ])
    })

    test('a deleted check-in leaves the list, and the last one of its day with it', async () => {
      const [a, b, c] = [
        await visit(ada, '2026-08-10'),
        await visit(ada, '2026-08-10', '19:00'),
        await visit(ada, '2026-08-10', '20:00'),
      ]
      const remove = (id: number) => db.deleteFrom('check_ins').where('id', '=', id).execute()
      await remove(b.id)
      expect(await listed()).toEqual([
        ['2026-08-10', ada, a.id],
        ['2026-08-10', ada, c.id],
      ])
      await remove(a.id)
      expect(await listed()).toEqual([])
    })

    test('a check-in moved to another day or customer is listed where it is now', async () => {
      const stays = await visit(ada, '2026-08-10')
      const moves = await visit(ada, '2026-08-10', '19:00')
      const other = await visit(ada, '2026-08-12')
      const move = (set: { local_date?: string; created_at?: string; customer_id?: number }) =>
        db.updateTable('check_ins').set(set).where('id', '=', moves.id).execute()
      await move({ local_date: '2026-08-12', created_at: '2026-08-12T19:00:00.000Z' })
      expect(await listed()).toEqual([
        ['2026-08-12', ada, moves.id],
        ['2026-08-12', ada, other.id],
      ])
      await move({ customer_id: ben })
      expect(await listed()).toEqual([])
      await move({ customer_id: ada, local_date: '2026-08-10', created_at: '2026-08-10T19:00:00.000Z' })
      expect(await listed()).toEqual([
        ['2026-08-10', ada, stays.id],
        ['2026-08-10', ada, moves.id],
      ])
    })
  })

  test('the migration lists the check-ins written before it', async () => {
    await setUp('0016_customer_visit_days')
    const [a, b] = [await visit(ada, '2026-08-10'), await visit(ada, '2026-08-10', '19:00')]
    await visit(ada, '2026-08-11')
    const c = await visit(ben, '2026-08-10')
    await migrations['0016_customer_visit_days']!.up(db)
    // The later migrations too, and the catch-up that counts the check-ins written after them.
    await migrateAfter(db, '0016_customer_visit_days')
    const d = await visit(ben, '2026-08-10', '20:00')
    expect(await listed()).toEqual([
      ['2026-08-10', ada, a.id],
      ['2026-08-10', ada, b.id],
      ['2026-08-10', ben, c.id],
      ['2026-08-10', ben, d.id],
    ])
  })
})
