/**
 * Metrics query benchmark: POST /api/metrics/query/ over HTTP from the BUILT executable, on the
 * `large` demo set (five years of sales, memberships and check-ins). Loopback only; everything lives
 * in one temporary directory, removed at the end.
 *
 *   npx bun run test/bench/metrics.ts     (or `npm run bench -- metrics`)
 *   npx bun run test/bench/metrics.ts --db SEEDED_FILE [--runs 15] [--door-scans 2000] [--door-rounds 3]
 *
 * Builds build/out/belay if it is older than the sources, seeds `belay seed-demo --size large` (or
 * copies --db, a file seeded before by the same build), starts `belay serve` on it and logs in as the
 * demo admin. The first query brings the daily membership rollup current (built for all history on
 * first start): it is timed apart. Then each case, WARMUP untimed requests then --runs timed ones one
 * after another; a request's time runs from sending it until its whole body has been read; the
 * server's CPU per request comes from /proc. Cases:
 *   - all eleven metric types in one request over the last year at daily;
 *   - each type alone over the last five years at monthly;
 *   - check_in_count, unique customers in an evening window, over the last year at daily.
 * Last, the door while reports run: --door-scans single scans one after another at a fresh location,
 * alone, then as many while another client sends the eleven-type query back to back, the two phases
 * alternating over --door-rounds rounds so that the host's noise falls on both alike; p50, p99 and
 * max of each phase over all its rounds, and the server's CPU per report on its worker threads
 * (where the reports' statements run) and on its own thread (where the door is answered: what that
 * thread spent beside the reports beyond what as many scans cost it alone).
 *
 *   npx bun run test/bench/metrics.ts --db SEEDED_FILE --door-only [--compare OTHER_EXECUTABLE]
 *
 * --door-only skips the timed cases. --compare OTHER_EXECUTABLE measures the door phase of another
 * build of Belay too (say, of the commit before a change), serving its own copy of the file, the two
 * taking turns within every round.
 */
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { addDays, localDate } from '../../src/lib/local-time.ts'
import { DEMO_ORGANIZATION } from '../../src/demo/index.ts'
import { numberArg, stringArg } from './_args.ts'
import { makeControllers, nextScan, Recorder, scanOnce } from './_door-load.ts'
import {
  BELAY,
  barcodesByCategory,
  buildIfNeeded,
  connectSession,
  processCpuMs,
  seedLarge,
  startServing,
  threadCpuMs,
  type Served,
} from './_door-setup.ts'
import { formatTable, loadAverage, machineLine } from './_table.ts'

const WARMUP = 2
const RUNS = numberArg('--runs', 15)
const DOOR_SCANS = numberArg('--door-scans', 2000)
const DOOR_ROUNDS = numberArg('--door-rounds', 3)
const DOOR_ONLY = process.argv.includes('--door-only')
const COMPARE = stringArg('--compare')
const SEEDED = stringArg('--db')

/** One metric of every type, with the filters a manager's Monday dashboard would send. */
const EVERY_TYPE = [
  { id: 'revenue', type: 'revenue', filters: { product_type: 'all' } },
  { id: 'visits', type: 'check_in_count' },
  { id: 'new', type: 'new_customer_count' },
  { id: 'sold', type: 'product_sold_count', filters: { product_type: 'membership' } },
  { id: 'members', type: 'membership_count', filters: { count_by: 'members', status: 'active_and_frozen' } },
  { id: 'retention', type: 'customer_retention' },
  {
    id: 'pass_conversion',
    type: 'product_conversion',
    filters: { product_type: 'entry_pass', conversion_window: '90_days' },
  },
  {
    id: 'first_visit_conversion',
    type: 'first_check_in_conversion',
    filters: { conversion_window: '90_days' },
  },
  { id: 'churn', type: 'member_churn' },
  { id: 'referrals', type: 'membership_referral_count' },
  { id: 'cancellations', type: 'membership_status_change_count', filters: { to_status: 'CAN' } },
]

console.log(machineLine())

const dir = mkdtempSync(join(tmpdir(), 'belay-bench-metrics-'))
const seededFile = join(dir, 'seeded.sqlite3')
const servers: Served[] = []
try {
  console.log(`executable: ${buildIfNeeded()} (${BELAY})`)
  if (COMPARE) console.log(`door compared with: ${COMPARE}`)
  if (SEEDED) copyFileSync(SEEDED, seededFile)
  else {
    const started = performance.now()
    const seeded = seedLarge(seededFile, 1, dir)
    console.log(`${seeded.split('\n')[0]} (${((performance.now() - started) / 1000).toFixed(1)} s)`)
  }
  const today = localDate(new Date(), DEMO_ORGANIZATION.timeZone)
  const lastYear = { interval: 'daily', start_date: addDays(today, -364), end_date: today }
  const fiveYears = { interval: 'monthly', start_date: addDays(today, -5 * 365), end_date: today }

  /** A server of `exe` on its own copy of the seeded file, logged in, its membership rollup current. */
  const serve = async (exe: string, copy: number) => {
    const file = join(dir, `serve-${copy}.sqlite3`)
    copyFileSync(seededFile, file)
    const served = await startServing([exe, 'serve', '--db', file, '--port', '0', '--host', '127.0.0.1'], dir)
    servers.push(served)
    const session = await connectSession(served, file)
    const query = async (body: unknown) => {
      const start = performance.now()
      const res = await fetch(`${served.base}/api/metrics/query/`, {
        method: 'POST',
        headers: { authorization: `Token ${session.target.token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })
      const text = await res.text()
      if (res.status !== 200) throw new Error(`metrics query answered ${res.status}: ${text}`)
      return performance.now() - start
    }
    const firstMs = await query({ ...lastYear, metrics: EVERY_TYPE })
    console.log(`${label(exe)}: first query (brings the membership rollup current): ${firstMs.toFixed(0)} ms`)
    return { exe, served, session, query }
  }
  const label = (exe: string) => (exe === BELAY ? 'this checkout' : exe)
  const executables = COMPARE ? [BELAY, COMPARE] : [BELAY]
  const targets: Awaited<ReturnType<typeof serve>>[] = []
  for (const [copy, exe] of executables.entries()) targets.push(await serve(exe, copy))

  if (!DOOR_ONLY) {
    const { served, query } = targets[0]!
    const cases: Array<[string, unknown]> = [
      ['all eleven types, last year, daily', { ...lastYear, metrics: EVERY_TYPE }],
      ...EVERY_TYPE.map((metric): [string, unknown] => [
        `${metric.type}, five years, monthly`,
        { ...fiveYears, metrics: [metric] },
      ]),
      [
        'check_in_count unique 17:00-20:00, last year, daily',
        {
          ...lastYear,
          metrics: [
            {
              id: 'evening',
              type: 'check_in_count',
              filters: { check_in_type: 'unique', time_of_day_start: '17:00', time_of_day_end: '20:00' },
            },
          ],
        },
      ],
    ]
    const rows: string[][] = []
    for (const [name, body] of cases) {
      for (let i = 0; i < WARMUP; i++) await query(body)
      const wall = new Recorder()
      const cpu0 = processCpuMs(served.pid)
      for (let i = 0; i < RUNS; i++) wall.add(await query(body), 'query', 200)
      const cpuPerQuery = (processCpuMs(served.pid) - cpu0) / RUNS
      rows.push([
        name,
        wall.percentile(0.5).toFixed(1),
        wall.percentile(0.95).toFixed(1),
        wall.max().toFixed(1),
        cpuPerQuery.toFixed(1),
      ])
    }
    console.log(`\n${RUNS} timed requests per case:\n`)
    console.log(formatTable([['case', 'p50 ms', 'p95 ms', 'max ms', 'server CPU ms/query'], ...rows]))
  }

  // The door while reports run: the same single scans, alone and beside a client sending reports.
  const barcodes = barcodesByCategory(seededFile, new Date())
  const phases = new Map<string, { scans: Recorder; reports: number; mainMs: number; workersMs: number }>()
  const doorScans = async ({ session }: (typeof targets)[number], into: Recorder) => {
    const [gym] = await session.newGyms(1)
    const [controller] = makeControllers(1, [gym!], barcodes, 42)
    for (let i = 0; i < DOOR_SCANS; i++) {
      const { category, barcode } = nextScan(controller!, barcodes)
      const start = performance.now()
      const status = await scanOnce(session.target, gym!, barcode)
      into.add(performance.now() - start, category, status)
    }
  }
  const phase = (exe: string, name: string) => {
    const key = `${label(exe)}\n${name}`
    if (!phases.has(key)) phases.set(key, { scans: new Recorder(), reports: 0, mainMs: 0, workersMs: 0 })
    return phases.get(key)!
  }
  for (let round = 0; round < DOOR_ROUNDS; round++) {
    const order = round % 2 === 0 ? targets : [...targets].reverse()
    for (const target of order) {
      // Which phase goes first alternates too, so neither always follows the other's leftovers.
      const phaseOrder = round % 2 === 0 ? ['alone', 'beside'] : ['beside', 'alone']
      for (const name of phaseOrder) {
        const entry = phase(target.exe, name)
        const threads0 = threadCpuMs(target.served.pid)
        let reporting = name === 'beside'
        const reporter = (async () => {
          while (reporting) {
            await target.query({ ...lastYear, metrics: EVERY_TYPE })
            entry.reports++
          }
        })()
        await doorScans(target, entry.scans)
        reporting = false
        await reporter
        const threads = threadCpuMs(target.served.pid)
        entry.mainMs += threads.main - threads0.main
        entry.workersMs += threads.workers - threads0.workers
      }
    }
  }
  const doorTable = [
    [
      'executable',
      'phase',
      'scans',
      'p50 ms',
      'p99 ms',
      'max ms',
      'reports',
      'main ms/report',
      'workers ms/report',
    ],
  ]
  for (const exe of executables) {
    const alone = phase(exe, 'alone')
    const beside = phase(exe, 'beside')
    // The server's own thread answers the scans in both phases: what it spent beside the reports
    // beyond what as many scans cost alone is the reports' share of the door's thread.
    const mainPerScan = alone.mainMs / alone.scans.count
    const row = (name: string, { scans, reports, mainMs, workersMs }: typeof alone, perReport: boolean) => [
      label(exe),
      name,
      String(scans.count),
      scans.percentile(0.5).toFixed(2),
      scans.percentile(0.99).toFixed(2),
      scans.max().toFixed(2),
      perReport ? String(reports) : '',
      perReport ? ((mainMs - mainPerScan * scans.count) / reports).toFixed(1) : '',
      perReport ? (workersMs / reports).toFixed(1) : '',
    ]
    doorTable.push(row('door alone', alone, false), row('door while reports run back to back', beside, true))
  }
  console.log(`\ndoor: ${DOOR_SCANS} single scans one after another per phase, ${DOOR_ROUNDS} rounds\n`)
  console.log(formatTable(doorTable, { leftColumns: 2 }))
  console.log(`\nload average (1, 5, 15 min): ${loadAverage()}`)
} finally {
  for (const served of servers) await served.stop()
  rmSync(dir, { recursive: true, force: true })
}
