/**
 * Walls benchmark: a gym's climbs over HTTP from the BUILT executable, on the `large` demo set,
 * against the target "under 20 ms p50".
 *
 *   npx bun run test/bench/walls.ts     (or `npm run bench -- walls`)
 *   npx bun run test/bench/walls.ts --db PATH     (seeds PATH once, then reuses it)
 *   npx bun run test/bench/walls.ts --compare OTHER_EXECUTABLE [--rounds 2] [--runs 300]
 *
 * Builds build/out/belay if it is older than the sources, seeds `belay seed-demo --size large` into
 * a temporary file (os.tmpdir(), so TMPDIR picks the disk) and rolls its membership history once
 * (`belay rollup rebuild`, which serve would otherwise do in each copy's first seconds, beside the
 * first timed requests). The gym with the most climbs (up and stripped: the demo's first, about
 * 7,500; the bench fails under 5,000) is the one measured: the first page of its climbs list
 * (`/api/gyms/<id>/climbs/`, newest first), its stats for bouldering and for ropes
 * (`/api/gyms/<id>/climbs/stats/?discipline=BOU` and `ROP`), and beside them the two lists a Walls
 * screen opens with, its grades and its sections. Each case gets WARMUP untimed requests, then
 * --runs timed ones, one at a time from one client, as the demo admin; a request's time runs from
 * sending it until its whole body has been read. Reported per case: p50, p99 and max wall-clock
 * ms, the server's CPU ms per request (its CPU over the timed requests, from /proc: steadier than
 * wall-clock when the machine is busy elsewhere), the count the body reports and its size, and
 * whether the p50 meets the target.
 *
 * A case a --compare build does not serve (a 404 from a build without that route, or the empty
 * sub-collection the versions before the walls' API answered) is reported as not served and
 * skipped; the bench fails if this checkout does not serve a case, or if its climbs list counts
 * other than the gym's climbs in the file.
 *
 * --compare OTHER_EXECUTABLE puts another build of Belay (say, of the commit before a change)
 * beside this checkout's: each serves its own copy of the file this checkout seeded (the other must
 * accept its migrations), one after the other, in alternating order over --rounds rounds, so that
 * the host's noise falls on both alike; both must answer every case they both serve with the same
 * body (but for the server's own address in URLs), or the bench fails.
 *
 * --cases stats,grades runs only the cases whose name contains one of the words (climbs, stats,
 * BOU, ROP, grades, sections).
 *
 * --db PATH keeps the seeded file at PATH: seeded there when it does not exist yet, read as it is
 * when it does (each server still gets its own copy), and left there at the end.
 */
import { Database } from 'bun:sqlite'
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { DEMO_ADMIN_EMAIL, DEMO_PASSWORD } from '../../src/demo/index.ts'
import { numberArg, stringArg } from './_args.ts'
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

const WARMUP = 20
const RUNS = numberArg('--runs', 300)
const ROUNDS = numberArg('--rounds', 1)
const COMPARE = stringArg('--compare')
const KEPT_DB_ARG = stringArg('--db')
const KEPT_DB = KEPT_DB_ARG === undefined ? undefined : resolve(KEPT_DB_ARG)
/** --cases grades,sections: only the cases whose name contains one of these. */
const ONLY = (stringArg('--cases') ?? '').split(',').filter((only) => only !== '')
/** The target for every case: a p50 under this many ms. */
const TARGET_P50_MS = 20
/** The list must be long enough to mean something: the demo's biggest gym has about 7,500. */
const MIN_CLIMBS = 5_000

/** The gym with the most climbs, up and stripped, and how many it has, read from the seeded file. */
function biggestGym(file: string): { gymId: number; climbs: number; up: number } {
  const sqlite = new Database(file, { readonly: true })
  try {
    const row = sqlite
      .query(
        `SELECT gym_id AS gymId, count(*) AS climbs, sum(stripped_date IS NULL) AS up
         FROM climbs GROUP BY gym_id ORDER BY climbs DESC, gym_id LIMIT 1`,
      )
      .get() as { gymId: number; climbs: number; up: number } | null
    if (!row) throw new Error(`${file} has no climbs: seed it with a build whose demo sets climbs`)
    return row
  } finally {
    sqlite.close()
  }
}

/** What a body says it holds: a list's count, the stats' climbs up, or a plain array's length. */
function countOf(body: unknown): number {
  if (Array.isArray(body)) return body.length
  const object = body as { count?: number; climbs_up?: number }
  return object.count ?? object.climbs_up ?? NaN
}

const pick = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]!

async function logIn(served: Served): Promise<string> {
  const login = await fetch(`${served.base}/api/get-token/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: DEMO_ADMIN_EMAIL, password: DEMO_PASSWORD }),
  })
  const token = ((await login.json()) as { token?: string }).token
  if (!token) throw new Error(`get-token answered ${login.status}`)
  return token
}

console.log(machineLine())

const dir = mkdtempSync(join(tmpdir(), 'belay-bench-walls-'))
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
    console.log(seeded.split('\n').find((line) => line.trim().startsWith('walls')) ?? '  (no walls)')
    rollUpBeforeServing(BELAY, seededFile, dir)
  }
  const gym = biggestGym(seededFile)
  console.log(`measured: gym ${gym.gymId}, ${gym.climbs.toLocaleString('en-US')} climbs (${gym.up} up)`)
  if (gym.climbs < MIN_CLIMBS)
    throw new Error(`the biggest gym has ${gym.climbs} climbs; the bench wants at least ${MIN_CLIMBS}`)

  const at = `/api/gyms/${gym.gymId}`
  const cases = (
    [
      ['climbs, first page', `${at}/climbs/`],
      ['climbs stats, BOU', `${at}/climbs/stats/?discipline=BOU`],
      ['climbs stats, ROP', `${at}/climbs/stats/?discipline=ROP`],
      ['grades', `${at}/grades/`],
      ['sections', `${at}/sections/`],
    ] as const
  ).filter(([name]) => ONLY.length === 0 || ONLY.some((only) => name.includes(only)))
  const executables = COMPARE ? [BELAY, COMPARE] : [BELAY]
  const label = (exe: string) => (exe === BELAY ? 'this checkout' : exe)
  /** Per executable and case: wall ms of every timed request, server CPU ms per request by round. */
  const timings = new Map<string, { wall: number[]; cpu: number[]; count: number; bytes: number }>()
  /** Per executable: the cases it answered 404 (a build without the route). */
  const notServed = new Map<string, Set<string>>()
  /** Per case: the body, which every executable that serves the case must answer alike. */
  const bodies = new Map<string, string>()

  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? executables : [...executables].reverse()
    for (const exe of order) {
      const file = join(dir, `serve-${round}-${executables.indexOf(exe)}.sqlite3`)
      copyFileSync(seededFile, file)
      server = await startServing([exe, 'serve', '--db', file, '--port', '0', '--host', '127.0.0.1'], dir)
      const served = server
      const token = await logIn(served)
      const missing = notServed.get(exe) ?? new Set<string>()
      notServed.set(exe, missing)
      const request = async (path: string) => {
        const response = await fetch(`${served.base}${path}`, {
          headers: { authorization: `Token ${token}` },
        })
        return { status: response.status, body: await response.text() }
      }
      for (const [name, path] of cases) {
        if (missing.has(name)) continue
        const first = await request(path)
        if (first.status === 404 && exe !== BELAY) {
          missing.add(name)
          continue
        }
        if (first.status !== 200) throw new Error(`GET ${path}: ${first.status} ${first.body}`)
        const listed = countOf(JSON.parse(first.body))
        // The gym has climbs, grades and sections: an empty answer is an older build's empty
        // sub-collection, from the versions before the walls' API.
        if (listed === 0) {
          if (exe !== BELAY) {
            missing.add(name)
            continue
          }
          throw new Error(`GET ${path} answered an empty list: does this build serve the walls' API?`)
        }
        if (name === 'climbs, first page' && listed !== gym.climbs)
          throw new Error(`${path} lists ${listed} climbs of the gym's ${gym.climbs}`)
        for (let i = 1; i < WARMUP; i++) await request(path)
        const key = `${exe}\n${name}`
        const entry = timings.get(key) ?? { wall: [], cpu: [], count: 0, bytes: 0 }
        timings.set(key, entry)
        let body = ''
        const cpuBefore = processCpuMs(served.pid)
        for (let i = 0; i < RUNS; i++) {
          const t0 = performance.now()
          const answer = await request(path)
          entry.wall.push(performance.now() - t0)
          if (answer.status !== 200) throw new Error(`GET ${path}: ${answer.status} ${answer.body}`)
          body = answer.body
        }
        // /proc counts CPU in ticks of 10 ms: the run's total over its requests is finer.
        entry.cpu.push((processCpuMs(served.pid) - cpuBefore) / RUNS)
        entry.count = countOf(JSON.parse(body))
        entry.bytes = Buffer.byteLength(body)
        const compared = body.replaceAll(served.base, 'BASE')
        const other = bodies.get(name)
        if (other !== undefined && other !== compared)
          throw new Error(`${name}: ${label(exe)} answered a different body`)
        bodies.set(name, compared)
      }
      await served.stop()
      server = null
      rmSync(file, { force: true })
    }
  }

  const table: string[][] = [
    [
      'executable',
      `GET ${at}/...`,
      'count',
      'bytes',
      'p50 ms',
      'p99 ms',
      'max ms',
      'server CPU ms',
      `p50 < ${TARGET_P50_MS} ms`,
    ],
  ]
  for (const [name] of cases)
    for (const exe of executables) {
      const measured = timings.get(`${exe}\n${name}`)
      if (!measured) {
        table.push([label(exe), name, '', '', '', '', '', '', 'not served'])
        continue
      }
      const sorted = [...measured.wall].sort((a, b) => a - b)
      const p50 = pick(sorted, 0.5)
      const cpuMs = [...measured.cpu].sort((a, b) => a - b)
      table.push([
        label(exe),
        name,
        measured.count.toLocaleString('en-US'),
        measured.bytes.toLocaleString('en-US'),
        p50.toFixed(2),
        pick(sorted, 0.99).toFixed(2),
        sorted[sorted.length - 1]!.toFixed(2),
        pick(cpuMs, 0.5).toFixed(2),
        p50 < TARGET_P50_MS ? 'met' : 'NOT MET',
      ])
    }
  console.log(`\n${WARMUP} warm-up and ${RUNS} timed requests per case, ${ROUNDS} round(s)\n`)
  console.log(formatTable(table, { leftColumns: 2, rule: true }))
  if (COMPARE) console.log('\nevery case both executables serve was answered with the same body by both')
  console.log(`\nload average (1, 5, 15 min): ${loadAverage()}`)
} finally {
  await server?.stop()
  rmSync(dir, { recursive: true, force: true })
}
