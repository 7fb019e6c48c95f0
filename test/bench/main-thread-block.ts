/**
 * How long a back-office read holds the server's one JavaScript thread, with its queries on that
 * thread (`reader` = the serving connection, as before the reader existed) and on the reader's
 * worker (src/db/reader.ts, as `belay serve` runs them).
 *
 *   npx bun run test/bench/main-thread-block.ts     (or `npm run bench -- block`)
 *
 * Seeds the `large` demo set into a temporary FILE database plus CHECK_INS synthetic check-ins, then
 * sends each request through `createApp(...).handle` while a setInterval(1 ms) probe records the
 * longest gap between its ticks: the time a door scan arriving then would have waited for the
 * thread, and the main thread's own CPU time. The rest of the request (authentication, JSON
 * serialization of the rows) stays on the thread either way. Each case gets WARMUP untimed requests,
 * then RUNS timed ones; reported per mode: median wall ms, median main-thread CPU ms, median and max
 * of the longest gap.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { cpus, tmpdir } from 'node:os'
import { join } from 'node:path'
import { createApp } from '../../src/app.ts'
import { DEMO_ADMIN_EMAIL, seedDemoData } from '../../src/demo/index.ts'
import { openDatabase } from '../../src/db/connection.ts'
import { migrateToLatest } from '../../src/db/migrator.ts'
import { openReader, type Reader } from '../../src/db/reader.ts'
import type { Deps } from '../../src/deps.ts'
import { fixedClock } from '../../src/lib/clock.ts'
import { depsFor } from '../helpers/app.ts'
import { makeToken } from '../helpers/factories.ts'
import { formatTable, loadAverage } from './_table.ts'
import { watchThread } from './_thread-held.ts'

const WARMUP = 3
const RUNS = 15
const CHECK_INS = 200_000
const NOW = new Date('2026-11-22T15:04:05.123Z')

const cases: Array<[string, string]> = [
  ['members report, default', '/api/members/'],
  ['members report, include_billing_info', '/api/members/?include_billing_info=true'],
  ['customers, search=an', '/api/customers/?search=an'],
  ['check-ins, entry_method=ENT', '/api/check-ins/?entry_method=ENT'],
  ['check-ins, location_id=2, page 50', '/api/check-ins/?location_id=2&page=50'],
]

/** This thread's time on CPU so far (Linux), NaN elsewhere. */
function mainThreadCpuMs(): number {
  try {
    const ns = Number(
      readFileSync(`/proc/${process.pid}/task/${process.pid}/schedstat`, 'utf8').split(' ')[0],
    )
    return ns / 1e6
  } catch {
    return NaN
  }
}

const cpu = cpus()
console.log(`machine: ${cpu.length} × ${cpu[0]?.model.trim() ?? 'unknown CPU'}, Bun ${Bun.version}`)

const dir = mkdtempSync(join(tmpdir(), 'belay-bench-block-'))
const path = join(dir, 'belay.sqlite3')
const connection = openDatabase(path)
// Opened once the file is migrated and seeded, as `belay serve` opens it: a reader opened on the
// empty file first held it while the seed wrote (SQLITE_BUSY).
let reader: Reader | undefined
try {
  const { db, sqlite } = connection
  await migrateToLatest(db)
  await seedDemoData(db, { size: 'large', seed: 1, now: NOW })
  // Synthetic history: customers and gyms in turn (their ids run from 1), one check-in a minute
  // back from NOW, every tenth on an entry pass.
  sqlite.run(
    `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${CHECK_INS}),
       t(i, at) AS (SELECT i, strftime('%Y-%m-%dT%H:%M:%fZ', '${NOW.toISOString()}', -i || ' minutes') FROM n)
     INSERT INTO check_ins (customer_id, gym_id, entry_method, local_date, created_at, updated_at)
     SELECT 1 + i % (SELECT COUNT(*) FROM customers), 1 + i % (SELECT COUNT(*) FROM gyms),
            CASE WHEN i % 10 = 0 THEN 'ENT' ELSE 'MEM' END, date(at), at, at
     FROM t`,
  )
  console.log(`seeded the large demo set and ${CHECK_INS.toLocaleString('en-US')} check-ins into ${path}`)
  reader = await openReader(path, db)

  const user = await db
    .selectFrom('staff_users')
    .selectAll()
    .where('email', '=', DEMO_ADMIN_EMAIL)
    .executeTakeFirstOrThrow()
  const token = await makeToken(db, user)
  const clock = fixedClock(NOW)
  const appWith = (readerDb: Deps['reader']) =>
    createApp(depsFor({ db, sqlite }, clock, { reader: readerDb, version: 'bench' }))
  const modes = [
    ['main thread', appWith(db)],
    ['reader worker', appWith(reader.db)],
  ] as const

  /**
   * One request; returns its wall time, the longest gap between 1 ms ticks meanwhile, and the CPU
   * time of this (the main) thread alone, from Linux's /proc schedstat (ns on CPU; unlike wall
   * times it hardly moves when other processes share the machine).
   */
  async function timed(app: (typeof modes)[number][1], url: string) {
    const cpu0 = mainThreadCpuMs()
    const probe = watchThread(1)
    const started = performance.now()
    const response = await app.handle(
      new Request(`http://localhost${url}`, { headers: { authorization: `Token ${token}` } }),
    )
    const body = await response.text()
    const ended = performance.now()
    const gap = probe.stop()
    if (response.status !== 200) throw new Error(`${url}: ${response.status} ${body}`)
    const cpu = mainThreadCpuMs() - cpu0
    return { wall: ended - started, gap, cpu, body }
  }

  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!
  const table = [['case', 'queries on', 'median ms', 'main-thread CPU ms', 'longest gap: median', 'max']]
  for (const [name, url] of cases) {
    const bodies: string[] = []
    for (const [mode, app] of modes) {
      for (let i = 0; i < WARMUP; i++) await timed(app, url)
      const runs = []
      for (let i = 0; i < RUNS; i++) runs.push(await timed(app, url))
      bodies.push(runs[0]!.body)
      const gaps = runs.map((r) => r.gap)
      table.push([
        name,
        mode,
        median(runs.map((r) => r.wall)).toFixed(1),
        Number.isNaN(runs[0]!.cpu) ? '-' : median(runs.map((r) => r.cpu)).toFixed(1),
        median(gaps).toFixed(1),
        Math.max(...gaps).toFixed(1),
      ])
    }
    if (bodies[0] !== bodies[1]) throw new Error(`${url}: the reader's body differs from the main thread's`)
  }
  console.log(`\n${WARMUP} warm-up and ${RUNS} timed requests per case and mode; bodies identical\n`)
  console.log(formatTable(table, { leftColumns: 2 }))
  console.log(`\nload average (1, 5, 15 min): ${loadAverage()}`)
} finally {
  await reader?.close()
  await connection.close()
  rmSync(dir, { recursive: true, force: true })
}
