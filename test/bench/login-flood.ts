/**
 * Login flood benchmark: the door's latency while clients flood `POST /api/get-token/` with random
 * usernames, against the BUILT executable over loopback, on the `large` demo set. Loopback only;
 * everything lives in one temporary directory, removed at the end. About a minute.
 *
 *   npm run bench -- login-flood
 *   npx bun run test/bench/login-flood.ts [--seconds 10] [--clients 32] [--exe OTHER_EXECUTABLE]
 *
 * One door controller scans open-door check-ins one after another (a 5 ms pause between scans, a
 * gym's busy door rather than the most the server can take) through every phase:
 *   a. idle: the door alone;
 *   b. 32 clients flood get-token from one address (127.0.0.1), each posting a random username as
 *      soon as it is answered: the per-address throttle stops them after a few verifications;
 *   c. the same flood with every login from a new loopback address (127.x.y.z, node:http's
 *      localAddress), so no address is ever throttled: only the gate (one verification at a time,
 *      a short queue, 429 past it) stands between the flood and the door's core.
 * Each phase prints the door's p50/p99/max, the flood's answers, the server's CPU and its peak RSS
 * (sampled from /proc). The flood runs in a process of its own (_login-flooder.ts) at the lowest
 * CPU priority: at a gym the flood's clients are other machines, here they share the box's two cores
 * with the server and the door controller, and at equal priority the client's own CPU would be
 * charged to the door. --exe measures another build instead (say, one from before the gate).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { cpus, tmpdir } from 'node:os'
import { join } from 'node:path'
import { makeControllers, nextScan, Recorder, scanOnce } from './_door-load.ts'
import {
  BELAY,
  barcodesByCategory,
  buildIfNeeded,
  connectSession,
  machineCpu,
  seedLarge,
  startServing,
  stealPercent,
  type Served,
} from './_door-setup.ts'
import { numberArg, stringArg } from './_args.ts'
import { formatTable, loadAverage } from './_table.ts'

const SECONDS = numberArg('--seconds', 10)
const CLIENTS = numberArg('--clients', 32)
const EXE = stringArg('--exe') ?? BELAY
const DOOR_PAUSE_MS = 5
const FLOODER = join(import.meta.dir, '_login-flooder.ts')

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))
const fmt = (ms: number) => (ms < 10 ? ms.toFixed(2) : ms.toFixed(1))

/** Resident set size of a process now, MB. */
function rssMb(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
  return match ? Number(match[1]) / 1024 : NaN
}

/** User + system CPU of a process so far, ms. */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100
}

const cpu = cpus()
console.log(
  `machine: ${cpu.length} × ${cpu[0]?.model.trim() ?? 'unknown CPU'}, Bun ${Bun.version}; load average ${loadAverage()}`,
)
const dir = mkdtempSync(join(tmpdir(), 'belay-bench-login-flood-'))
const file = join(dir, 'belay.sqlite3')
let server: Served | null = null
try {
  if (EXE === BELAY) console.log(`executable: ${buildIfNeeded()} (${BELAY})`)
  else console.log(`executable: ${EXE}`)
  const seeded = seedLarge(file, 1, dir)
  console.log(seeded.split('\n')[0])
  const barcodes = barcodesByCategory(file, new Date())
  server = await startServing([EXE, 'serve', '--db', file, '--port', '0', '--host', '127.0.0.1'], dir)
  const served = server
  const s = await connectSession(served, file)
  const [gym] = await s.newGyms(1)
  const [controller] = makeControllers(1, [gym!], barcodes, 7)

  const rows: string[][] = []
  const phase = async (label: string, flood?: 'one-address' | 'new-address') => {
    const door = new Recorder()
    let peakRss = rssMb(served.pid)
    const cpu0 = cpuMs(served.pid)
    const machine0 = machineCpu()
    const deadline = performance.now() + SECONDS * 1000
    const sampler = setInterval(() => (peakRss = Math.max(peakRss, rssMb(served.pid))), 100)
    const flooder = flood
      ? Bun.spawn(
          [
            'nice',
            '-n',
            '19',
            process.execPath,
            'run',
            FLOODER,
            served.base,
            String(CLIENTS),
            String(SECONDS),
            flood,
          ],
          {
            stdin: 'ignore',
            stdout: 'pipe',
            stderr: 'inherit',
          },
        )
      : undefined
    while (performance.now() < deadline) {
      const { category, barcode } = nextScan(controller!, barcodes)
      const start = performance.now()
      const status = await scanOnce(s.target, gym!, barcode)
      door.add(performance.now() - start, category, status)
      await sleep(DOOR_PAUSE_MS)
    }
    const flooded = flooder
      ? (JSON.parse(await new Response(flooder.stdout).text()) as {
          answers: Record<string, number>
          errors: number
          firstError: string
        })
      : { answers: {}, errors: 0, firstError: '' }
    clearInterval(sampler)
    const answers = Object.entries(flooded.answers)
    const logins = answers.reduce((sum, [, n]) => sum + n, 0)
    rows.push([
      label,
      String(door.count),
      fmt(door.percentile(0.5)),
      fmt(door.percentile(0.99)),
      fmt(door.max()),
      flood ? String(Math.round(logins / SECONDS)) : '-',
      flood
        ? answers.map(([status, n]) => `${status}×${n}`).join(' ') +
          (flooded.errors ? ` errors×${flooded.errors}` : '')
        : '-',
      String(Math.round((cpuMs(served.pid) - cpu0) / SECONDS / 10)),
      String(Math.round(peakRss)),
      stealPercent(machine0).toFixed(0),
    ])
    console.log(
      `${label}: door ${door.describeOutcomes()}${flooded.firstError ? `; first flood error: ${flooded.firstError}` : ''}`,
    )
  }

  // Warm-up: the door's statements and the server's first requests.
  for (let i = 0; i < 200; i++) await scanOnce(s.target, gym!, nextScan(controller!, barcodes).barcode)
  await phase('a. idle, the door alone')
  await phase(`b. ${CLIENTS} clients flood get-token from one address`, 'one-address')
  await phase(`c. ${CLIENTS} clients flood get-token, a new address each login`, 'new-address')
  await phase('d. idle again', undefined)

  const header = [
    'phase',
    'scans',
    'door p50 ms',
    'door p99 ms',
    'door max ms',
    'logins/s',
    'login answers',
    'server CPU %',
    'peak RSS MB',
    'steal %',
  ]
  console.log(`\n${formatTable([header, ...rows])}`)
} finally {
  await (server as Served | null)?.stop()
  rmSync(dir, { recursive: true, force: true })
}
