/**
 * Backup benchmark: the door's latency while the `large` demo set is being copied, against the BUILT
 * executable over loopback. Everything lives in one temporary directory, removed at the end. About
 * a minute.
 *
 *   npm run bench -- backup-door
 *   npx bun run test/bench/backup-door.ts [--seconds 10]
 *
 * One door controller scans open-door check-ins one after another (a 5 ms pause between scans, a
 * gym's busy door) through every phase, on the same server and database:
 *   a. idle: the door alone;
 *   b. `belay backup` run back to back, each a separate process copying the database (VACUUM INTO on
 *      its worker thread) while the server answers the door;
 *   c. idle again;
 *   d. serve's own scheduled snapshots: the server restarted with a snapshot every few seconds, each
 *      copied on its snapshot thread beside the door.
 * Each phase prints the door's p50/p99/max and how many scans took over 50 ms; b and d also how
 * many copies were taken during it, of what size, in how many seconds (the whole `belay backup`
 * process for b, the copy and its checks for d).
 */
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs'
import { cpus, tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  makeControllers,
  nextScan,
  Recorder,
  scanOnce,
  type Barcodes,
  type DoorTarget,
} from './_door-load.ts'
import {
  BELAY,
  barcodesByCategory,
  buildIfNeeded,
  connectSession,
  seedLarge,
  startServing,
  stealPercent,
  machineCpu,
  type Served,
} from './_door-setup.ts'
import { numberArg } from './_args.ts'
import { formatTable, loadAverage } from './_table.ts'

const SECONDS = numberArg('--seconds', 10)
const DOOR_PAUSE_MS = 5
const SLOW_MS = 50

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))
const fmt = (ms: number) => (ms < 10 ? ms.toFixed(2) : ms.toFixed(1))
const mb = (bytes: number) => (bytes / 1e6).toFixed(0)
const range = (values: number[]) => `${Math.min(...values).toFixed(1)}-${Math.max(...values).toFixed(1)}`
/** Short enough that several snapshots fall inside one phase. */
const SNAPSHOT_EVERY_SECONDS = 3

const cpu = cpus()
console.log(
  `machine: ${cpu.length} × ${cpu[0]?.model.trim() ?? 'unknown CPU'}, Bun ${Bun.version}; load average ${loadAverage()}`,
)
const dir = mkdtempSync(join(tmpdir(), 'belay-bench-backup-door-'))
const file = join(dir, 'belay.sqlite3')
const copies = join(dir, 'copies')
let server: Served | null = null
try {
  console.log(`executable: ${buildIfNeeded()} (${BELAY})`)
  console.log(seedLarge(file, 1, dir).split('\n')[0])
  console.log(`database: ${mb(statSync(file).size)} MB`)
  const barcodes = barcodesByCategory(file, new Date())
  const serve = ['serve', '--db', file, '--port', '0', '--host', '127.0.0.1']
  server = await startServing([BELAY, ...serve], dir)
  let s = await connectSession(server, file)
  let [gym] = await s.newGyms(1)
  let [controller] = makeControllers(1, [gym!], barcodes, 7)

  const rows: string[][] = []
  /** Scans the door until `done()` says stop, one scan after another with a short pause. */
  const door = async (target: DoorTarget, gymId: number, done: () => boolean, b: Barcodes) => {
    const recorder = new Recorder()
    while (!done()) {
      const { category, barcode } = nextScan(controller!, b)
      const start = performance.now()
      const status = await scanOnce(target, gymId, barcode).catch(() => 'error' as const)
      recorder.add(performance.now() - start, category, status)
      await sleep(DOOR_PAUSE_MS)
    }
    return recorder
  }
  const row = (
    label: string,
    recorder: Recorder,
    machine0: ReturnType<typeof machineCpu>,
    copied: string,
  ) => {
    rows.push([
      label,
      String(recorder.count),
      fmt(recorder.percentile(0.5)),
      fmt(recorder.percentile(0.99)),
      fmt(recorder.max()),
      String(recorder.over(SLOW_MS)),
      copied,
      stealPercent(machine0).toFixed(0),
    ])
    console.log(`${label}: door ${recorder.describeOutcomes()}`)
  }
  const idle = async (label: string) => {
    const machine0 = machineCpu()
    const deadline = performance.now() + SECONDS * 1000
    row(label, await door(s.target, gym!, () => performance.now() > deadline, barcodes), machine0, '-')
  }

  // Warm-up: the door's statements and the server's first requests.
  for (let i = 0; i < 200; i++) await scanOnce(s.target, gym!, nextScan(controller!, barcodes).barcode)
  await idle('a. idle, the door alone')

  {
    const machine0 = machineCpu()
    const deadline = performance.now() + SECONDS * 1000
    const taken: number[] = []
    let copying = true
    const backups = (async () => {
      for (let n = 1; performance.now() < deadline; n++) {
        const to = join(copies, `copy-${n}.sqlite3`)
        const started = performance.now()
        const proc = Bun.spawn([BELAY, 'backup', '--db', file, '--to', to], {
          cwd: dir,
          stdout: 'pipe',
          stderr: 'pipe',
        })
        if ((await proc.exited) !== 0)
          throw new Error(`belay backup failed: ${await new Response(proc.stderr).text()}`)
        taken.push((performance.now() - started) / 1000)
        rmSync(to)
      }
      copying = false
    })()
    const recorder = await door(s.target, gym!, () => !copying, barcodes)
    await backups
    row(
      'b. belay backup, back to back',
      recorder,
      machine0,
      `${taken.length} × ${mb(statSync(file).size)} MB, ${range(taken)} s each`,
    )
  }

  await idle('c. idle again')

  {
    await server.stop()
    const snapshots = join(dir, 'snapshots')
    server = await startServing([BELAY, ...serve], dir, {
      BELAY_BACKUP_INTERVAL: `${SNAPSHOT_EVERY_SECONDS}s`,
      BELAY_BACKUP_DIR: snapshots,
    })
    const served = server
    s = await connectSession(served, file)
    ;[gym] = await s.newGyms(1)
    ;[controller] = makeControllers(1, [gym!], barcodes, 11)
    const takenSoFar = () => served.stderr().split('"snapshot taken"').length - 1
    const before = takenSoFar()
    const machine0 = machineCpu()
    const deadline = performance.now() + SECONDS * 1000
    const recorder = await door(s.target, gym!, () => performance.now() > deadline, barcodes)
    const seconds = [...served.stderr().matchAll(/"snapshot taken".*?"seconds":([\d.]+)/g)]
      .slice(before)
      .map((m) => Number(m[1]))
    row(
      `d. serve's snapshots, every ${SNAPSHOT_EVERY_SECONDS} s`,
      recorder,
      machine0,
      `${seconds.length} × ${mb(statSync(file).size)} MB, ${range(seconds)} s each`,
    )
  }

  const header = [
    'phase',
    'scans',
    'door p50 ms',
    'door p99 ms',
    'door max ms',
    `> ${SLOW_MS} ms`,
    'copies',
    'steal %',
  ]
  console.log(`\n${formatTable([header, ...rows])}`)
} finally {
  await (server as Served | null)?.stop()
  rmSync(dir, { recursive: true, force: true })
}
