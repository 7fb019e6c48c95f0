/**
 * Members report benchmark: GET /api/members/ over the `large` demo set.
 *
 *   npx bun run test/bench/members-report.ts     (or `npm run bench -- members`)
 *
 * Builds a temporary FILE database (in os.tmpdir(), so TMPDIR picks the disk) with every migration
 * and `seedDemoData(db, { size: 'large', seed: 1 })` (a fixed `now`, so every run reports on the
 * same rows), then sends the report through `createApp(...).handle`, as a client would, with a
 * desk user's token: the default report and a few filtered ones. Each case gets WARMUP untimed
 * requests, then RUNS timed ones; a request's time runs from `handle` until its whole body has been
 * read. Reported: median, p95 and max wall-clock ms, the median CPU ms of this process (steadier
 * than wall-clock when the machine is busy elsewhere), rows and body size. The load average is
 * printed too: on a shared machine it explains a wall-clock figure far above the CPU one.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { cpus, tmpdir, totalmem } from 'node:os'
import { join } from 'node:path'
import { createApp } from '../../src/app.ts'
import { DEMO_ADMIN_EMAIL, seedDemoData } from '../../src/demo/index.ts'
import { openDatabase } from '../../src/db/connection.ts'
import { migrateToLatest } from '../../src/db/migrator.ts'
import { fixedClock } from '../../src/lib/clock.ts'
import { depsFor } from '../helpers/app.ts'
import { makeToken } from '../helpers/factories.ts'
import { formatTable, loadAverage } from './_table.ts'

const WARMUP = 3
const RUNS = 20
const NOW = new Date('2026-11-22T15:04:05.123Z')

const cpu = cpus()
console.log(
  `machine: ${cpu.length} × ${cpu[0]?.model.trim() ?? 'unknown CPU'}, ` +
    `${Math.round(totalmem() / 2 ** 30)} GiB, ${process.platform}-${process.arch}, Bun ${Bun.version}`,
)

const dir = mkdtempSync(join(tmpdir(), 'belay-bench-members-'))
const connection = openDatabase(join(dir, 'belay.sqlite'))
try {
  const { db, sqlite } = connection
  console.log(`SQLite ${(sqlite.query('SELECT sqlite_version() AS v').get() as { v: string }).v}`)
  await migrateToLatest(db)
  let started = performance.now()
  const summary = await seedDemoData(db, { size: 'large', seed: 1, now: NOW })
  console.log(
    `seeded the large demo set in ${((performance.now() - started) / 1000).toFixed(1)} s: ` +
      `${summary.counts.customers} customers, ${summary.counts.customer_memberships} memberships, ` +
      `${summary.counts.membership_members} membership members, ` +
      `${summary.counts.membership_member_add_ons} member add-ons`,
  )

  const clock = fixedClock(NOW)
  const deps = depsFor({ db, sqlite }, clock, { version: 'bench' })
  const app = createApp(deps)

  // Any active staff user may read the report: a desk user without extra permissions if there is one.
  const user =
    (await db
      .selectFrom('staff_users')
      .selectAll()
      .where('is_active', '=', 1)
      .where('is_organization_admin', '=', 0)
      .orderBy('id')
      .executeTakeFirst()) ??
    (await db
      .selectFrom('staff_users')
      .selectAll()
      .where('email', '=', DEMO_ADMIN_EMAIL)
      .executeTakeFirstOrThrow())
  const token = await makeToken(db, user)

  // The membership type with the most members in the report, for the membership_id case.
  const busiest = await db
    .selectFrom('membership_members as mm')
    .innerJoin('customer_memberships as cm', 'cm.id', 'mm.customer_membership_id')
    .innerJoin('membership_types as mt', 'mt.id', 'cm.membership_type_id')
    .select(['mt.id', 'mt.name', (eb) => eb.fn.countAll<number>().as('n')])
    .where('cm.status', 'in', ['ACT', 'IPP', 'PPR', 'FRZ', 'FPR', 'PAF', 'FPF'])
    .groupBy('mt.id')
    .orderBy('n', 'desc')
    .executeTakeFirstOrThrow()

  const cases: Array<[string, string]> = [
    ['default (active, frozen, failed)', ''],
    ['status_in=frozen', '?status_in=frozen'],
    [`membership_id=${busiest.id} (${busiest.name})`, `?membership_id=${busiest.id}`],
    ['include_billing_info=true', '?include_billing_info=true'],
  ]

  const request = async (query: string) => {
    const response = await app.handle(
      new Request(`http://localhost/api/members/${query}`, { headers: { authorization: `Token ${token}` } }),
    )
    const body = await response.text()
    if (response.status !== 200) throw new Error(`GET /api/members/${query}: ${response.status} ${body}`)
    return body
  }
  const pick = (sorted: number[], p: number) =>
    sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]!

  const table: string[][] = [['case', 'rows', 'body MB', 'median ms', 'p95 ms', 'max ms', 'CPU ms']]
  for (const [name, query] of cases) {
    for (let i = 0; i < WARMUP; i++) await request(query)
    const wall: number[] = []
    const cpuMs: number[] = []
    let body = ''
    for (let i = 0; i < RUNS; i++) {
      const cpu0 = process.cpuUsage()
      started = performance.now()
      body = await request(query)
      wall.push(performance.now() - started)
      const used = process.cpuUsage(cpu0)
      cpuMs.push((used.user + used.system) / 1000)
    }
    wall.sort((a, b) => a - b)
    cpuMs.sort((a, b) => a - b)
    table.push([
      name,
      String((JSON.parse(body) as unknown[]).length),
      (body.length / 1e6).toFixed(1),
      pick(wall, 0.5).toFixed(1),
      pick(wall, 0.95).toFixed(1),
      wall[wall.length - 1]!.toFixed(1),
      pick(cpuMs, 0.5).toFixed(1),
    ])
  }

  console.log(`\n${WARMUP} warm-up and ${RUNS} timed requests per case\n`)
  console.log(formatTable(table))
  console.log(`\nload average (1, 5, 15 min): ${loadAverage()}`)
} finally {
  await connection.close()
  rmSync(dir, { recursive: true, force: true })
}
