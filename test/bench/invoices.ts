/**
 * Sale benchmark: POST /api/invoices/ over HTTP from the built executable, on the `large` demo set.
 *
 *   npx bun run test/bench/invoices.ts [--runs 300]     (or `npm run bench -- invoices`)
 *
 * Builds build/out/belay if it is stale, seeds the `large` demo set into a temporary FILE database
 * (os.tmpdir(), so TMPDIR picks the disk), starts `belay serve` on it and logs in as the demo admin.
 * Then, one request at a time (the desk sells to one customer at a time), each to the next customer:
 * a. a two-line sale: one entry pass and one retail line with a tax rate, paid in full by card;
 * b. the same with a discount code and the payment split between card and cash;
 * c. a membership started on a one-line sale (a membership, its member and its status history).
 * Each case has WARMUP untimed sales, then --runs timed ones. A sale's time runs from fetch until its
 * whole answer has been read; every sale is durable when answered (synchronous=FULL), so the disk's
 * fdatasync is part of each figure, and is measured on its own first. Reported: median, p95 and max
 * ms, the server's CPU time per sale (from /proc: steadier than wall time on a busy host), and the
 * rows the sales added.
 */
import { Database } from 'bun:sqlite'
import { mkdtempSync, rmSync } from 'node:fs'
import { cpus, tmpdir } from 'node:os'
import { join } from 'node:path'
import { numberArg } from './_args.ts'
import {
  BELAY,
  buildIfNeeded,
  connectSession,
  countRows,
  processCpuMs,
  readyToServe,
  seedLarge,
  startServing,
} from './_door-setup.ts'
import { timeFsyncs } from './_fsync.ts'
import { formatTable, loadAverage } from './_table.ts'

const WARMUP = 20
const RUNS = numberArg('--runs', 300)
/** A membership starts on the day it is sold (a UTC date: any day is a valid start). */
const today = new Date().toISOString().slice(0, 10)

const cpu = cpus()
console.log(
  `machine: ${cpu.length} × ${cpu[0]?.model.trim() ?? 'unknown CPU'}, Bun ${Bun.version}; load average ${loadAverage()}`,
)
console.log(`belay: ${buildIfNeeded()}`)
const dir = mkdtempSync(join(tmpdir(), 'belay-bench-invoices-'))
try {
  const fsync = timeFsyncs(join(dir, 'fsync-probe'), { bytes: 4096, count: 400 })
  console.log(
    `disk: 4 KiB write + fdatasync p50 ${fsync.p50.toFixed(0)} µs, p99 ${fsync.p99.toFixed(0)} µs (${dir})`,
  )
  const file = join(dir, 'belay.sqlite')
  const started = performance.now()
  console.log(
    `${seedLarge(file, 1, dir).split('\n')[0]} (${((performance.now() - started) / 1000).toFixed(1)} s)`,
  )
  // Migrated and its membership rollup current before serving, so the six years of days a first
  // start rolls do not run beside the timed sales.
  readyToServe(BELAY, file, dir)
  const served = await startServing([BELAY, 'serve', '--db', file, '--port', '0', '--host', '127.0.0.1'], dir)
  try {
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
    const cases: [string, () => unknown][] = [
      [
        'two lines, card',
        () => ({
          customer_id: customerIds[next++],
          line_items: [{ purchase_type: 'EPA', entry_pass_id: entryPassId }, retail],
          payments: [{ payment_type: 'OFF', payment_method_type: 'CRD', amount: 'TOTAL' }],
        }),
      ],
      [
        'two lines, discount, card + cash',
        () => ({
          customer_id: customerIds[next++],
          discount_codes: ['BENCH5'],
          line_items: [{ purchase_type: 'EPA', entry_pass_id: entryPassId }, retail],
          payments: [
            { payment_type: 'OFF', payment_method_type: 'CRD', amount: '10.00' },
            { payment_type: 'OFF', amount: 'REST' },
          ],
        }),
      ],
      [
        'membership started',
        () => ({
          customer_id: customerIds[next++],
          line_items: [{ purchase_type: 'MIN', membership_id: membershipId, start_date: today }],
          payments: [{ payment_type: 'OFF', payment_method_type: 'CRD', amount: 'TOTAL' }],
        }),
      ],
    ]

    const before = countRows(file, 'SELECT count(*) AS n FROM invoices')
    const table: string[][] = []
    for (const [name, request] of cases) {
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
      const cpuPerSale = (processCpuMs(served.pid) - cpuAtWarmupEnd) / RUNS
      times.sort((a, b) => a - b)
      const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!.toFixed(2)
      table.push([
        `POST /api/invoices/ ${name}`,
        String(RUNS),
        at(0.5),
        at(0.95),
        at(1),
        cpuPerSale.toFixed(2),
      ])
    }
    console.log(
      formatTable([['case', 'sales', 'median ms', 'p95 ms', 'max ms', 'server CPU ms/sale'], ...table], {
        rule: true,
      }),
    )
    const added = countRows(file, 'SELECT count(*) AS n FROM invoices') - before
    console.log(
      `invoices added ${added}, payments ${countRows(file, 'SELECT count(*) AS n FROM payments')}; load average ${loadAverage()}`,
    )
  } finally {
    await served.stop()
  }
} finally {
  rmSync(dir, { recursive: true, force: true })
}

function rowsOf(file: string, sql: string): number[] {
  const sqlite = new Database(file, { readonly: true })
  try {
    return (sqlite.query(sql).all() as { id: number }[]).map((r) => r.id)
  } finally {
    sqlite.close()
  }
}
