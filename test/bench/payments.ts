/**
 * Payments list benchmark: GET /api/payments/ over HTTP from the built executable.
 *
 *   npx bun run test/bench/payments.ts     (or `npm run bench -- payments`)
 *   npx bun run test/bench/payments.ts --compare OLDER_EXECUTABLE [--rounds 2] [--runs 30]
 *
 * Builds build/out/belay if it is stale, seeds the `large` demo set (its five years of sales hold
 * over 300,000 payments) into a temporary FILE database (os.tmpdir(), so TMPDIR picks the disk),
 * starts `belay serve` on a copy of it and sends each case WARMUP untimed requests, then --runs
 * timed ones, one at a time, with a token of a user who has can_access_reports. A request's time runs from fetch until
 * its whole body has been read; the server's CPU per request is read from /proc (steadier than
 * wall-clock when the machine is busy elsewhere). Reported: median, p95 and max ms, the server's
 * CPU ms per request (its median over rounds), the count and the body size.
 *
 * Each executable migrates its own copy (`belay migrate`, then `belay rollup rebuild` where it keeps
 * a membership rollup, so that its first seconds of serving are not spent rolling six years of days
 * beside the timed requests; both timed) before serving it.
 *
 * --compare OLDER_EXECUTABLE puts a build of an earlier commit beside this checkout's: the older one
 * seeds the file, and each executable serves its own copy, one after the other, in alternating order
 * over --rounds rounds, so that the host's noise falls on both alike; both must list the same
 * payments (count and page ids) in every case, or the bench fails.
 */
import { Database } from 'bun:sqlite'
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs'
import { cpus, tmpdir } from 'node:os'
import { join } from 'node:path'
import { hashTokenKey, newTokenKey } from '../../src/lib/secrets.ts'
import { numberArg, stringArg } from './_args.ts'
import {
  BELAY,
  buildIfNeeded,
  processCpuMs,
  readyToServe,
  seedLarge,
  startServing,
  type Served,
} from './_door-setup.ts'
import { formatTable, loadAverage } from './_table.ts'

const WARMUP = 5
const RUNS = numberArg('--runs', 30)
const ROUNDS = numberArg('--rounds', 1)
const COMPARE = stringArg('--compare')
/** A token of a new staff user with can_access_reports only. */
function reportsToken(file: string): { token: string; searchTerm: string } {
  const sqlite = new Database(file)
  try {
    const { id } = sqlite
      .query(
        `INSERT INTO staff_users (email, first_name, last_name, date_joined, is_active, can_manage_events,
          can_manage_members, can_manage_customer_proficiencies, can_export_customers, can_access_reports,
          is_organization_admin, pin_mode_required, pin_hash, default_gym_id, password_hash)
         VALUES ('bench-reports@gym.example', 'Bench', 'Reports', $at, 1, 0, 0, 0, 0, 1, 0, 0, NULL,
          (SELECT min(id) FROM gyms), NULL) RETURNING id`,
      )
      .get({ $at: new Date().toISOString() }) as { id: number }
    const token = newTokenKey()
    sqlite
      .query('INSERT INTO auth_tokens (key_hash, user_id, created_at, expires_at) VALUES (?, ?, ?, NULL)')
      .run(hashTokenKey(token), id, new Date().toISOString())
    // A customer with payments: the search a desk would type (their last name and first name).
    const customer = sqlite
      .query(
        `SELECT c.first_name, c.last_name FROM invoices i JOIN customers c ON c.id = i.customer_id
         WHERE c.last_name <> '' ORDER BY i.id LIMIT 1 OFFSET 1000`,
      )
      .get() as { first_name: string; last_name: string }
    return { token, searchTerm: `${customer.last_name} ${customer.first_name}` }
  } finally {
    sqlite.close()
  }
}

/** A customer with sales whose last and first names are one word each: the desk's searches. */
function searchesOf(file: string): { oneTerm: string; twoTerms: string } {
  const sqlite = new Database(file, { readonly: true })
  try {
    const customer = sqlite
      .query(
        `SELECT c.first_name, c.last_name FROM invoices i JOIN customers c ON c.id = i.customer_id
         WHERE c.last_name GLOB '[A-Za-z]*' AND c.last_name NOT GLOB '*[^A-Za-z]*'
           AND c.first_name GLOB '[A-Za-z]*' AND c.first_name NOT GLOB '*[^A-Za-z]*'
         ORDER BY i.id LIMIT 1 OFFSET 1000`,
      )
      .get() as { first_name: string; last_name: string }
    return { oneTerm: customer.last_name, twoTerms: `${customer.last_name} ${customer.first_name}` }
  } finally {
    sqlite.close()
  }
}

/** Per executable and case: wall ms of each timed request, server CPU ms per request in each round, the count and body size. */
interface Timings {
  wall: number[]
  cpu: number[]
  count: number
  bytes: number
}

const pick = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]!
const median = (values: number[]) =>
  pick(
    [...values].sort((a, b) => a - b),
    0.5,
  )

const cpu = cpus()
console.log(
  `machine: ${cpu.length} × ${cpu[0]?.model.trim() ?? 'unknown CPU'}, Bun ${Bun.version}; ` +
    `load average ${loadAverage()}`,
)
console.log(`belay: ${buildIfNeeded()}`)
if (COMPARE) console.log(`compared with: ${COMPARE}`)
const dir = mkdtempSync(join(tmpdir(), 'belay-bench-payments-'))
let server: Served | null = null
try {
  const file = join(dir, 'belay.sqlite')
  let started = performance.now()
  // An older executable is handed a file of its own schema; this checkout's migrates its copy.
  const seeded = seedLarge(file, 1, dir, COMPARE ?? BELAY)
  console.log(`seeded the large demo set in ${((performance.now() - started) / 1000).toFixed(1)} s`)
  console.log(seeded.split('\n').find((line) => line.trim().startsWith('sales')) ?? '  (no sales)')
  const { token } = reportsToken(file)
  const { oneTerm, twoTerms } = searchesOf(file)

  const cases: [string, string][] = [
    ['one month', 'created_at_min=2026-10-01&created_at_max=2026-10-31'],
    [`search, one term (${oneTerm})`, `search=${encodeURIComponent(oneTerm)}`],
    [`search, two terms (${twoTerms})`, `search=${encodeURIComponent(twoTerms)}`],
    ['status_in=FAI', 'status_in=FAI'],
    ['status_in=FAI,PRF', 'status_in=FAI,PRF'],
    ['no filter', ''],
  ]
  const executables = COMPARE ? [BELAY, COMPARE] : [BELAY]
  const label = (exe: string) => (exe === BELAY ? 'this checkout' : exe)
  const timings = new Map<string, Timings>()
  /** Per case: the count and the page's ids, which every executable must answer alike. */
  const listed = new Map<string, string>()

  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? executables : [...executables].reverse()
    for (const exe of order) {
      const copy = join(dir, `serve-${round}-${executables.indexOf(exe)}.sqlite`)
      copyFileSync(file, copy)
      started = performance.now()
      const rolled = readyToServe(exe, copy, dir)
      console.log(
        `${label(exe)} migrated its copy${rolled ? ' and rolled its memberships' : ''} in ` +
          `${((performance.now() - started) / 1000).toFixed(1)} s`,
      )
      server = await startServing([exe, 'serve', '--db', copy, '--port', '0', '--host', '127.0.0.1'], dir)
      const served = server
      for (const [name, query] of cases) {
        const url = `${served.base}/api/payments/?${query}`
        const key = `${exe}\n${name}`
        const entry = timings.get(key) ?? { wall: [], cpu: [], count: 0, bytes: 0 }
        timings.set(key, entry)
        let cpuBefore = 0
        for (let i = 0; i < WARMUP + RUNS; i++) {
          if (i === WARMUP) cpuBefore = processCpuMs(served.pid)
          const start = performance.now()
          const res = await fetch(url, { headers: { authorization: `Token ${token}` } })
          const body = await res.text()
          const ms = performance.now() - start
          if (res.status !== 200) throw new Error(`${name}: ${res.status} ${body}`)
          if (i < WARMUP) continue
          entry.wall.push(ms)
          const page = JSON.parse(body) as { count: number; results: { id: number }[] }
          entry.count = page.count
          entry.bytes = body.length
          const answer = `${page.count}: ${page.results.map((row) => row.id).join(',')}`
          if ((listed.get(name) ?? answer) !== answer)
            throw new Error(`${name}: ${label(exe)} listed other payments (${answer} vs ${listed.get(name)})`)
          listed.set(name, answer)
        }
        // /proc counts CPU in ticks of 10 ms: the round's total over its requests is finer.
        entry.cpu.push((processCpuMs(served.pid) - cpuBefore) / RUNS)
      }
      await served.stop()
      server = null
      rmSync(copy, { force: true })
    }
  }

  const rows: string[][] = [
    ['executable', 'GET /api/payments/', 'count', 'bytes', 'median ms', 'p95 ms', 'max ms', 'server CPU ms'],
  ]
  for (const [name] of cases)
    for (const exe of executables) {
      const { wall, cpu: cpuUsed, count, bytes } = timings.get(`${exe}\n${name}`)!
      const sorted = [...wall].sort((a, b) => a - b)
      rows.push([
        label(exe),
        name,
        String(count),
        String(bytes),
        pick(sorted, 0.5).toFixed(1),
        pick(sorted, 0.95).toFixed(1),
        sorted[sorted.length - 1]!.toFixed(1),
        median(cpuUsed).toFixed(1),
      ])
    }
  console.log(`\n${WARMUP} warm-up and ${RUNS} timed requests per case, ${ROUNDS} round(s)\n`)
  console.log(formatTable(rows, { leftColumns: 2, rule: true }))
  if (COMPARE) console.log('\nboth executables listed the same payments (count and page ids) in every case')
  console.log(`\nload average (1, 5, 15 min): ${loadAverage()}`)
} finally {
  await server?.stop()
  rmSync(dir, { recursive: true, force: true })
}
