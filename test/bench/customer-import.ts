/**
 * Customer import benchmark: POST /api/customers/import/ over HTTP from the built executable, a CSV
 * of 50,000 customers into a fresh box.
 *
 *   npx bun run test/bench/customer-import.ts [--customers 50000] [--rounds 1] [--compare OTHER]
 *   (or `npm run bench -- import`)
 *
 * Builds build/out/belay if it is stale. Each round serves a new empty database (the first start
 * creates the organization, its gym and the admin), writes a CSV of --customers customers (every
 * column the import reads, unique barcodes and emails, a few addresses quoted because they hold a
 * comma), then posts it as a multipart upload twice: first `?dry_run=true` (every row checked,
 * nothing written), then for real (every row checked again, then written in one transaction).
 * Reported: each request's seconds from fetch until its answer was read, the customers the box then
 * holds, the server's CPU seconds, its peak RSS (VmHWM), and the door's wait: a door scan
 * (`barcode-check-in` of a barcode nobody holds, answered 404 after its transaction, which takes the
 * same lock as the import's) sent every 20 ms during each request, how many were answered and the
 * longest one took.
 *
 * --compare OTHER_EXECUTABLE runs another build of Belay (say, main's, copied aside) in each round
 * too, on its own fresh database, the two in turn (which goes first alternates by round), so both are
 * measured on the same busy host at the same time.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { cpus, tmpdir } from 'node:os'
import { join } from 'node:path'
import { existsSync } from 'node:fs'
import { numberArg, stringArg } from './_args.ts'
import { BELAY, buildIfNeeded, countRows, processCpuMs, startServing, type Served } from './_door-setup.ts'
import { formatTable, loadAverage } from './_table.ts'

const CUSTOMERS = numberArg('--customers', 50_000)
const ROUNDS = numberArg('--rounds', 1)
const COMPARE = stringArg('--compare')
if (COMPARE !== undefined && !existsSync(COMPARE)) throw new Error(`--compare: no executable at ${COMPARE}`)
const ADMIN = { email: 'bench@example.com', password: 'bench import password' }

const FIRST = ['Ada', 'Lynn', 'Alex', 'Beth', 'Tommy', 'Sasha', 'Chris', 'Janja', 'Adam', 'Shauna']
const LAST = ['Lovelace', 'Hill', 'Honnold', 'Rodden', 'Caldwell', 'DiGiulian', 'Sharma', 'Garnbret']
const CITIES = ['Boulder', 'Denver', 'Golden', 'Fort Collins', 'Lyons']

/** A spreadsheet of `n` customers, with the headers a gym's sheet would have. */
function spreadsheet(n: number): string {
  const rows = ['First Name,Last Name,Email,Phone,Date of Birth,Barcode,Street,City,State,Zip,Country,Notes']
  for (let i = 0; i < n; i++) {
    const first = FIRST[i % FIRST.length]!
    const last = LAST[(i * 7) % LAST.length]!
    const year = 1950 + (i % 60)
    const month = String((i % 12) + 1).padStart(2, '0')
    const day = String((i % 28) + 1).padStart(2, '0')
    // Every tenth street holds a comma, so its field is quoted as a spreadsheet writes it.
    const street =
      i % 10 === 0 ? `"${100 + (i % 900)} Pearl St, Unit ${i % 40}"` : `${100 + (i % 900)} Pearl St`
    rows.push(
      [
        first,
        last,
        `${first}.${last}.${i}@example.com`.toLowerCase(),
        `(303) 555-${String(i % 10_000).padStart(4, '0')}`,
        `${year}-${month}-${day}`,
        `C${String(100_000 + i)}`,
        street,
        CITIES[i % CITIES.length],
        'CO',
        String(80_301 + (i % 50)),
        'US',
        i % 3 === 0 ? 'pays by card' : '',
      ].join(','),
    )
  }
  return rows.join('\r\n') + '\r\n'
}

/** The server's peak resident set (VmHWM), or its resident set now (VmRSS), MB. */
function rssMb(pid: number, which: 'VmHWM' | 'VmRSS' = 'VmHWM'): number {
  const match = new RegExp(`${which}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
  return match ? Number(match[1]) / 1024 : NaN
}

/**
 * Sends a door scan every 20 ms until stopped (a barcode nobody holds: a 404 answered once its
 * transaction, under the connection's one lock, has committed): how many were answered, and the
 * longest, ms.
 */
function probeDoor(base: string, token: string) {
  let longest = 0
  let scans = 0
  let running = true
  const done = (async () => {
    while (running) {
      const started = performance.now()
      const res = await fetch(`${base}/api/gym-endpoints/barcode-check-in/NOBODY-${scans}/`, {
        method: 'POST',
        headers: { authorization: `Token ${token}`, 'content-type': 'application/json' },
        body: '{}',
      })
      await res.arrayBuffer()
      if (res.status !== 404) throw new Error(`door scan: ${res.status}`)
      longest = Math.max(longest, performance.now() - started)
      scans++
      await Bun.sleep(20)
    }
  })()
  return async () => {
    running = false
    await done
    return { scans, longestMs: longest }
  }
}

interface Run {
  dryRunS: number
  importS: number
  customers: number
  cpuS: number
  startMb: number
  peakMb: number
  dryRunDoor: { scans: number; longestMs: number }
  importDoor: { scans: number; longestMs: number }
}

async function post(served: Served, token: string, csv: Blob, query: string) {
  const form = new FormData()
  form.append('file', csv, 'customers.csv')
  const started = performance.now()
  const res = await fetch(`${served.base}/api/customers/import/${query}`, {
    method: 'POST',
    headers: { authorization: `Token ${token}` },
    body: form,
  })
  const body = await res.text()
  const seconds = (performance.now() - started) / 1000
  return { status: res.status, body, seconds }
}

async function oneRound(dir: string, round: number, csv: Blob, executable: string): Promise<Run> {
  const file = join(dir, `fresh-${round}-${executable === BELAY ? 'this' : 'other'}.sqlite`)
  const served = await startServing(
    [executable, 'serve', '--db', file, '--port', '0', '--host', '127.0.0.1'],
    dir,
    {
      BELAY_ADMIN_EMAIL: ADMIN.email,
      BELAY_ADMIN_PASSWORD: ADMIN.password,
    },
  )
  try {
    const login = await fetch(`${served.base}/api/get-token/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: ADMIN.email, password: ADMIN.password }),
    })
    const { token } = (await login.json()) as { token: string }
    const startMb = rssMb(served.pid, 'VmRSS')
    const cpuBefore = processCpuMs(served.pid)
    let stopProbe = probeDoor(served.base, token)
    const dry = await post(served, token, csv, '?dry_run=true')
    const dryRunDoor = await stopProbe()
    if (dry.status !== 200) throw new Error(`dry run: ${dry.status} ${dry.body.slice(0, 500)}`)
    stopProbe = probeDoor(served.base, token)
    const real = await post(served, token, csv, '')
    const importDoor = await stopProbe()
    if (real.status !== 201) throw new Error(`import: ${real.status} ${real.body.slice(0, 500)}`)
    const cpuS = (processCpuMs(served.pid) - cpuBefore) / 1000
    return {
      dryRunS: dry.seconds,
      importS: real.seconds,
      customers: countRows(file, 'SELECT count(*) AS n FROM customers'),
      cpuS,
      startMb,
      peakMb: rssMb(served.pid),
      dryRunDoor,
      importDoor,
    }
  } finally {
    await served.stop()
  }
}

const cpu = cpus()
console.log(
  `machine: ${cpu.length} × ${cpu[0]?.model.trim() ?? 'unknown CPU'}, Bun ${Bun.version}; load average ${loadAverage()}`,
)
console.log(`belay: ${buildIfNeeded()}`)
const dir = mkdtempSync(join(tmpdir(), 'belay-bench-import-'))
try {
  const text = spreadsheet(CUSTOMERS)
  const csv = new Blob([text], { type: 'text/csv' })
  console.log(`file: ${CUSTOMERS.toLocaleString('en')} customers, ${(csv.size / 1024 / 1024).toFixed(2)} MiB`)
  const table: string[][] = [
    [
      'round',
      'executable',
      'dry run s',
      'import s',
      'customers after',
      'server CPU s (both)',
      'RSS at start MB',
      'peak RSS MB',
      'door scans answered (dry run, import)',
      'longest door scan ms (dry run, import)',
    ],
  ]
  const executables = COMPARE === undefined ? [BELAY] : [BELAY, COMPARE]
  for (let round = 1; round <= ROUNDS; round++) {
    // Which goes first alternates, so neither always has the host's quieter moment.
    const order = round % 2 === 1 ? executables : [...executables].reverse()
    for (const executable of order) {
      const run = await oneRound(dir, round, csv, executable)
      if (run.customers !== CUSTOMERS)
        throw new Error(`${executable}: ${run.customers} customers after the import, not ${CUSTOMERS}`)
      table.push([
        String(round),
        executable === BELAY ? 'this' : 'other',
        run.dryRunS.toFixed(2),
        run.importS.toFixed(2),
        run.customers.toLocaleString('en'),
        run.cpuS.toFixed(2),
        run.startMb.toFixed(0),
        run.peakMb.toFixed(0),
        `${run.dryRunDoor.scans}, ${run.importDoor.scans}`,
        `${run.dryRunDoor.longestMs.toFixed(0)}, ${run.importDoor.longestMs.toFixed(0)}`,
      ])
    }
  }
  console.log()
  console.log(formatTable(table, { leftColumns: 2, rule: true }))
  if (COMPARE !== undefined) console.log(`other: ${COMPARE}`)
  console.log(`load average ${loadAverage()}`)
} finally {
  rmSync(dir, { recursive: true, force: true })
}
