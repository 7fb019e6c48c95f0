/**
 * What the check-in metrics' catch-up costs (src/core/metrics/tables/check-in-catch-up.ts): the door
 * writes nothing for the metrics, so the first metrics query after a day of check-ins counts that
 * day first, a chunk of check-ins per transaction on the writer, each chunk holding the door off
 * for as long as it takes. In-process, on a copy of a `large` set (synchronous=FULL, as served):
 * the newest N check-ins are taken out of check_ins (counted out by the delete triggers) and
 * written back as new rows, so the catch-up finds N check-ins to count onto tables that hold
 * years of others, as after a busy day. Reported for each N: the whole catch-up, and how long a
 * stand-in for the door (one short statement on the writer after another, meanwhile) waited for
 * the connection: at the median, and at the longest, about one chunk. After each run the five
 * tables are checked against the same tables before: the catch-up must give them back exactly.
 *
 *   npx bun run test/bench/check-in-catch-up.ts [--db LARGE_FILE] [--rounds 3]
 *
 * Without --db it builds build/out/belay if it is older than the sources and seeds the `large` set
 * into a temporary directory; LARGE_FILE is such a set migrated by this checkout, only copied.
 */
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from 'kysely'
import {
  bringCheckInMetricsCurrent,
  CHECK_IN_METRIC_TABLES,
  CHECK_INS_PER_CHUNK,
} from '../../src/core/metrics/tables/check-in-catch-up.ts'
import { openDatabase } from '../../src/db/connection.ts'
import { numberArg, stringArg } from './_args.ts'
import { buildIfNeeded, seedLarge } from './_door-setup.ts'
import { formatTable, loadAverage } from './_table.ts'

const ROUNDS = numberArg('--rounds', 3)
const GIVEN = stringArg('--db')
/** A quiet evening, a busy day, and a week without a metrics query, at the `large` set's rate. */
const UNCOUNTED = [300, 2_000, 15_000]

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!

console.log(`load average ${loadAverage()}`)
const dir = mkdtempSync(join(tmpdir(), 'belay-bench-catch-up-'))
try {
  const seeded = GIVEN ?? join(dir, 'seeded.sqlite3')
  if (!GIVEN) {
    buildIfNeeded()
    console.log(seedLarge(seeded, 1, dir).split('\n')[0])
  }
  const file = join(dir, 'copy.sqlite3')
  copyFileSync(seeded, file)
  const { db, sqlite, close } = openDatabase(file)
  // Brought current once, so the runs below start from tables that hold every check-in.
  await bringCheckInMetricsCurrent(db)
  const tables = () =>
    CHECK_IN_METRIC_TABLES.map((table) => sqlite.query(`SELECT * FROM ${table} ORDER BY 1, 2, 3`).all())
  const expected = JSON.stringify(tables())

  const rows: string[][] = []
  for (const count of UNCOUNTED) {
    const totals: number[] = []
    const longest: number[] = []
    const medians: number[] = []
    for (let round = 0; round < ROUNDS; round++) {
      await db.transaction().execute(async (trx) => {
        await sql`CREATE TEMP TABLE newest AS SELECT * FROM check_ins ORDER BY id DESC LIMIT ${count}`.execute(
          trx,
        )
        await sql`DELETE FROM check_ins WHERE id IN (SELECT id FROM temp.newest)`.execute(trx)
        await sql`INSERT INTO check_ins SELECT * FROM temp.newest ORDER BY id`.execute(trx)
        await sql`DROP TABLE temp.newest`.execute(trx)
      })
      // A stand-in for the door: one short statement on the writer after another, each timed
      // from when it asks for the connection, while the catch-up runs.
      const waits: number[] = []
      let catchingUp = true
      const door = (async () => {
        while (catchingUp) {
          const asked = performance.now()
          await db.selectFrom('gyms').select('id').limit(1).execute()
          waits.push(performance.now() - asked)
          await new Promise((resolve) => setTimeout(resolve, 1))
        }
      })()
      const started = performance.now()
      await bringCheckInMetricsCurrent(db)
      totals.push(performance.now() - started)
      catchingUp = false
      await door
      longest.push(Math.max(...waits))
      medians.push(median(waits))
      if (JSON.stringify(tables()) !== expected)
        throw new Error(`the catch-up of ${count} check-ins did not give the tables back as they were`)
    }
    rows.push([
      count.toLocaleString('en-US'),
      String(Math.ceil(count / CHECK_INS_PER_CHUNK)),
      median(totals).toFixed(1),
      median(medians).toFixed(2),
      median(longest).toFixed(2),
    ])
  }
  await close()
  console.log(
    `\n${ROUNDS} rounds each, medians over rounds; ${CHECK_INS_PER_CHUNK.toLocaleString('en-US')} check-ins per chunk\n`,
  )
  console.log(
    formatTable([
      ['new check-ins', 'chunks', 'catch-up ms', "door's median wait ms", "door's longest wait ms"],
      ...rows,
    ]),
  )
  console.log(`\nload average ${loadAverage()}`)
} finally {
  rmSync(dir, { recursive: true, force: true })
}
