/**
 * Sites benchmark (issue 26): the BUILT executable as three boxes of one organization on a real
 * nats-server hub, each box's link through a TCP proxy the bench can cut (as test/e2e/sites.test.ts
 * does). Loopback only; everything lives in temporary directories, removed at the end.
 *
 *   npm run bench -- sites
 *   npx bun run test/bench/sites.ts [--db FILE] [--scale 1] [--rounds 4] [--rate 50]
 *                                   [--door-seconds 8] [--idle-seconds 10] [--profile] [--pin]
 *                                   [--controllers-first] [--cycles 3]
 *                                   [--phases 1,2,3,4]
 *
 * site-a serves the `small` demo set (or a copy of --db FILE, a seeded file) and becomes the
 * organization's first site; site-b and site-c join from nothing. Then:
 *
 * 1. Check-ins applied per second: site-b cut off, site-a records 2,000 × scale check-ins (the door's
 *    `barcode-check-in`, members with an entry method, each at a gym not yet scanned at) and sends
 *    them; site-b's link restored, how fast it applies them (its applied stream sequence, read from
 *    its file), from the restore (reconnecting included) and from its first applied change.
 * 2. Seconds to converge after a cut: all three cut off, each records 2,000 check-ins, 100 sales (a
 *    one-line retail invoice with its payment) and 50 sign-ups (a new customer), all × scale; every
 *    link restored, the time until every outbox is empty, every site is at the same stream position
 *    and every site's replicated tables have the same checksum (test/helpers/site-checksum.ts).
 * 3. The door during that catch-up against idle: the same cut and load again, then at the restore
 *    door controllers at site-a scanning at --rate scans/s in all (open-door-check-in, each scan a
 *    member admitted, a new check-in: see FreshScans; latency from each scan's due time) until
 *    every site has applied the stream as far as the three backlogs reached; then, once every site
 *    has converged, the same load on the same box with nothing to catch up, for as long (at least
 *    --idle-seconds in all). --cycles times (3), the scans of every catch-up pooled, and those of
 *    every idle spell: each idle spell right after its catch-up, so that the host's moods (this
 *    machine is shared) weigh on both sides alike.
 * 4. The door with --hub and no backlog against without: a copy of site-a's seeded file served as
 *    the only site of another organization on the hub, and another copy served without --hub, in
 *    alternating order over --rounds rounds; each round unpaced controllers for --door-seconds
 *    after a short warm-up, check-ins per second (rows in the file) and p50, then controllers
 *    paced at --rate scans/s for --idle-seconds, p50 and p99 (a gym's evening, not the most the box
 *    can take); each figure paired by round (_paired.ts). Sites 1 to 3 are stopped first, so the
 *    hub is otherwise idle.
 *
 * --pin puts site-a and the bench (its door's controllers) on the first CPU for phase 3, and the
 * other boxes and the hub on the second, as if site-a had a machine of its own: on one machine the
 * other boxes' catch-up otherwise takes its turns on the door box's cores, and on the clients'.
 *
 * --controllers-first runs this bench's threads at nice -10 during phase 3 (see CONTROLLERS_FIRST).
 *
 * --profile runs site-b from source under `bun --cpu-prof` until phase 1 ends, and prints where its
 * CPU went while it applied phase 1's changes (the built executable takes its file over after);
 * site-a likewise for phase 3 (where its CPU went during the catch-up, door and all), and phase 4's
 * two servers in round 1 (under the door's load; that round's figures then compare nothing).
 *
 * Scale shrinks every count of 1 to 3 (`--scale 0.25` for a quick run); the report says which.
 */
import { Database } from 'bun:sqlite'
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { cpus, setPriority, tmpdir, totalmem } from 'node:os'
import { join } from 'node:path'
import { startCuttableProxy, type CuttableProxy } from '../helpers/cuttable-proxy.ts'
import { startNatsServer, type NatsServer } from '../helpers/nats.ts'
import { differingTables, siteChecksum } from '../helpers/site-checksum.ts'
import { numberArg, stringArg } from './_args.ts'
import { Recorder, scanOnce, type Barcodes, type DoorTarget } from './_door-load.ts'
import {
  BELAY,
  barcodesByCategory,
  buildIfNeeded,
  connectSession,
  machineCpu,
  processCpuMs,
  readyToServe,
  ROOT,
  startServing,
  stealPercent,
  summarizeProfile,
  type MachineCpu,
  type Served,
} from './_door-setup.ts'
import { timeFsyncs } from './_fsync.ts'
import { describePairedRatio, pairedRatio } from './_paired.ts'
import { formatTable, loadAverage } from './_table.ts'
import { watchThread } from './_thread-held.ts'

const DB = stringArg('--db')
const SCALE = numberArg('--scale', 1)
const ROUNDS = numberArg('--rounds', 4)
/** Phase 3's offered door load, scans per second over all its controllers. */
const RATE = numberArg('--rate', 50)
const DOOR_CLIENTS = 4
/** Phase 4: seconds of unpaced scans per round and executable, and how many controllers. */
const DOOR_SECONDS = numberArg('--door-seconds', 8)
const DOOR_CONTROLLERS = 8
const WARMUP_SECONDS = 2
const IDLE_SECONDS = numberArg('--idle-seconds', 10)
/** Clients recording a site's check-ins, sales and sign-ups while it is cut off. */
const RECORDERS = 4
const CONVERGE_LIMIT_MS = 300_000
const POLL_MS = 50

/**
 * Phase 3 with site-a alone on the first CPU and everything else (the other boxes, the hub, this
 * bench's clients) on the second: as if site-a had a machine of its own, the other boxes' catch-up
 * off its cores.
 */
const PIN = process.argv.includes('--pin')
/**
 * Phase 3 with this bench's threads (the door's controllers, and Bun's HTTP client thread) at a
 * higher priority than the boxes: a controller is a device of its own on the gym's LAN, and a scan
 * it sends late, waiting for a turn on a CPU site-a's catch-up fills, is the bench's delay, not the
 * door's.
 */
const CONTROLLERS_FIRST = process.argv.includes('--controllers-first')
/** Phase 3: how many cuts and catch-ups, the door's scans during them pooled. */
const CYCLES = numberArg('--cycles', 3)
/** Phase 3: how long after a catch-up has converged its idle spell starts. */
const IDLE_SETTLE_MS = 2_000
/** Which of the four measurements to run (`--phases 1,4`); all by default. */
const PHASES = new Set((stringArg('--phases') ?? '1,2,3,4').split(',').map(Number))
const count = (n: number) => Math.max(1, Math.round(n * SCALE))
const CHECK_INS = count(2000)
const SALES = count(100)
const SIGN_UPS = count(50)

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))
const fmt = (ms: number) => (ms < 10 ? ms.toFixed(2) : ms.toFixed(1))
const seconds = (ms: number) => (ms / 1000).toFixed(2)

const cpu = cpus()
const machine = () => `load average ${loadAverage()}`
console.log(
  `machine: ${cpu.length} × ${cpu[0]?.model.trim() ?? 'unknown CPU'}, ${Math.round(totalmem() / 2 ** 30)} GiB, ` +
    `${process.platform}-${process.arch}, Bun ${Bun.version}; ${machine()}`,
)
console.log(
  `scale ${SCALE}: ${CHECK_INS} check-ins a site (phase 1: at site-a alone), ${SALES} sales, ${SIGN_UPS} sign-ups`,
)
const dir = mkdtempSync(join(tmpdir(), 'belay-bench-sites-'))
const fsync = timeFsyncs(join(dir, 'fsync-probe'), { bytes: 4096, count: 300 })
console.log(
  `disk: 4 KiB write + fdatasync p50 ${fsync.p50.toFixed(0)} µs, p99 ${fsync.p99.toFixed(0)} µs (${dir})`,
)

type Session = Awaited<ReturnType<typeof connectSession>>

interface Box {
  site: string
  db: string
  proxy: CuttableProxy
  served: Served
  session: Session
}

let hub: NatsServer | null = null
const boxes: Box[] = []
const others: Served[] = []

/**
 * Read-only connections to the boxes' files, opened once each: the bench's polls share a thread
 * with the door's controllers, and a connection opened anew parses the whole schema (the capture
 * triggers included), some 10 ms a box, during which no answer to a scan is taken in. Measured so,
 * a poll of the three boxes added 25 to 40 ms to the scans it fell on.
 */
const readers = new Map<string, Database>()

/** Reads a box's file on its read-only connection (the box writes it meanwhile). */
function readDb<T>(file: string, read: (db: Database) => T): T {
  let db = readers.get(file)
  if (db === undefined) readers.set(file, (db = new Database(file, { readonly: true })))
  return read(db)
}

/**
 * A box's outbox and stream position, read from its file: each a lookup in an index (a count of
 * the outbox's rows reads them all, some ms while thousands wait, on the controllers' thread).
 */
function syncState(box: Box) {
  return readDb(box.db, (db) => {
    const outbox = db.query('SELECT min(seq) AS first, max(seq) AS last FROM sync_outbox').get() as {
      first: number | null
      last: number | null
    }
    return {
      /** Whether the outbox is empty: everything sent and acknowledged, and forgotten. */
      allSent: outbox.first === null,
      firstUnsent: outbox.first,
      lastUnsent: outbox.last,
      applied: (db.query('SELECT applied_stream_sequence AS s FROM sync_state').get() as { s: number }).s,
    }
  })
}

const unsentRows = (box: Box) =>
  readDb(box.db, (db) => (db.query('SELECT count(*) AS n FROM sync_outbox').get() as { n: number }).n)

/** The hub stream's last sequence as a box's GET /api/sites/ tells it; null while it cannot ask. */
async function streamLastSequence(box: Box): Promise<number | null> {
  const page = (await box.session.api('GET', '/api/sites/')) as {
    results: { this_box: boolean; applied_stream_sequence: number; unapplied_changes: number | null }[]
  }
  const self = page.results.find((s) => s.this_box)
  return self && self.unapplied_changes !== null
    ? self.applied_stream_sequence + self.unapplied_changes
    : null
}

/**
 * Waits until every site has sent everything, applied the stream as far as the others and holds the
 * same replicated rows: the ms from `since` to the poll that found them so (the checksums read
 * then), and when the stream positions first agreed with every outbox empty.
 */
async function converged(
  since = performance.now(),
): Promise<{ ms: number; quietMs: number; sentMs: number[] }> {
  let quietMs = NaN
  /** When each site's outbox was first seen empty. */
  const sentMs = boxes.map(() => NaN)
  for (;;) {
    const polled = performance.now()
    const states = boxes.map(syncState)
    states.forEach((state, i) => {
      if (state.allSent && Number.isNaN(sentMs[i])) sentMs[i] = polled - since
    })
    const quiet = states.every((s) => s.allSent && s.applied === states[0]!.applied)
    if (quiet) {
      if (Number.isNaN(quietMs)) quietMs = polled - since
      const sums = boxes.map((box) => siteChecksum(box.db))
      if (sums.every((sum) => sum.all === sums[0]!.all)) return { ms: polled - since, quietMs, sentMs }
      if (polled - since > CONVERGE_LIMIT_MS)
        throw new Error(
          `the sites did not converge: ${JSON.stringify(boxes.map((b, i) => ({ site: b.site, differing: differingTables(sums[0]!, sums[i]!) })))}`,
        )
    } else {
      quietMs = NaN
      if (polled - since > CONVERGE_LIMIT_MS)
        throw new Error(`the sites did not converge: ${JSON.stringify(states)}`)
    }
    await sleep(POLL_MS)
  }
}

/** With --profile, site-b runs from source under `bun --cpu-prof` for phase 1. */
const PROFILE = process.argv.includes('--profile')
const profileDir = (site: string) => join(dir, `profile-${site}`)

async function startBox(site: string, db: string, proxy: CuttableProxy, profiled = false): Promise<Box> {
  const executable = profiled
    ? [
        process.execPath,
        '--cpu-prof',
        `--cpu-prof-dir=${profileDir(site)}`,
        'run',
        join(ROOT, 'src', 'main.ts'),
      ]
    : [BELAY]
  const served = await startServing(
    [
      ...executable,
      'serve',
      '--db',
      db,
      '--port',
      '0',
      '--host',
      '127.0.0.1',
      '--hub',
      proxy.url,
      '--site',
      site,
    ],
    dir,
  )
  return { site, db, proxy, served, session: await connectSession(served, db) }
}

/** This process's children (the boxes, the hub), from /proc. */
const childPids = (): number[] =>
  readdirSync(`/proc/${process.pid}/task`).flatMap((tid) =>
    readFileSync(`/proc/${process.pid}/task/${tid}/children`, 'utf8')
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map(Number),
  )

/** Sets the scheduling priority (nice) of every thread of this process. */
function niceThreads(priority: number): void {
  for (const tid of readdirSync(`/proc/${process.pid}/task`)) setPriority(Number(tid), priority)
}

/** The machine's CPU time over several windows, summed (MachineCpu's fields, as spans). */
const noCpu = (): MachineCpu => ({ busyMs: 0, stealMs: 0, totalMs: 0 })
const stealOf = (cpu: MachineCpu) => (cpu.totalMs > 0 ? (100 * cpu.stealMs) / cpu.totalMs : 0)

/** Adds one door run to a window of phase 3: its scans are in the recorder already. */
function addWindow(
  window: { elapsedMs: number; heldMs: number; cpu: MachineCpu },
  run: { elapsedMs: number; heldMs: number },
  machineBefore: MachineCpu,
): void {
  const now = machineCpu()
  window.elapsedMs += run.elapsedMs
  window.heldMs = Math.max(window.heldMs, run.heldMs)
  window.cpu.busyMs += now.busyMs - machineBefore.busyMs
  window.cpu.stealMs += now.stealMs - machineBefore.stealMs
  window.cpu.totalMs += now.totalMs - machineBefore.totalMs
}

/** Sets the CPUs every thread of a process may run on. */
function pin(pid: number, cpus: string): void {
  const result = Bun.spawnSync(['taskset', '-a', '-p', '-c', cpus, String(pid)], {
    stdout: 'ignore',
    stderr: 'pipe',
  })
  if (result.exitCode !== 0) throw new Error(`taskset ${cpus} ${pid}: ${result.stderr.toString()}`)
}

/** Runs `work` on each item with `clients` at a time; the outcomes by status. */
async function inParallel<T>(
  items: T[],
  clients: number,
  work: (item: T) => Promise<number>,
): Promise<Map<number, number>> {
  const statuses = new Map<number, number>()
  let next = 0
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (next < items.length) {
        const status = await work(items[next++]!)
        statuses.set(status, (statuses.get(status) ?? 0) + 1)
      }
    }),
  )
  return statuses
}

const describeStatuses = (statuses: Map<number, number>) =>
  [...statuses].map(([status, n]) => `${status}×${n}`).join(' ')

/** POST to a box, the status alone. */
async function post(box: Box, path: string, body: unknown): Promise<number> {
  const res = await fetch(`${box.session.target.base}${path}`, {
    method: 'POST',
    headers: { authorization: `Token ${box.session.target.token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  })
  await res.arrayBuffer()
  return res.status
}

let barcodes: Barcodes
let customerIds: number[] = []
let walkIns = 0

/** `n` scans that each admit a member: every member at each of enough fresh gyms made at `box`. */
async function freshScans(box: Box, n: number): Promise<Array<{ barcode: string; gymId: number }>> {
  const gyms = await box.session.newGyms(Math.ceil(n / barcodes.valid.length))
  return Array.from({ length: n }, (_, i) => ({
    barcode: barcodes.valid[i % barcodes.valid.length]!,
    gymId: gyms[Math.floor(i / barcodes.valid.length)]!,
  }))
}

/** A cut-off site's busy spell: its door's check-ins, the desk's sales and sign-ups, together. */
async function busySpell(
  box: Box,
  scans: Array<{ barcode: string; gymId: number }>,
  sales: number,
  signUps: number,
) {
  const started = performance.now()
  const [door, desk, signedUp] = await Promise.all([
    inParallel(scans, RECORDERS, (scan) =>
      post(box, `/api/gym-endpoints/barcode-check-in/${scan.barcode}/`, { location_id: scan.gymId }),
    ),
    inParallel(
      Array.from({ length: sales }, (_, i) => customerIds[i % customerIds.length]!),
      1,
      (customerId) =>
        post(box, '/api/invoices/', {
          customer_id: customerId,
          line_items: [{ purchase_type: 'GEN', description: 'Chalk', unit_price: '4.00' }],
          payments: [{ payment_type: 'OFF', amount: '4.00' }],
        }),
    ),
    inParallel(
      Array.from({ length: signUps }, () => ++walkIns),
      1,
      (n) =>
        post(box, '/api/customers/', { first_name: 'Walk', last_name: `In ${n}`, birthday: '1992-02-02' }),
    ),
  ])
  const ms = performance.now() - started
  return `${box.site}: door ${describeStatuses(door)}, sales ${describeStatuses(desk)}, sign-ups ${describeStatuses(signedUp)} in ${seconds(ms)} s`
}

/** All three cut off, each with its busy spell; the outboxes' sizes after. */
async function cutAndBusy(): Promise<void> {
  const scans = await Promise.all(boxes.map((box) => freshScans(box, CHECK_INS)))
  await converged()
  for (const box of boxes) box.proxy.cut()
  const spells = await Promise.all(boxes.map((box, i) => busySpell(box, scans[i]!, SALES, SIGN_UPS)))
  for (const line of spells) console.log(`  ${line}`)
  console.log(
    `  unsent outbox rows: ${boxes.map((box) => `${box.site} ${unsentRows(box)}`).join(', ')}; ${machine()}`,
  )
}

/**
 * Door scans that each admit a member: every member with an entry method at one gym, then at the
 * next. The gyms are made at the box as the scans need them, one ahead, so no scan waits for one
 * (the small set has few members: a controller's own deck would soon turn into duplicates, which
 * the door refuses without a write).
 */
class FreshScans {
  readonly gyms: number[] = []
  #next = 0
  #ready: number[] = []
  #making: Promise<void> | null = null

  constructor(readonly session: Session) {}

  async take(): Promise<{ barcode: string; gymId: number }> {
    const members = barcodes.valid.length
    const i = this.#next++
    const gymIndex = Math.floor(i / members)
    if (this.#ready.length <= gymIndex + 1) this.#makeOne()
    while (this.#ready.length <= gymIndex) await this.#making
    return { barcode: barcodes.valid[i % members]!, gymId: this.#ready[gymIndex]! }
  }

  /** Makes the first gyms before a measurement starts. */
  async prepare(): Promise<this> {
    while (this.#ready.length < 2) {
      this.#makeOne()
      await this.#making
    }
    return this
  }

  #makeOne(): void {
    this.#making ??= this.session.newGyms(1).then(([id]) => {
      this.#ready.push(id!)
      this.gyms.push(id!)
      this.#making = null
    })
  }
}

/**
 * `clients` door controllers scanning fresh members until `until()` holds: paced at `rate` scans/s
 * in all (latency from each scan's due time, or from when it was sent if the timer woke late: no
 * coordinated omission), or unpaced without `rate` (each scans as soon as it is answered).
 */
async function runDoor(
  target: DoorTarget,
  scans: FreshScans,
  clients: number,
  until: () => boolean,
  rate?: number,
  recorder = new Recorder(),
): Promise<{ recorder: Recorder; elapsedMs: number; heldMs: number }> {
  const started = performance.now()
  // How long the bench's own thread (the controllers') was held at a time: a scan answered then
  // is measured late by as much, and the figure would be the bench's, not the door's.
  const held = watchThread(HELD_PERIOD_MS)
  const intervalMs = rate ? (1000 * clients) / rate : 0
  await Promise.all(
    Array.from({ length: clients }, async (_, index) => {
      let due = started + (intervalMs * index) / clients
      while (!until()) {
        const wait = due - performance.now()
        if (wait > 0) await sleep(wait)
        const scan = await scans.take()
        // A timer may fire a little before its time: the scan is sent now, not earlier.
        const t0 = rate ? Math.max(due, performance.now()) : performance.now()
        due += intervalMs
        try {
          const status = await scanOnce(target, scan.gymId, scan.barcode)
          recorder.add(performance.now() - t0, 'valid', status)
        } catch (error) {
          recorder.add(performance.now() - t0, 'valid', 'error')
          recorder.errors++
          recorder.firstError ||= error instanceof Error ? error.message : String(error)
          await sleep(10)
        }
      }
    }),
  )
  const elapsedMs = performance.now() - started
  return { recorder, elapsedMs, heldMs: Math.max(0, held.stop() - HELD_PERIOD_MS) }
}

/** The period of the timer that watches the controllers' thread during runDoor. */
const HELD_PERIOD_MS = 5

const forMs = (ms: number) => {
  const end = performance.now() + ms
  return () => performance.now() >= end
}

const summary: string[] = []
const note = (line: string) => {
  console.log(line)
  summary.push(line)
}

try {
  console.log(`executable: ${buildIfNeeded()} (${BELAY})`)
  const seeded = join(dir, 'seeded.sqlite3')
  if (DB) {
    copyFileSync(DB, seeded)
    console.log(`site-a starts from a copy of ${DB}`)
  } else {
    const result = Bun.spawnSync([BELAY, 'seed-demo', '--size', 'small', '--seed', '5', '--db', seeded], {
      cwd: dir,
      stdout: 'pipe',
      stderr: 'pipe',
    })
    if (result.exitCode !== 0) throw new Error(`seed-demo failed: ${result.stderr.toString()}`)
    console.log(`site-a starts from the small demo set: ${result.stdout.toString().split('\n')[0]}`)
  }
  readyToServe(BELAY, seeded, dir)
  // One settled file to copy: everything in the main file, no WAL beside it.
  const settle = new Database(seeded)
  settle.run('PRAGMA wal_checkpoint(TRUNCATE)')
  settle.close()
  barcodes = barcodesByCategory(seeded, new Date())
  customerIds = readDb(seeded, (db) =>
    (
      db.query('SELECT id FROM customers WHERE is_active = 1 ORDER BY id LIMIT 200').all() as { id: number }[]
    ).map((r) => r.id),
  )
  console.log(`${barcodes.valid.length} members with an entry method scan at the door`)
  for (const name of ['a', 'b', 'c', 'hub-on', 'hub-off']) copyFileSync(seeded, join(dir, `${name}.sqlite3`))
  for (const name of ['b', 'c']) rmSync(join(dir, `${name}.sqlite3`))

  hub = await startNatsServer()
  const proxy = () => startCuttableProxy({ hostname: '127.0.0.1', port: hub!.port })
  let t0 = performance.now()
  boxes.push(await startBox('site-a', join(dir, 'a.sqlite3'), proxy(), PROFILE && PHASES.has(3)))
  const joined = await Promise.all(
    ['b', 'c'].map((n) => startBox(`site-${n}`, join(dir, `${n}.sqlite3`), proxy(), PROFILE && n === 'b')),
  )
  boxes.push(...joined)
  const [a, b, c] = boxes as [Box, Box, Box]
  const first = await converged(t0)
  console.log(`three sites up and converged in ${seconds(first.ms)} s; ${machine()}`)

  /** Phase 3's catch-up, by the wall clock (a profile's samples carry its times). */
  let catchUpFrom = 0
  let catchUpTo = 0

  if (PHASES.has(1)) {
    // 1. Check-ins applied per second.
    console.log(`\n1. check-ins applied per second: site-b cut off, site-a records ${CHECK_INS} check-ins`)
    const scansAtA = await freshScans(a, CHECK_INS)
    await converged()
    b.proxy.cut()
    t0 = performance.now()
    const recorded = await inParallel(scansAtA, RECORDERS, (scan) =>
      post(a, `/api/gym-endpoints/barcode-check-in/${scan.barcode}/`, { location_id: scan.gymId }),
    )
    const recordMs = performance.now() - t0
    console.log(
      `  site-a's door: ${describeStatuses(recorded)} in ${seconds(recordMs)} s (${((CHECK_INS * 1000) / recordMs).toFixed(0)}/s)`,
    )
    // site-a has sent them and site-c applied them: the stream holds what site-b will apply.
    let target = 0
    for (;;) {
      const [sa, sc] = [syncState(a), syncState(c)]
      if (sa.allSent && sa.applied === sc.applied && sa.applied === (await streamLastSequence(a))) {
        target = sa.applied
        break
      }
      await sleep(POLL_MS)
    }
    const sentMs = performance.now() - t0
    const from = syncState(b).applied
    const cpu0 = processCpuMs(b.served.pid)
    const machine0 = machineCpu()
    t0 = performance.now()
    const restoredAt = Date.now()
    b.proxy.restore()
    let firstAppliedMs = NaN
    for (;;) {
      const applied = syncState(b).applied
      if (applied > from && Number.isNaN(firstAppliedMs)) firstAppliedMs = performance.now() - t0
      if (applied >= target) break
      if (performance.now() - t0 > CONVERGE_LIMIT_MS)
        throw new Error(`site-b stopped at ${applied} of ${target}`)
      await sleep(10)
    }
    const applyMs = performance.now() - t0
    const appliedAt = Date.now()
    const applyCpuMs = processCpuMs(b.served.pid) - cpu0
    // The stream's sequence counts messages, each many changes (src/core/sites/messages.ts).
    const messages = target - from
    const checkInsAtB = b.session.checkIns([...new Set(scansAtA.map((scan) => scan.gymId))])
    const fromFirstMs = applyMs - firstAppliedMs
    note(
      `1. site-b applied ${messages} messages holding ${checkInsAtB} check-ins in ${seconds(applyMs)} s from the restore: ` +
        `${((checkInsAtB * 1000) / applyMs).toFixed(0)} check-ins/s; ` +
        `${((checkInsAtB * 1000) / fromFirstMs).toFixed(0)}/s from its first (reconnected after ${seconds(firstAppliedMs)} s); ` +
        `${((1000 * fromFirstMs) / checkInsAtB).toFixed(0)} µs wall and ${((1000 * applyCpuMs) / checkInsAtB).toFixed(0)} µs of site-b's CPU a check-in; ` +
        `steal ${stealPercent(machine0).toFixed(0)}%; ${machine()}`,
    )
    console.log(
      `  (site-a recorded them in ${seconds(recordMs)} s and had sent them, site-c applied them, ${seconds(sentMs)} s after the first)`,
    )
    if (PROFILE) {
      // The profile is written as the source-run site-b stops; the built executable takes over its file.
      await b.served.stop()
      const profile = summarizeProfile(profileDir('site-b'), 14, { fromMs: restoredAt, toMs: appliedAt })
      console.log(`  site-b's CPU profile from the restore until it had applied them, self time:`)
      for (const [name, pct] of profile.self) console.log(`    ${pct.toFixed(1).padStart(5)}%  ${name}`)
      console.log(`  inclusive, src/:`)
      for (const [name, pct] of profile.ours) console.log(`    ${pct.toFixed(1).padStart(5)}%  ${name}`)
      boxes[1] = await startBox('site-b', b.db, b.proxy)
    }
  }

  if (PHASES.has(2)) {
    // 2. Seconds to converge after a cut.
    console.log(
      `\n2. converging after a cut: every site records ${CHECK_INS} check-ins, ${SALES} sales, ${SIGN_UPS} sign-ups cut off`,
    )
    await cutAndBusy()
    t0 = performance.now()
    for (const box of boxes) box.proxy.restore()
    const after = await converged(t0)
    note(
      `2. converged ${seconds(after.ms)} s after every link was restored (outboxes empty and one stream position at ${seconds(after.quietMs)} s; ` +
        `checksums equal at the first poll after, every ${POLL_MS} ms); scale ${SCALE}; ${machine()}`,
    )
    console.log(
      `  outboxes first seen empty: ${boxes.map((box, i) => `${box.site} ${seconds(after.sentMs[i]!)} s`).join(', ')}`,
    )
  }

  if (PHASES.has(3)) {
    // 3. The door during that catch-up against idle.
    console.log(
      `\n3. the door at site-a during the catch-up, ${RATE} scans/s from ${DOOR_CLIENTS} controllers, against idle`,
    )
    if (PIN) {
      // The bench's clients are the door's controllers: on the second CPU they wait their turns behind
      // the other boxes' catch-up, and their scans go out late (the server, timed in its request
      // log, answered in p99 32 ms where the bench measured 250).
      for (const pid of [process.pid, ...childPids()])
        pin(pid, pid === a.served.pid || pid === process.pid ? '0' : '1')
      console.log(
        `  site-a and this bench (its door's controllers) pinned to CPU 0; the other boxes and the hub to CPU 1`,
      )
    }
    // Each cycle a cut, the busy spell and the catch-up, then an idle spell, the door's scans during
    // each pooled: one catch-up lasts some 3 s, 150 scans, whose p99 would be their second slowest.
    const during = { recorder: new Recorder(), elapsedMs: 0, heldMs: 0, cpu: noCpu() }
    const idle = { recorder: new Recorder(), elapsedMs: 0, heldMs: 0, cpu: noCpu() }
    const settledMs: number[] = []
    // From here to the end of the last idle spell (the unmeasured busy spells between do no harm).
    if (CONTROLLERS_FIRST) niceThreads(-10)
    for (let cycle = 1; cycle <= CYCLES; cycle++) {
      await cutAndBusy()
      const backlogA = syncState(a).lastUnsent ?? 0
      const doorScans = await new FreshScans(a.session).prepare()
      // The gyms are site-a's own new rows, sent after its backlog: the catch-up waits for them too.
      let caughtUpTo: number | null = null
      let caughtUp = false
      const watch = (async () => {
        while (!caughtUp) {
          if (caughtUpTo === null) {
            const [sa, ...rest] = boxes.map(syncState)
            if (rest.every((s) => s.allSent) && (sa!.firstUnsent === null || sa!.firstUnsent > backlogA))
              caughtUpTo = await streamLastSequence(a)
          } else caughtUp = boxes.every((box) => syncState(box).applied >= caughtUpTo!)
          await sleep(POLL_MS)
        }
      })()
      t0 = performance.now()
      const machineDuring = machineCpu()
      for (const box of boxes) box.proxy.restore()
      // The profile (--profile) covers the first cycle's catch-up.
      if (cycle === 1) catchUpFrom = Date.now()
      const run = await runDoor(
        a.session.target,
        doorScans,
        DOOR_CLIENTS,
        () => caughtUp,
        RATE,
        during.recorder,
      )
      if (cycle === 1) catchUpTo = Date.now()
      addWindow(during, run, machineDuring)
      await watch
      settledMs.push((await converged(t0)).ms)
      const idleScans = await new FreshScans(a.session).prepare()
      // What a catch-up leaves behind (the WAL's checkpoints copying it) is let pass first.
      await sleep(IDLE_SETTLE_MS)
      const idleMs = Math.max((IDLE_SECONDS * 1000) / CYCLES, run.elapsedMs)
      const machineIdle = machineCpu()
      const rest = await runDoor(
        a.session.target,
        idleScans,
        DOOR_CLIENTS,
        forMs(idleMs),
        RATE,
        idle.recorder,
      )
      addWindow(idle, rest, machineIdle)
    }
    if (PIN) for (const pid of [process.pid, ...childPids()]) pin(pid, '0,1')
    if (CONTROLLERS_FIRST) niceThreads(0)
    const describe = ({ recorder: r, heldMs }: { recorder: Recorder; heldMs: number }) =>
      `p50 ${fmt(r.percentile(0.5))} ms, p99 ${fmt(r.percentile(0.99))} ms, max ${fmt(r.max())} ms (${r.count} scans${r.errors ? `, ${r.errors} errors: ${r.firstError}` : ''}; the controllers' thread held at most ${fmt(heldMs)} ms)`
    note(
      `3. door at site-a, ${RATE} new check-ins/s, ${CYCLES} catch-ups pooled${PIN ? ', site-a and its controllers on one CPU' : ''}${CONTROLLERS_FIRST ? ', the controllers at nice -10' : ''}: during the catch-ups (${seconds(during.elapsedMs)} s, steal ${stealOf(during.cpu).toFixed(0)}%) ${describe(during)}; ` +
        `idle, after each (${seconds(idle.elapsedMs)} s, steal ${stealOf(idle.cpu).toFixed(0)}%) ${describe(idle)}; ${machine()}; ` +
        `p99 ratio ${(during.recorder.percentile(0.99) / idle.recorder.percentile(0.99)).toFixed(2)}, p50 ratio ${(during.recorder.percentile(0.5) / idle.recorder.percentile(0.5)).toFixed(2)}`,
    )
    console.log(
      `  (during: ${during.recorder.describeOutcomes()}; idle: ${idle.recorder.describeOutcomes()}; every site converged ${settledMs.map(seconds).join(', ')} s after each restore)`,
    )
  }

  if (PROFILE && PHASES.has(3)) {
    // The profile is written as the source-run site-a stops.
    await boxes[0]!.served.stop()
    const profile = summarizeProfile(profileDir('site-a'), 16, { fromMs: catchUpFrom, toMs: catchUpTo })
    console.log(`  site-a's CPU profile during the catch-up, door and all, inclusive, src/:`)
    for (const [name, pct] of profile.ours) console.log(`    ${pct.toFixed(1).padStart(5)}%  ${name}`)
    console.log(`  self:`)
    for (const [name, pct] of profile.self) console.log(`    ${pct.toFixed(1).padStart(5)}%  ${name}`)
  }

  if (PHASES.has(4)) {
    // 4. The door with --hub and no backlog against without.
    for (const box of boxes.splice(0)) {
      await box.served.stop()
      box.proxy.close()
    }
    console.log(
      `\n4. the door with --hub (idle hub) against without, ${ROUNDS} rounds of ${DOOR_SECONDS} s at ${DOOR_CONTROLLERS} controllers`,
    )
    const variants = [
      {
        name: 'hub',
        file: join(dir, 'hub-on.sqlite3'),
        args: ['--hub', hub.url, '--site', 'solo', '--hub-organization', 'bench'],
      },
      { name: 'alone', file: join(dir, 'hub-off.sqlite3'), args: [] as string[] },
    ]
    const figures = new Map(
      variants.map((v) => [
        v.name,
        {
          perSecond: [] as number[],
          p50: [] as number[],
          pacedP50: [] as number[],
          pacedP99: [] as number[],
        },
      ]),
    )
    const rows = [
      [
        'round',
        'serve',
        'check-ins/s',
        'p50 ms',
        'p99 ms',
        'server CPU µs/scan',
        `at ${RATE}/s: p50 ms`,
        'p99 ms',
        'steal %',
        '',
      ],
    ]
    const profiles: string[] = []
    for (let round = 1; round <= ROUNDS; round++) {
      for (const v of round % 2 === 1 ? variants : [...variants].reverse()) {
        // --profile: the first round's two servers run from source under `bun --cpu-prof`.
        const profiled = PROFILE && round === 1
        const runProfile = join(dir, `profile-${v.name}`)
        const executable = profiled
          ? [
              process.execPath,
              '--cpu-prof',
              `--cpu-prof-dir=${runProfile}`,
              'run',
              join(ROOT, 'src', 'main.ts'),
            ]
          : [BELAY]
        const served = await startServing(
          [...executable, 'serve', '--db', v.file, '--port', '0', '--host', '127.0.0.1', ...v.args],
          dir,
        )
        others.push(served)
        const s = await connectSession(served, v.file)
        const warmUp = await new FreshScans(s).prepare()
        await runDoor(s.target, warmUp, DOOR_CONTROLLERS, forMs(WARMUP_SECONDS * 1000))
        const scans = await new FreshScans(s).prepare()
        const machine4 = machineCpu()
        const cpu4 = s.cpuMs()
        const measuredFrom = Date.now()
        const { recorder, elapsedMs } = await runDoor(
          s.target,
          scans,
          DOOR_CONTROLLERS,
          forMs(DOOR_SECONDS * 1000),
        )
        const measuredTo = Date.now()
        const cpuPerScanUs = ((s.cpuMs() - cpu4) * 1000) / recorder.count
        const perSecond = (s.checkIns(scans.gyms) * 1000) / elapsedMs
        // Then at a gym's pace (phase 3's rate, far below what the box can take): what a member at
        // the door waits on an ordinary evening, rather than what the box can take at most.
        const paced = (
          await runDoor(
            s.target,
            await new FreshScans(s).prepare(),
            DOOR_CLIENTS,
            forMs(IDLE_SECONDS * 1000),
            RATE,
          )
        ).recorder
        rows.push([
          String(round),
          v.name,
          perSecond.toFixed(0),
          fmt(recorder.percentile(0.5)),
          fmt(recorder.percentile(0.99)),
          cpuPerScanUs.toFixed(0),
          fmt(paced.percentile(0.5)),
          fmt(paced.percentile(0.99)),
          stealPercent(machine4).toFixed(0),
          profiled ? 'profiled' : '',
        ])
        const figure = figures.get(v.name)!
        figure.perSecond.push(perSecond)
        figure.p50.push(recorder.percentile(0.5))
        figure.pacedP50.push(paced.percentile(0.5))
        figure.pacedP99.push(paced.percentile(0.99))
        await served.stop()
        others.splice(others.indexOf(served), 1)
        if (profiled) {
          const profile = summarizeProfile(runProfile, 16, { fromMs: measuredFrom, toMs: measuredTo })
          profiles.push(
            `${v.name}'s CPU profile under the door's load (round 1), inclusive, src/:`,
            ...profile.ours.map(([name, pct]) => `  ${pct.toFixed(1).padStart(5)}%  ${name}`),
            `self:`,
            ...profile.self.map(([name, pct]) => `  ${pct.toFixed(1).padStart(5)}%  ${name}`),
          )
        }
      }
    }
    console.log(formatTable(rows))
    for (const line of profiles) console.log(`  ${line}`)
    if (PROFILE) console.log(`  (round 1 ran from source under the profiler: its figures are not comparable)`)
    const on = figures.get('hub')!
    const off = figures.get('alone')!
    note(
      `4. door with --hub / without, paired by round: check-ins/s ${describePairedRatio(pairedRatio(on.perSecond, off.perSecond))}; ` +
        `p50 (above 1: slower with the hub) ${describePairedRatio(pairedRatio(on.p50, off.p50))}; ` +
        `at ${RATE} scans/s, p50 ${describePairedRatio(pairedRatio(on.pacedP50, off.pacedP50))} and ` +
        `p99 ${describePairedRatio(pairedRatio(on.pacedP99, off.pacedP99))}; ${machine()}`,
    )
  }

  console.log(`\nsummary (scale ${SCALE}${DB ? `, --db ${DB}` : ', small demo set'}):`)
  for (const line of summary) console.log(`  ${line}`)
} finally {
  for (const box of boxes) {
    await box.served.stop().catch(() => {})
    box.proxy.close()
  }
  for (const served of others) await served.stop().catch(() => {})
  await hub?.dispose()
  for (const db of readers.values()) db.close()
  rmSync(dir, { recursive: true, force: true })
}
