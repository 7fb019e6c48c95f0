/**
 * CSV export benchmark: `?format=csv` over HTTP from the BUILT executable, on the `large` demo set.
 * Loopback only; everything lives in one temporary directory, removed at the end.
 *
 *   npx bun run test/bench/export.ts     (or `npm run bench -- export`)
 *   npx bun run test/bench/export.ts --db PATH [--runs 5]     (seeds PATH once, then reuses it)
 *   ... [--only customer] [--executable OTHER]     (the exports whose name holds the word; another build)
 *
 * Builds build/out/belay if it is older than the sources, seeds `belay seed-demo --size large` (or
 * reads --db PATH as it is when it exists), gives the demo admin a token in a copy (written into the
 * file: a login's argon2id would take its 64 MiB of the server's memory before any export) and starts
 * `belay serve` on it. Then, from one client reading each body as it arrives: every check-in as CSV (1.6 million
 * rows) once, with the server's RSS read from /proc every 20 ms meanwhile; every customer (21,000),
 * every payment and every member row, --runs times each. Reported per export: rows, MB, median and
 * max seconds, rows per second, the server's median CPU seconds (all threads, from /proc: steadier
 * than the wall clock on a busy host), and the server's RSS before it and its highest sample during it;
 * and the server's peak RSS over its whole life (VmHWM), which the export must keep under 150 MB.
 */
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { numberArg, stringArg } from './_args.ts'
import { Database } from 'bun:sqlite'
import { hashTokenKey, newTokenKey } from '../../src/lib/secrets.ts'
import {
  BELAY,
  buildIfNeeded,
  processCpuMs,
  rollUpBeforeServing,
  seedLarge,
  startServing,
  type Served,
} from './_door-setup.ts'
import { formatTable, loadAverage, machineLine } from './_table.ts'

const RUNS = numberArg('--runs', 5)
const KEPT_DB_ARG = stringArg('--db')
const KEPT_DB = KEPT_DB_ARG === undefined ? undefined : resolve(KEPT_DB_ARG)
/** Only the exports whose name holds this (`customer`, `check-in`), e.g. to compare two builds quickly. */
const ONLY = stringArg('--only')
/** Another build's executable to serve with (it is not built), e.g. one of the commit before. */
const EXECUTABLE_ARG = stringArg('--executable')
const EXECUTABLE = EXECUTABLE_ARG === undefined ? BELAY : resolve(EXECUTABLE_ARG)
const SAMPLE_MS = 20
const SETTLE_MS = 2_000

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

/** A field of /proc/PID/status in MB (VmRSS, VmHWM). */
function statusMb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const match = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
  return match ? Number(match[1]) / 1024 : NaN
}

interface Download {
  rows: number
  bytes: number
  seconds: number
  /** The server's CPU time (all its threads) for the export: what a busy host does not stretch. */
  cpuSeconds: number
  peakRssMb: number
}

/** One export, its body read as it comes (never kept whole), the server's RSS sampled meanwhile. */
async function download(served: Served, token: string, path: string): Promise<Download> {
  let peakRssMb = statusMb(served.pid, 'VmRSS')
  const sampler = setInterval(() => {
    peakRssMb = Math.max(peakRssMb, statusMb(served.pid, 'VmRSS'))
  }, SAMPLE_MS)
  try {
    const cpu0 = processCpuMs(served.pid)
    const t0 = performance.now()
    const response = await fetch(`${served.base}${path}`, { headers: { authorization: `Token ${token}` } })
    if (response.status !== 200) throw new Error(`GET ${path}: ${response.status} ${await response.text()}`)
    let lines = 0
    let bytes = 0
    for await (const chunk of response.body!) {
      bytes += chunk.length
      // Line ends: the demo's values hold no line break of their own.
      for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++
    }
    const seconds = (performance.now() - t0) / 1000
    peakRssMb = Math.max(peakRssMb, statusMb(served.pid, 'VmRSS'))
    const cpuSeconds = (processCpuMs(served.pid) - cpu0) / 1000
    return { rows: lines - 1, bytes, seconds, cpuSeconds, peakRssMb }
  } finally {
    clearInterval(sampler)
  }
}

/** A token of the demo's first admin, written into `file` as the API stores one. */
function adminToken(file: string): string {
  const db = new Database(file)
  try {
    const key = newTokenKey()
    const admin = db
      .query('SELECT id FROM staff_users WHERE is_organization_admin = 1 ORDER BY id LIMIT 1')
      .get() as { id: number }
    db.query(
      'INSERT INTO auth_tokens (key_hash, user_id, created_at, expires_at) VALUES (?, ?, ?, NULL)',
    ).run(hashTokenKey(key), admin.id, new Date().toISOString())
    return key
  } finally {
    db.close()
  }
}

console.log(machineLine())

const dir = mkdtempSync(join(tmpdir(), 'belay-bench-export-'))
const seededFile = KEPT_DB ?? join(dir, 'seeded.sqlite3')
let server: Served | null = null
try {
  console.log(`executable: ${EXECUTABLE_ARG === undefined ? buildIfNeeded() : 'given'} (${EXECUTABLE})`)
  if (KEPT_DB && existsSync(KEPT_DB)) console.log(`seeded file: ${KEPT_DB} (seeded before)`)
  else {
    const seeded = seedLarge(seededFile, 1, dir, EXECUTABLE)
    console.log(seeded.split('\n')[0])
    rollUpBeforeServing(EXECUTABLE, seededFile, dir)
  }
  const file = join(dir, 'serve.sqlite3')
  copyFileSync(seededFile, file)
  const token = adminToken(file)
  server = await startServing([EXECUTABLE, 'serve', '--db', file, '--port', '0', '--host', '127.0.0.1'], dir)
  const served = server
  // Serve's start-up catch-ups (the membership rollup) finish before the first export.
  await sleep(SETTLE_MS)

  const cases: Array<[string, string, number]> = [
    ['every check-in', '/api/check-ins/?format=csv', 1],
    ['every customer', '/api/customers/?format=csv', RUNS],
    ['every payment', '/api/payments/?format=csv', 1],
    ['every member row', '/api/members/?format=csv&include_billing_info=true', RUNS],
  ]
  const table: string[][] = [
    [
      'export',
      'runs',
      'rows',
      'MB',
      'median s',
      'max s',
      'rows/s',
      'server CPU s',
      'RSS before MB',
      'RSS peak MB',
    ],
  ]
  for (const [name, path, runs] of cases.filter(([name]) => ONLY === undefined || name.includes(ONLY))) {
    const before = statusMb(served.pid, 'VmRSS')
    const results: Download[] = []
    for (let i = 0; i < runs; i++) results.push(await download(served, token, path))
    const seconds = results.map((r) => r.seconds).sort((a, b) => a - b)
    const median = seconds[Math.floor((seconds.length - 1) / 2)]!
    const cpu = results.map((r) => r.cpuSeconds).sort((a, b) => a - b)
    const { rows, bytes } = results[0]!
    table.push([
      name,
      String(runs),
      rows.toLocaleString('en-US'),
      (bytes / 1e6).toFixed(1),
      median.toFixed(2),
      seconds.at(-1)!.toFixed(2),
      Math.round(rows / median).toLocaleString('en-US'),
      cpu[Math.floor((cpu.length - 1) / 2)]!.toFixed(2),
      before.toFixed(0),
      Math.max(...results.map((r) => r.peakRssMb)).toFixed(0),
    ])
  }
  const lifetimePeak = statusMb(served.pid, 'VmHWM')
  console.log(`\n${formatTable(table)}`)
  console.log(
    `\nthe server's peak RSS over its life (VmHWM): ${lifetimePeak.toFixed(0)} MB (target: under 150)`,
  )
  console.log(`load average (1, 5, 15 min): ${loadAverage()}`)
  await served.stop()
  server = null
} finally {
  await server?.stop()
  rmSync(dir, { recursive: true, force: true })
}
