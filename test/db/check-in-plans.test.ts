import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { Kysely } from 'kysely'
import { getCheckIn, listCheckIns, type CheckInQuery } from '../../src/api/check-ins/queries.ts'
import { bunSqliteDialect } from '../../src/db/bun-sqlite-dialect.ts'
import { openDatabase, type Connection, type Db } from '../../src/db/connection.ts'
import { migrateToLatest } from '../../src/db/migrator.ts'

/*
 * A busy gym holds hundreds of thousands of check-ins, so each shape of history query must reach
 * its rows through an index and, where it can, get its order from that index (no sort step). The
 * plans are SQLite's without statistics: the appliance never runs ANALYZE.
 */

let connection: Connection
/** The same database through a Kysely that records each statement, to ask SQLite for its plan. */
let db: Db
const statements: Array<{ sql: string; parameters: readonly unknown[] }> = []

beforeAll(async () => {
  connection = openDatabase(':memory:')
  await migrateToLatest(connection.db)
  db = new Kysely({
    dialect: bunSqliteDialect(connection.sqlite),
    log: (event) => {
      statements.push({ sql: event.query.sql, parameters: event.query.parameters })
    },
  }) as Db
})
afterAll(() => connection.close())

/** The plan lines of every statement `run` sends, one string per statement. */
async function plansOf(run: () => Promise<unknown>): Promise<string[]> {
  statements.length = 0
  await run()
  return statements.map(({ sql, parameters }) =>
    (
      connection.sqlite.query(`EXPLAIN QUERY PLAN ${sql}`).all(...(parameters as never[])) as Array<{
        detail: string
      }>
    )
      .map((row) => row.detail)
      .join('\n'),
  )
}

const today = '2026-11-22T07:00:00.000Z'
const tomorrow = '2026-11-23T07:00:00.000Z'

// [name, query, the index the check_ins rows come through]
const cases: Array<[string, CheckInQuery, RegExp]> = [
  ['no filter', {}, /SCAN ci USING INDEX check_ins_created\b/],
  [
    'a day',
    { created_from: today, created_before: tomorrow },
    /SEARCH ci USING INDEX check_ins_created \(created_at>\? AND created_at<\?\)/,
  ],
  [
    'a location today',
    { gym_id: 1, created_from: today },
    /SEARCH ci USING INDEX check_ins_created \(created_at>\?\)/,
  ],
  [
    'an entry method',
    { entry_method: 'FRE' },
    /SEARCH ci USING INDEX check_ins_method_created \(entry_method=\?\)/,
  ],
  [
    'an entry method today',
    { entry_method: 'FRE', created_from: today },
    /check_ins_method_created \(entry_method=\? AND created_at>\?\)/,
  ],
  ['checked out', { checked_out: true }, /SEARCH ci USING INDEX check_ins_check_out \(check_out_at>\?\)/],
  [
    'checked out today',
    { checked_out: true, created_from: today },
    /SEARCH ci USING INDEX check_ins_check_out/,
  ],
  ['a customer', { customer_id: 1 }, /SEARCH ci USING INDEX check_ins_customer_\w+ \(customer_id=\?\)/],
  [
    'a customer at a location',
    { customer_id: 1, gym_id: 1 },
    /check_ins_customer_gym \(customer_id=\? AND gym_id=\?\)/,
  ],
  // Without the unary + on entry_method, SQLite would walk every MEM check-in of the gym.
  [
    'a customer and an entry method',
    { customer_id: 1, entry_method: 'MEM' },
    /SEARCH ci USING INDEX check_ins_customer_\w+ \(customer_id=\?\)/,
  ],
]

describe('check-in history plans', () => {
  for (const [name, query, index] of cases) {
    test(`${name}: the list and the count use an index`, async () => {
      const [list, count] = await plansOf(async () => {
        const checkIns = listCheckIns(db, query)
        await checkIns.rows(10, 20)
        await checkIns.count()
      })
      expect(list).toMatch(index)
      expect(list).not.toMatch(/^SCAN (ci|check_ins)$/m)
      expect(count).not.toMatch(/^SCAN (ci|check_ins)$/m)
      // The joined rows come by primary key.
      for (const alias of ['c', 'g', 'u'])
        expect(list).toMatch(new RegExp(`SEARCH ${alias} USING INTEGER PRIMARY KEY`))
      // A customer's history is small enough to sort; every other list gets its order from the index.
      if (query.customer_id === undefined || query.gym_id !== undefined)
        expect(list).not.toContain('USE TEMP B-TREE')
    })
  }

  test('one check-in by id, within a customer or not, by primary key', async () => {
    for (const plan of await plansOf(async () => {
      await getCheckIn(db, 1)
      await getCheckIn(db, 1, 2)
    }))
      expect(plan).toMatch(/SEARCH ci USING INTEGER PRIMARY KEY \(rowid=\?\)/)
  })
})
