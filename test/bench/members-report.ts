/**
 * Members report benchmark: GET /api/members/ over HTTP from the BUILT executable, on the `large`
 * demo set. Loopback only; everything lives in one temporary directory, removed at the end.
 *
 *   npx bun run test/bench/members-report.ts     (or `npm run bench -- members`)
 *   npx bun run test/bench/members-report.ts --compare OTHER_EXECUTABLE [--rounds 2] [--runs 20]
 *   npx bun run test/bench/members-report.ts --db PATH ...     (seeds PATH once, then reuses it)
 *
 * Builds build/out/belay if it is older than the sources, seeds `belay seed-demo --size large` into
 * a temporary file (os.tmpdir(), so TMPDIR picks the disk; its memberships come with their
 * invoices) and rolls its membership history (`belay rollup rebuild`, which serve would otherwise do
 * in each copy's first seconds), starts `belay serve` on a copy of it and logs in as the demo
 * admin. Then the default report and a few filtered ones, each WARMUP untimed requests then --runs
 * timed ones, one after another from one client; a request's time runs from sending it until its
 * whole body has been read. Reported per case: median, p95 and max wall-clock ms, the server's
 * median CPU ms per request (from /proc: steadier than wall-clock when the machine is busy
 * elsewhere), also for its own thread and its worker threads apart, the server's median minor page
 * faults per request (pages of memory it touched for the first time: a count, which a busy host
 * does not change), rows and body size; per server: its RSS once logged in and after the last
 * request (each after two idle seconds), and its peak (VmHWM).
 *
 * --compare OTHER_EXECUTABLE puts another build of Belay (say, of the commit before a change) beside
 * this checkout's: each serves its own copy of the seeded file (the other must accept this
 * checkout's migrations), one after the other, in alternating order over --rounds rounds, so that
 * the host's noise falls on both alike; and every body of the two must be the same bytes (but for
 * the server's own address in URLs, and the last invoice fields when one build leaves them null),
 * or the bench fails.
 *
 * --db PATH keeps the seeded file at PATH instead of the temporary directory: seeded there when it
 * does not exist yet, read as it is when it does (each server still gets its own copy), and left
 * there at the end, so a series of runs skips the seeding.
 */
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import {
  BELAY,
  buildIfNeeded,
  connectSession,
  processCpuMs,
  rollUpBeforeServing,
  seedLarge,
  startServing,
  threadCpuMs,
  type Served,
} from './_door-setup.ts'
import { numberArg, stringArg } from './_args.ts'
import { formatTable, loadAverage, machineLine } from './_table.ts'

const WARMUP = 3
const RUNS = numberArg('--runs', 20)
const ROUNDS = numberArg('--rounds', 2)
/** How long the server is left idle before its RSS is read, so that what it frees is counted as freed. */
const SETTLE_MS = 2_000
const COMPARE = stringArg('--compare')
const KEPT_DB_ARG = stringArg('--db')
const KEPT_DB = KEPT_DB_ARG === undefined ? undefined : resolve(KEPT_DB_ARG)

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

/** A body as compared between builds: the server's address and, unless both set them, last invoices. */
function comparable(body: string, base: string, withLastInvoices: boolean): string {
  const text = body.replaceAll(base, 'BASE')
  if (withLastInvoices) return text
  const rows = JSON.parse(text) as Array<Record<string, unknown>>
  for (const row of rows)
    for (const key of [
      'last_invoice_id',
      'last_invoice_amount',
      'last_invoice_tax_amount',
      'last_invoice_date',
    ])
      if (key in row) row[key] = null
  return JSON.stringify(rows)
}

/** A field of /proc/PID/status in MB (VmRSS, VmHWM). */
function statusMb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const match = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
  return match ? Number(match[1]) / 1024 : NaN
}

/**
 * Minor page faults so far of a process: each is the system mapping a page of memory touched for the
 * first time. A count, so no busier host changes it, and on a virtual machine each costs dearly.
 */
function minorFaults(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  return Number(stat.slice(stat.lastIndexOf(') ') + 2).split(' ')[7])
}

const pick = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]!
const median = (values: number[]) =>
  pick(
    [...values].sort((a, b) => a - b),
    0.5,
  )

console.log(machineLine())

const dir = mkdtempSync(join(tmpdir(), 'belay-bench-members-'))
const seededFile = KEPT_DB ?? join(dir, 'seeded.sqlite3')
let server: Served | null = null
try {
  console.log(`executable: ${buildIfNeeded()} (${BELAY})`)
  if (COMPARE) console.log(`compared with: ${COMPARE}`)
  if (KEPT_DB && existsSync(KEPT_DB)) console.log(`seeded file: ${KEPT_DB} (seeded before)`)
  else {
    const started = performance.now()
    const seeded = seedLarge(seededFile, 1, dir)
    console.log(`${seeded.split('\n')[0]} (${((performance.now() - started) / 1000).toFixed(1)} s)`)
    // Once, before the copies: serve's start-up roll of six years of days would otherwise run in
    // every copy's first seconds, beside the first timed reports.
    rollUpBeforeServing(BELAY, seededFile, dir)
  }

  const executables = COMPARE ? [BELAY, COMPARE] : [BELAY]
  const label = (exe: string) => (exe === BELAY ? 'this checkout' : exe)
  const cases: Array<[string, string]> = [
    ['default (active, frozen, failed)', ''],
    ['status_in=frozen', '?status_in=frozen'],
    ['include_billing_info=true', '?include_billing_info=true'],
  ]
  /** Per executable and case: wall and server CPU ms of every timed request (all, main thread, workers). */
  const timings = new Map<
    string,
    {
      wall: number[]
      cpu: number[]
      main: number[]
      workers: number[]
      faults: number[]
      rows: number
      bytes: number
    }
  >()
  const bodies = new Map<string, string>()
  const memory = new Map<string, { loggedIn: number[]; after: number[]; peak: number[] }>()

  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? executables : [...executables].reverse()
    for (const exe of order) {
      const file = join(dir, `serve-${round}-${executables.indexOf(exe)}.sqlite3`)
      copyFileSync(seededFile, file)
      server = await startServing([exe, 'serve', '--db', file, '--port', '0', '--host', '127.0.0.1'], dir)
      const served = server
      const { target } = await connectSession(served, file)
      const mem = memory.get(exe) ?? { loggedIn: [], after: [], peak: [] }
      memory.set(exe, mem)
      await sleep(SETTLE_MS)
      mem.loggedIn.push(statusMb(served.pid, 'VmRSS'))
      const request = async (query: string) => {
        const response = await fetch(`${served.base}/api/members/${query}`, {
          headers: { authorization: `Token ${target.token}` },
        })
        const body = await response.text()
        if (response.status !== 200) throw new Error(`GET /api/members/${query}: ${response.status} ${body}`)
        return body
      }
      for (const [name, query] of cases) {
        for (let i = 0; i < WARMUP; i++) await request(query)
        const key = `${exe}\n${name}`
        const entry = timings.get(key) ?? {
          wall: [],
          cpu: [],
          main: [],
          workers: [],
          faults: [],
          rows: 0,
          bytes: 0,
        }
        timings.set(key, entry)
        let body = ''
        for (let i = 0; i < RUNS; i++) {
          const cpu0 = processCpuMs(served.pid)
          const faults0 = minorFaults(served.pid)
          const threads0 = threadCpuMs(served.pid)
          const t0 = performance.now()
          body = await request(query)
          entry.wall.push(performance.now() - t0)
          entry.cpu.push(processCpuMs(served.pid) - cpu0)
          entry.faults.push(minorFaults(served.pid) - faults0)
          const threads = threadCpuMs(served.pid)
          entry.main.push(threads.main - threads0.main)
          entry.workers.push(threads.workers - threads0.workers)
        }
        entry.rows = (JSON.parse(body) as unknown[]).length
        entry.bytes = Buffer.byteLength(body)
        const compared = comparable(body, served.base, !COMPARE)
        const other = bodies.get(name)
        if (other !== undefined && other !== compared)
          throw new Error(`${name}: ${label(exe)} answered a different body`)
        bodies.set(name, compared)
      }
      await sleep(SETTLE_MS)
      mem.after.push(statusMb(served.pid, 'VmRSS'))
      mem.peak.push(statusMb(served.pid, 'VmHWM'))
      await served.stop()
      server = null
      rmSync(file, { force: true })
    }
  }

  const table: string[][] = [
    [
      'executable',
      'case',
      'rows',
      'body MB',
      'median ms',
      'p95 ms',
      'max ms',
      'server CPU ms',
      'main thread',
      'workers',
      'page faults',
    ],
  ]
  for (const [name] of cases)
    for (const exe of executables) {
      const { wall, cpu: cpuUsed, main, workers, faults, rows, bytes } = timings.get(`${exe}\n${name}`)!
      const sorted = [...wall].sort((a, b) => a - b)
      table.push([
        label(exe),
        name,
        rows.toLocaleString('en-US'),
        (bytes / 1e6).toFixed(1),
        pick(sorted, 0.5).toFixed(1),
        pick(sorted, 0.95).toFixed(1),
        sorted[sorted.length - 1]!.toFixed(1),
        median(cpuUsed).toFixed(0),
        median(main).toFixed(0),
        median(workers).toFixed(0),
        median(faults).toLocaleString('en-US'),
      ])
    }
  console.log(`\n${WARMUP} warm-up and ${RUNS} timed requests per case, ${ROUNDS} rounds\n`)
  console.log(formatTable(table))
  const rss: string[][] = [['executable', 'RSS logged in MB', 'RSS after MB', 'peak RSS MB']]
  for (const exe of executables) {
    const { loggedIn, after, peak } = memory.get(exe)!
    rss.push([label(exe), median(loggedIn).toFixed(0), median(after).toFixed(0), median(peak).toFixed(0)])
  }
  console.log(`\nthe server's memory (medians over rounds)\n`)
  console.log(formatTable(rss))
  if (COMPARE)
    console.log('\nevery body was the same bytes from both executables (last invoice fields aside)')
  console.log(`\nload average (1, 5, 15 min): ${loadAverage()}`)
} finally {
  await server?.stop()
  rmSync(dir, { recursive: true, force: true })
}
