import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { compiledStatement } from '../../src/db/compiled-statement.ts'
import { openDatabase, type Connection } from '../../src/db/connection.ts'
import { migrateToLatest } from '../../src/db/migrator.ts'
import { makeGym } from '../helpers/factories.ts'

let connection: Connection

beforeAll(async () => {
  connection = openDatabase(':memory:')
  await migrateToLatest(connection.db)
  await makeGym(connection.db, { name: 'Downtown' })
  await makeGym(connection.db, { name: 'Annex' })
})
afterAll(() => connection.close())

const eventsNow = compiledStatement((db, p: { gymId: number; now: string }) =>
  db
    .selectFrom('events')
    .select('id')
    .where('gym_id', '=', p.gymId)
    .where('is_cancelled', '=', 0)
    .where('start_at', '<=', p.now)
    .where('end_at', '>', p.now),
)

const gymNamed = compiledStatement((db, p: { name: string }) =>
  db.selectFrom('gyms').select(['id', 'name']).where('name', '=', p.name),
)

const gymsNamed = compiledStatement((db, p: { fromId: number }) =>
  db
    .selectFrom('gyms')
    .select('id')
    .where('name', 'in', ['Downtown', 'Annex'])
    .where('id', '>=', p.fromId)
    .orderBy('id'),
)

const renameGym = compiledStatement((db, p: { id: number; name: string }) =>
  db.updateTable('gyms').set({ name: p.name }).where('id', '=', p.id),
)

describe('compiled statements', () => {
  test("binds each call's values where the SQL has them; the builder's constants are in the SQL", () => {
    expect(eventsNow.sql).toBe(
      'select "id" from "events" where "gym_id" = ? and "is_cancelled" = 0 and "start_at" <= ? and "end_at" > ?',
    )
    expect(eventsNow.bind({ gymId: 3, now: '2026-11-22T15:04:05.123Z' })).toEqual([
      3,
      '2026-11-22T15:04:05.123Z',
      '2026-11-22T15:04:05.123Z',
    ])
    expect(eventsNow.bind({ gymId: 4, now: '2026-11-23T00:00:00.000Z' })).toEqual([
      4,
      '2026-11-23T00:00:00.000Z',
      '2026-11-23T00:00:00.000Z',
    ])
  })

  test("an IN list's constants stay bound, beside the call's values", () => {
    expect(gymsNamed.sql).toBe('select "id" from "gyms" where "name" in (?, ?) and "id" >= ? order by "id"')
    expect(gymsNamed.bind({ fromId: 2 })).toEqual(['Downtown', 'Annex', 2])
    expect(gymsNamed.all(connection.sqlite, { fromId: 1 })).toEqual([{ id: 1 }, { id: 2 }])
    expect(gymsNamed.all(connection.sqlite, { fromId: 2 })).toEqual([{ id: 2 }])
  })

  test('runs on the connection: rows, null when there is none, and a write with its changes', () => {
    const { sqlite } = connection
    expect(gymNamed.get(sqlite, { name: 'Annex' })).toEqual({ id: 2, name: 'Annex' })
    expect(gymNamed.get(sqlite, { name: 'Uptown' })).toBeNull()
    expect(gymNamed.all(sqlite, { name: 'Downtown' })).toEqual([{ id: 1, name: 'Downtown' }])
    expect(renameGym.run(sqlite, { id: 2, name: 'Uptown' }).changes).toBe(1)
    expect(gymNamed.get(sqlite, { name: 'Uptown' })).toEqual({ id: 2, name: 'Uptown' })
  })

  test('a parameter the builder reads but does not bind is refused when the statement is compiled', () => {
    // Used in JavaScript: every call would run the statement the first call built.
    const misused = compiledStatement((db, p: { id: number }) =>
      db
        .selectFrom('gyms')
        .select('id')
        .where('id', '=', p.id > 0 ? 1 : 2),
    )
    expect(() => misused.sql).toThrow(
      'Parameter "id" is not bound in: select "id" from "gyms" where "id" = 2',
    )
  })
})
