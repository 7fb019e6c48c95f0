/**
 * Sale benchmark: POST /api/invoices/ over HTTP from the built executable, on the `large` demo set.
 *
 *   npx bun run test/bench/invoices.ts [--runs 300]     (or `npm run bench -- invoices`)
 *   npx bun run test/bench/invoices.ts --compare OLDER_EXECUTABLE [--rounds 6] [--runs 150]
 *
 * Builds build/out/belay if it is stale, seeds the `large` demo set into a temporary FILE database
 * (os.tmpdir(), so TMPDIR picks the disk), and serves a copy of it with `belay serve` (migrated and
 * its membership rollup current first: readyToServe), logged in as the demo admin. Then, one request
 * at a time (the desk sells to one customer at a time), each to the next customer:
 * a. a two-line sale: one entry pass and one retail line with a tax rate, paid in full by card;
 * b. the same with a discount code and the payment split between card and cash;
 * c. a membership started on a one-line sale (a membership, its member and its status history).
 * Each case has WARMUP untimed sales, then --runs timed ones. A sale's time runs from fetch until its
 * whole answer has been read; every sale is durable when answered (synchronous=FULL), so the disk's
 * fdatasync is part of each figure, and is measured on its own first. Reported: median, p95 and max
 * ms, the server's CPU time per sale (from /proc: steadier than wall time on a busy host), and the
 * rows the sales added.
 *
 * --compare OLDER_EXECUTABLE puts a build of an earlier commit beside this checkout's: the older one
 * seeds the file (a file of its own schema; this checkout's migrates its copy), and each executable
 * serves a fresh copy of it per round, one after the other in alternating order over --rounds
 * rounds, so that the host's noise and the disk's writeback fall on both alike. Both sell the same
 * sales to the same customers and must answer the same totals. The summary gives each case's
 * median ms and server CPU per sale as ratios paired by round (_paired.ts).
 */
import { Database } from 'bun:sqlite'
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs'
import { cpus, tmpdir } from 'node:os'
import { join } from 'node:path'
import { numberArg, stringArg } from './_args.ts'
import {
  BELAY,
  buildIfNeeded,
  connectSession,
  countRows,
  processCpuMs,
  readyToServe,
  seedLarge,
  startServing,
  type Served,
} from './_door-setup.ts'
import { timeFsyncs } from './_fsync.ts'
import { describePairedRatio, pairedRatio } from './_paired.ts'
import { formatTable, loadAverage } from './_table.ts'

const WARMUP = 20
const COMPARE = stringArg('--compare')
const RUNS = numberArg('--runs', COMPARE ? 150 : 300)
const ROUNDS = numberArg('--rounds', COMPARE ? 6 : 1)
/** A membership starts on the day it is sold (a UTC date: any day is a valid start). */
const today = new Date().toISOString().slice(0, 10)
const CASES = ['two lines, card', 'two lines, discount, card + cash', 'membership started'] as const
type CaseName = (typeof CASES)[number]

/** One case's figures from one executable in one round. */
interface CaseRun {
  times: number[]
  cpuPerSale: number
  /** the total the server quoted: every executable must quote the same */
  total: string
}

const cpu = cpus()
console.log(
  `machine: ${cpu.length} × ${cpu[0]?.model.trim() ?? 'unknown CPU'}, Bun ${Bun.version}; load average ${loadAverage()}`,
)
console.log(`belay: ${buildIfNeeded()}`)
if (COMPARE) console.log(`compared with: ${COMPARE}`)
const dir = mkdtempSync(join(tmpdir(), 'belay-bench-invoices-'))
let server: Served | null = null
try {
  const fsync = timeFsyncs(join(dir, 'fsync-probe'), { bytes: 4096, count: 400 })
  console.log(
    `disk: 4 KiB write + fdatasync p50 ${fsync.p50.toFixed(0)} µs, p99 ${fsync.p99.toFixed(0)} µs (${dir})`,
  )
  const file = join(dir, 'belay.sqlite')
  const started = performance.now()
  console.log(
    `${seedLarge(file, 1, dir, COMPARE ?? BELAY).split('\n')[0]} (${((performance.now() - started) / 1000).toFixed(1)} s)`,
  )
  // One settled file to copy: everything in the main file, no WAL beside it.
  const settled = new Database(file)
  settled.run('PRAGMA wal_checkpoint(TRUNCATE)')
  settled.close()

  const executables = COMPARE ? [BELAY, COMPARE] : [BELAY]
  const label = (exe: string) => (exe === BELAY ? 'this' : 'other')
  const runs = new Map<string, CaseRun[]>()
  let added = ''
  for (let round = 0; round < ROUNDS; round++) {
    for (const exe of round % 2 === 0 ? executables : [...executables].reverse()) {
      const copy = join(dir, `serve-${label(exe)}.sqlite`)
      copyFileSync(file, copy)
      // Migrated and its membership rollup current before serving, so the six years of days a first
      // start rolls do not run beside the timed sales; its pages on the disk before the first sync.
      readyToServe(exe, copy, dir)
      Bun.spawnSync(['sync'])
      server = await startServing([exe, 'serve', '--db', copy, '--port', '0', '--host', '127.0.0.1'], dir)
      const before = countRows(copy, 'SELECT count(*) AS n FROM invoices')
      const sold = await sellEachCase(server, copy)
      await server.stop()
      server = null
      for (const [name, run] of sold) {
        const key = `${label(exe)}\n${name}`
        runs.set(key, [...(runs.get(key) ?? []), run])
        const quoted = runs.get(`this\n${name}`)?.[0]?.total
        if (quoted !== undefined && quoted !== run.total)
          throw new Error(`${name}: ${label(exe)} quoted ${run.total}, this checkout ${quoted}`)
      }
      added =
        `invoices added ${countRows(copy, 'SELECT count(*) AS n FROM invoices') - before} per run, ` +
        `payments ${countRows(copy, 'SELECT count(*) AS n FROM payments')} in all`
      rmSync(copy, { force: true })
      rmSync(`${copy}-wal`, { force: true })
      rmSync(`${copy}-shm`, { force: true })
    }
  }

  const pick = (sorted: number[], q: number) =>
    sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!
  const median = (values: number[]) =>
    pick(
      [...values].sort((a, b) => a - b),
      0.5,
    )
  const table: string[][] = [
    ['executable', 'case', 'sales', 'median ms', 'p95 ms', 'max ms', 'server CPU ms/sale'],
  ]
  for (const name of CASES)
    for (const exe of executables) {
      const caseRuns = runs.get(`${label(exe)}\n${name}`)!
      const times = caseRuns.flatMap((r) => r.times).sort((a, b) => a - b)
      table.push([
        label(exe),
        `POST /api/invoices/ ${name}`,
        String(times.length),
        pick(times, 0.5).toFixed(2),
        pick(times, 0.95).toFixed(2),
        times[times.length - 1]!.toFixed(2),
        median(caseRuns.map((r) => r.cpuPerSale)).toFixed(2),
      ])
    }
  console.log(`\n${WARMUP} warm-up and ${RUNS} timed sales per case, ${ROUNDS} round(s)\n`)
  console.log(formatTable(table, { leftColumns: 2, rule: true }))
  console.log(added)
  if (COMPARE) {
    console.log(`\nother / this, paired by round (above 1: this is faster; other: ${COMPARE}):`)
    for (const name of CASES) {
      const mine = runs.get(`this\n${name}`)!
      const theirs = runs.get(`other\n${name}`)!
      console.log(`  ${name}`)
      console.log(
        `    median ms:       ${describePairedRatio(
          pairedRatio(
            theirs.map((r) => median(r.times)),
            mine.map((r) => median(r.times)),
          ),
        )}`,
      )
      console.log(
        `    server CPU/sale: ${describePairedRatio(
          pairedRatio(
            theirs.map((r) => r.cpuPerSale),
            mine.map((r) => r.cpuPerSale),
          ),
        )}`,
      )
    }
  }
  console.log(`load average ${loadAverage()}`)
} finally {
  await server?.stop()
  rmSync(dir, { recursive: true, force: true })
}

/** Sells every case WARMUP + RUNS times on a served copy, each sale to the next customer. */
async function sellEachCase(served: Served, file: string): Promise<Map<CaseName, CaseRun>> {
  const s = await connectSession(served, file)
  const first = <T>(sql: string) => countRows(file, sql) as T
  // The catalogue the sales draw from: products the demo sells, and a tax rate and discount of the
  // bench's own, so that every sale computes a discount spread and tax per line.
  const entryPassId = first<number>(`SELECT min(id) AS n FROM entry_pass_types WHERE status = 'ACT'`)
  const membershipId = first<number>(
    `SELECT min(id) AS n FROM membership_types WHERE status = 'ACT' AND is_group = 0 AND purchase_type = 'REC'`,
  )
  const taxRate = await s.api('POST', '/api/tax-rates/', { name: 'Bench retail tax', rate: '0.0825' })
  await s.api('POST', '/api/discounts/', { code: 'BENCH5', name: 'Bench five', percent_off: '5' })
  const customerIds = rowsOf(file, `SELECT id FROM customers ORDER BY id LIMIT ${3 * (1 + WARMUP + RUNS)}`)
  let next = 0
  const retail = {
    purchase_type: 'GEN',
    description: 'Chalk bag',
    unit_price: '12.00',
    tax_rate_id: taxRate.id,
  }
  const requests: Record<CaseName, () => unknown> = {
    'two lines, card': () => ({
      customer_id: customerIds[next++],
      line_items: [{ purchase_type: 'EPA', entry_pass_id: entryPassId }, retail],
      payments: [{ payment_type: 'OFF', payment_method_type: 'CRD', amount: 'TOTAL' }],
    }),
    'two lines, discount, card + cash': () => ({
      customer_id: customerIds[next++],
      discount_codes: ['BENCH5'],
      line_items: [{ purchase_type: 'EPA', entry_pass_id: entryPassId }, retail],
      payments: [
        { payment_type: 'OFF', payment_method_type: 'CRD', amount: '10.00' },
        { payment_type: 'OFF', amount: 'REST' },
      ],
    }),
    'membership started': () => ({
      customer_id: customerIds[next++],
      line_items: [{ purchase_type: 'MIN', membership_id: membershipId, start_date: today }],
      payments: [{ payment_type: 'OFF', payment_method_type: 'CRD', amount: 'TOTAL' }],
    }),
  }

  const sold = new Map<CaseName, CaseRun>()
  for (const name of CASES) {
    const request = requests[name]
    // The total a sale comes to, asked of the server once (no payments: the whole balance is due).
    const quote = (await s.api('POST', '/api/invoices/', { ...(request() as object), payments: [] })) as {
      total: string
    }
    const total = Number(quote.total)
    const times: number[] = []
    let cpuAtWarmupEnd = 0
    for (let i = 0; i < WARMUP + RUNS; i++) {
      if (i === WARMUP) cpuAtWarmupEnd = processCpuMs(served.pid)
      const body = JSON.stringify(request())
        .replace('"TOTAL"', JSON.stringify(total.toFixed(2)))
        .replace('"REST"', JSON.stringify((total - 10).toFixed(2)))
      const t0 = performance.now()
      const res = await fetch(`${served.base}/api/invoices/`, {
        method: 'POST',
        headers: { authorization: `Token ${s.target.token}`, 'content-type': 'application/json' },
        body,
      })
      const text = await res.text()
      const ms = performance.now() - t0
      if (res.status !== 201) throw new Error(`${name}: ${res.status} ${text}`)
      if (i >= WARMUP) times.push(ms)
    }
    sold.set(name, {
      times,
      cpuPerSale: (processCpuMs(served.pid) - cpuAtWarmupEnd) / RUNS,
      total: quote.total,
    })
  }
  return sold
}

function rowsOf(file: string, sql: string): number[] {
  const sqlite = new Database(file, { readonly: true })
  try {
    return (sqlite.query(sql).all() as { id: number }[]).map((r) => r.id)
  } finally {
    sqlite.close()
  }
}
