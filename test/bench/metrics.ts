/**
 * Metrics query benchmark: POST /api/metrics/query/ over HTTP from the BUILT executable, on the
 * `large` demo set (five years of sales, memberships and check-ins). Loopback only; everything lives
 * in one temporary directory, removed at the end.
 *
 *   npx bun run test/bench/metrics.ts     (or `npm run bench -- metrics`)
 *   npx bun run test/bench/metrics.ts --db SEEDED_FILE [--runs 15] [--door-scans 300]
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
 * first alone, then while another client sends the eleven-type query back to back; p50 and p99 of
 * each.
 */
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs'
import { cpus, tmpdir, totalmem } from 'node:os'
import { join } from 'node:path'
import { addDays, localDate } from '../../src/lib/local-time.ts'
import { DEMO_ORGANIZATION } from '../../src/demo/index.ts'
import { numberArg } from './_args.ts'
import { makeControllers, nextScan, Recorder, scanOnce } from './_door-load.ts'
import {
  BELAY,
  barcodesByCategory,
  buildIfNeeded,
  connectSession,
  processCpuMs,
  seedLarge,
  startServing,
  type Served,
} from './_door-setup.ts'
import { formatTable, loadAverage } from './_table.ts'

const WARMUP = 2
const RUNS = numberArg('--runs', 15)
const DOOR_SCANS = numberArg('--door-scans', 300)
const SEEDED = process.argv.includes('--db') ? process.argv[process.argv.indexOf('--db') + 1] : undefined

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

const cpu = cpus()
console.log(
  `machine: ${cpu.length} × ${cpu[0]?.model.trim() ?? 'unknown CPU'}, ` +
    `${Math.round(totalmem() / 2 ** 30)} GiB, ${process.platform}-${process.arch}, Bun ${Bun.version}; ` +
    `load average ${loadAverage()}`,
)

const dir = mkdtempSync(join(tmpdir(), 'belay-bench-metrics-'))
const file = join(dir, 'serve.sqlite3')
let server: Served | null = null
try {
  console.log(`executable: ${buildIfNeeded()} (${BELAY})`)
  if (SEEDED) copyFileSync(SEEDED, file)
  else {
    const started = performance.now()
    const seeded = seedLarge(file, 1, dir)
    console.log(`${seeded.split('\n')[0]} (${((performance.now() - started) / 1000).toFixed(1)} s)`)
  }
  server = await startServing([BELAY, 'serve', '--db', file, '--port', '0', '--host', '127.0.0.1'], dir)
  const served = server
  const session = await connectSession(served, file)
  const today = localDate(new Date(), DEMO_ORGANIZATION.timeZone)

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

  const lastYear = { interval: 'daily', start_date: addDays(today, -364), end_date: today }
  const fiveYears = { interval: 'monthly', start_date: addDays(today, -5 * 365), end_date: today }
  const firstMs = await query({ ...lastYear, metrics: EVERY_TYPE })
  console.log(`first query (brings the membership rollup current): ${firstMs.toFixed(0)} ms`)

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
  for (const [label, body] of cases) {
    for (let i = 0; i < WARMUP; i++) await query(body)
    const wall = new Recorder()
    const cpu0 = processCpuMs(served.pid)
    for (let i = 0; i < RUNS; i++) wall.add(await query(body), 'query', 200)
    const cpuPerQuery = (processCpuMs(served.pid) - cpu0) / RUNS
    rows.push([
      label,
      wall.percentile(0.5).toFixed(1),
      wall.percentile(0.95).toFixed(1),
      wall.max().toFixed(1),
      cpuPerQuery.toFixed(1),
    ])
  }
  console.log(`\n${RUNS} timed requests per case:\n`)
  console.log(formatTable([['case', 'p50 ms', 'p95 ms', 'max ms', 'server CPU ms/query'], ...rows]))

  // The door while reports run: the same single scans, alone and beside a client sending reports.
  const barcodes = barcodesByCategory(file, new Date())
  const doorScans = async (label: string) => {
    const [gym] = await session.newGyms(1)
    const [controller] = makeControllers(1, [gym!], barcodes, 42)
    const recorder = new Recorder()
    for (let i = 0; i < DOOR_SCANS; i++) {
      const { category, barcode } = nextScan(controller!, barcodes)
      const start = performance.now()
      const status = await scanOnce(session.target, gym!, barcode)
      recorder.add(performance.now() - start, category, status)
    }
    return [
      label,
      recorder.percentile(0.5).toFixed(2),
      recorder.percentile(0.99).toFixed(2),
      recorder.max().toFixed(2),
    ]
  }
  const alone = await doorScans('door alone')
  let reporting = true
  let reports = 0
  const reporter = (async () => {
    while (reporting) {
      await query({ ...lastYear, metrics: EVERY_TYPE })
      reports++
    }
  })()
  const beside = await doorScans('door while reports run back to back')
  reporting = false
  await reporter
  console.log(`\ndoor: ${DOOR_SCANS} single scans one after another (${reports} reports ran beside them)\n`)
  console.log(formatTable([['phase', 'p50 ms', 'p99 ms', 'max ms'], alone, beside]))
} finally {
  await server?.stop()
  rmSync(dir, { recursive: true, force: true })
}
