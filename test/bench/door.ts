/**
 * Door benchmark (issue 4): open-door check-ins against the BUILT executable over loopback, on the
 * `large` demo set, with every check-in durable (the product's synchronous=FULL). Takes about three
 * minutes; loopback only; everything lives in one temporary directory, removed at the end.
 *
 *   npm run bench -- door
 *   npx bun run test/bench/door.ts [--seconds 12] [--controllers 16] [--rate 200] [--seed 1]
 *                                  [--profile] [--no-source]
 *   npx bun run test/bench/door.ts --compare OTHER_EXECUTABLE [--seeded-by-other] [--rounds 4] ...
 *
 * 1. Builds build/out/belay if it is older than the sources, seeds `belay seed-demo --size large`
 *    into a temporary file (os.tmpdir(), so TMPDIR picks the disk) and starts `belay serve` on it.
 * 2. Reads barcodes by category from the file: members with an entry method now, members without
 *    any entry method, members held back by an alert or a missing waiver; unknown barcodes are
 *    nine-digit numbers nobody has. Duplicates arise by rescanning (see MIX in _door-load.ts).
 * 3. Each door controller stands at its own location (the bench adds locations like the demo's
 *    through POST /api/gyms/, fresh ones for each phase, so a member's first scan in a phase is a
 *    new check-in and not a duplicate of an earlier phase). Measured, after a short warm-up:
 *    a. idle: 200 single scans one after another;
 *    b. sustained: N controllers (default 16), each scanning as soon as it is answered (the most
 *       the server can take; latency is then mostly queueing), and paced at --rate scans/s in all
 *       (latency counted from each scan's due time);
 *    c. sustained while a webhook receiver is down (a closed local port), and while one is up
 *       (then how fast the outbox drains);
 *    d. sustained, and paced, while back-office traffic runs (the frozen-members report, a
 *       customer search and a new customer signed up at the desk, one after another, from one
 *       client).
 *    Check-ins per second are the rows the phase added to check_ins, counted in the file; the
 *    server's CPU per scan comes from /proc, and so does each phase's steal: the share of the
 *    machine's CPU time the hypervisor gave to other guests (on a shared virtual machine the
 *    figures below mean little without it).
 * 4. Where the time goes: e. the same sustained load against the bench's own source-run server
 *    (_door-server.ts) with synchronous=FULL and NORMAL (set only on this temporary file); f. with
 *    --profile, a CPU profile (bun --cpu-prof) of the FULL server under load; g. the floor: the same
 *    controllers against a Bun.serve that answers at once, unpaced and paced at --rate (the host's
 *    own latency); then the pieces of a request timed in-process (_door-inprocess.ts). The disk's
 *    raw fsync, back to back and every 5 ms, is measured first.
 *
 * --compare OTHER_EXECUTABLE puts this checkout's executable beside another build of Belay (say, of
 * the commit before a change), in place of steps 3 and 4: each serves its own copy of the seeded
 * file (the other must accept this checkout's migrations), and only the warm-up, a. idle and
 * b. sustained run, one executable after the other, in alternating order over --rounds rounds, so
 * that the host's noise falls on both alike. The medians per executable end the report, then the
 * two builds' ratio paired by round with its 95% confidence interval (_paired.ts): an interval that
 * holds 1 says the rounds cannot tell the builds apart. With
 * --seeded-by-other the OTHER executable seeds the file (an older build whose demo data this
 * checkout's would outgrow, and which cannot open a file of this checkout's newer migrations), and
 * this checkout's executable migrates its own copy: both then serve the same rows. Each copy is
 * migrated and its membership rollup brought current (where the executable keeps one) before the
 * first round, so that no round measures a server busy with its first start's catch-up.
 */
import { Database } from 'bun:sqlite'
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs'
import { cpus, tmpdir, totalmem } from 'node:os'
import { join } from 'node:path'
import {
  makeControllers,
  MIX,
  nextScan,
  Recorder,
  rng,
  runApiTraffic,
  runControllers,
  scanOnce,
  shuffled,
} from './_door-load.ts'
import { measureInProcess } from './_door-inprocess.ts'
import {
  BELAY,
  barcodesByCategory,
  buildIfNeeded,
  connectSession,
  countRows,
  DOOR_SERVER,
  machineCpu,
  processCpuMs,
  readyToServe,
  seedLarge,
  startServing,
  stealPercent,
  summarizeProfile,
  type Served,
} from './_door-setup.ts'
import { timeFsyncs } from './_fsync.ts'
import { numberArg, stringArg } from './_args.ts'
import { describePairedRatio, pairedRatio } from './_paired.ts'
import { formatTable, loadAverage } from './_table.ts'

const SECONDS = numberArg('--seconds', 12)
const CONTROLLERS = numberArg('--controllers', 16)
const SEED = numberArg('--seed', 1)
/** Offered load of the paced phase, scans per second over all controllers. */
const RATE = numberArg('--rate', 200)
const PROFILE = process.argv.includes('--profile')
/** Another executable to measure beside this checkout's, and how many rounds each gets. */
const COMPARE = stringArg('--compare')
const ROUNDS = numberArg('--rounds', 4)
const SEEDED_BY_OTHER = process.argv.includes('--seeded-by-other')
if (SEEDED_BY_OTHER && COMPARE === undefined)
  throw new Error('--seeded-by-other needs --compare OTHER_EXECUTABLE')
const SOURCE_RUNS = !process.argv.includes('--no-source')
const IDLE_SCANS = 200
const WARMUP_SECONDS = 3
const DRAIN_LIMIT_MS = 30_000
/** The HTTP floor: what Bun.serve alone costs per request with this client on this machine. */
const FLOOR_SERVER = `const s = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: async (req) => { await req.arrayBuffer(); return new Response('') } });
console.error(JSON.stringify({ msg: 'listening', url: 'http://127.0.0.1:' + s.port }))`

const cpu = cpus()
console.log(
  `machine: ${cpu.length} × ${cpu[0]?.model.trim() ?? 'unknown CPU'}, ${Math.round(totalmem() / 2 ** 30)} GiB, ` +
    `${process.platform}-${process.arch}, Bun ${Bun.version}; load average ${loadAverage()}`,
)
const dir = mkdtempSync(join(tmpdir(), 'belay-bench-door-'))
const file = join(dir, 'belay.sqlite3')
const fsync = timeFsyncs(join(dir, 'fsync-probe'), { bytes: 4096, count: 400 })
const pacedFsync = timeFsyncs(join(dir, 'fsync-probe'), { bytes: 4096, count: 400, everyMs: 5 })
console.log(
  `disk: 4 KiB write + fdatasync p50 ${fsync.p50.toFixed(0)} µs, p99 ${fsync.p99.toFixed(0)} µs back to back; ` +
    `every 5 ms p50 ${pacedFsync.p50.toFixed(0)} µs, p99 ${pacedFsync.p99.toFixed(0)} µs (${dir})`,
)

const rows: string[][] = []
const notes: string[] = []
const fmt = (ms: number) => (ms < 10 ? ms.toFixed(2) : ms.toFixed(1))
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

let server: Served | null = null
try {
  console.log(`executable: ${buildIfNeeded()} (${BELAY})`)
  let t0 = performance.now()
  const seeded = seedLarge(file, SEED, dir, SEEDED_BY_OTHER ? COMPARE : BELAY)
  console.log(`${seeded.split('\n')[0]} (${((performance.now() - t0) / 1000).toFixed(1)} s)`)
  const barcodes = barcodesByCategory(file, new Date())
  console.log(
    `barcodes: ${barcodes.valid.length} members with an entry method, ${barcodes.noEntry.length} without, ` +
      `${barcodes.alert.length} held by an alert or no waiver, ${barcodes.unknown.length} unknown; mix ` +
      Object.entries(MIX)
        .map(([k, v]) => `${k} ${Math.round(v * 100)}%`)
        .join(', '),
  )

  const connect = (served: Served) => connectSession(served, file)
  type Session = Awaited<ReturnType<typeof connect>>

  const idle = async (s: Session, label: string, serverName: string, sync: string) => {
    const [gym] = await s.newGyms(1)
    const [controller] = makeControllers(1, [gym!], barcodes, SEED + 99)
    const recorder = new Recorder()
    const recorded = new Recorder()
    const cpu0 = s.cpuMs()
    const machine0 = machineCpu()
    for (let i = 0; i < IDLE_SCANS; i++) {
      const { category, barcode } = nextScan(controller!, barcodes)
      const start = performance.now()
      const status = await scanOnce(s.target, gym!, barcode)
      const ms = performance.now() - start
      recorder.add(ms, category, status)
      if (category === 'valid' && status === 200) recorded.add(ms, category, status)
    }
    const cpuPerScan = ((s.cpuMs() - cpu0) * 1000) / recorder.count
    rows.push([
      label,
      serverName,
      sync,
      '1',
      String(recorder.count),
      '',
      String(s.checkIns([gym!])),
      '',
      fmt(recorder.percentile(0.5)),
      fmt(recorder.percentile(0.99)),
      fmt(recorder.max()),
      String(recorder.over(200)),
      '0',
      cpuPerScan.toFixed(0),
      '',
      stealPercent(machine0).toFixed(0),
    ])
    notes.push(
      `${label}: new check-ins alone p50 ${fmt(recorded.percentile(0.5))} ms, p99 ${fmt(recorded.percentile(0.99))} ms (${recorded.count} scans)`,
    )
    return { p50: recorder.percentile(0.5), p99: recorder.percentile(0.99) }
  }

  const load = async (
    s: Session,
    label: string,
    serverName: string,
    sync: string,
    options: { beside?: (until: () => boolean) => Promise<string>; rate?: number } = {},
  ) => {
    const { beside, rate } = options
    const gyms = await s.newGyms(CONTROLLERS)
    const controllers = makeControllers(CONTROLLERS, gyms, barcodes, SEED)
    let done = false
    const besidePromise = beside?.(() => done)
    const cpu0 = s.cpuMs()
    const clientCpu0 = process.cpuUsage()
    const machine0 = machineCpu()
    const { recorder, elapsedMs } = await runControllers(
      s.target,
      controllers,
      barcodes,
      SECONDS * 1000,
      rate,
    )
    done = true
    const serverCpu = s.cpuMs() - cpu0
    const clientCpu = process.cpuUsage(clientCpu0)
    const clientCpuMs = (clientCpu.user + clientCpu.system) / 1000
    // CPU the rest of the machine used meanwhile: a phase that shared the cores with other work.
    const machine = machineCpu()
    const othersCpuMs = machine.busyMs - machine0.busyMs - serverCpu - clientCpuMs
    const besideNote = besidePromise ? await besidePromise : ''
    const recordedRows = s.checkIns(gyms)
    const seconds = elapsedMs / 1000
    rows.push([
      label,
      serverName,
      sync,
      String(CONTROLLERS),
      String(recorder.count),
      (recorder.count / seconds).toFixed(0),
      String(recordedRows),
      (recordedRows / seconds).toFixed(0),
      fmt(recorder.percentile(0.5)),
      fmt(recorder.percentile(0.99)),
      fmt(recorder.max()),
      String(recorder.over(200)),
      String(recorder.errors),
      ((serverCpu * 1000) / recorder.count).toFixed(0),
      [serverCpu, clientCpuMs, othersCpuMs]
        .map((ms) => Math.max(0, (100 * ms) / elapsedMs).toFixed(0))
        .join('/'),
      stealPercent(machine0, machine).toFixed(0),
    ])
    const wrapped = controllers.reduce((n, c) => n + c.wrapped, 0)
    notes.push(
      `${label}: ${recorder.describeOutcomes()}${recorder.errors ? `; first error: ${recorder.firstError}` : ''}` +
        `${wrapped ? `; controllers ran out of fresh members ${wrapped} times` : ''}${besideNote ? `; ${besideNote}` : ''}`,
    )
    return {
      checkIns: recordedRows,
      perSecond: recordedRows / seconds,
      p99: recorder.percentile(0.99),
      cpuPerScanUs: (serverCpu * 1000) / recorder.count,
    }
  }

  /**
   * --compare: this checkout's executable and `other`, each on its own copy of the seeded file,
   * warm-up, idle and sustained, one after the other in alternating order, round after round.
   * Returns the lines that sum the runs up: the median of each figure per executable.
   */
  const compare = async (other: string): Promise<string[]> => {
    if (!existsSync(other)) throw new Error(`--compare: no executable at ${other}`)
    // One settled file to copy: everything in the main file, no WAL beside it.
    const seededFile = new Database(file)
    seededFile.run('PRAGMA wal_checkpoint(TRUNCATE)')
    seededFile.close()
    const executables = [
      { name: 'this', path: BELAY, file: join(dir, 'this.sqlite3') },
      { name: 'other', path: other, file: join(dir, 'other.sqlite3') },
    ]
    for (const e of executables) {
      copyFileSync(file, e.file)
      // Each copy migrated and its membership rollup current now, not in the first round's warm-up
      // and phases (a first start after --seeded-by-other rolls six years of days beside them).
      readyToServe(e.path, e.file, dir)
    }
    // The copies' pages go to the disk now, not while the first round's commits wait for their syncs.
    Bun.spawnSync(['sync'])
    const figures = new Map(
      executables.map((e) => [
        e.name,
        {
          idleP50: [] as number[],
          idleP99: [] as number[],
          perSecond: [] as number[],
          p99: [] as number[],
          cpuPerScanUs: [] as number[],
        },
      ]),
    )
    for (let round = 1; round <= ROUNDS; round++) {
      for (const e of round % 2 === 1 ? executables : [...executables].reverse()) {
        server = await startServing(
          [e.path, 'serve', '--db', e.file, '--port', '0', '--host', '127.0.0.1'],
          dir,
        )
        const s = await connectSession(server, e.file)
        await runControllers(
          s.target,
          makeControllers(CONTROLLERS, await s.newGyms(CONTROLLERS), barcodes, SEED + 7),
          barcodes,
          WARMUP_SECONDS * 1000,
        )
        const quiet = await idle(s, `${round}. a. idle, single scans`, e.name, 'FULL')
        const busy = await load(s, `${round}. b. sustained`, e.name, 'FULL')
        await server.stop()
        server = null
        const f = figures.get(e.name)!
        f.idleP50.push(quiet.p50)
        f.idleP99.push(quiet.p99)
        f.perSecond.push(busy.perSecond)
        f.p99.push(busy.p99)
        f.cpuPerScanUs.push(busy.cpuPerScanUs)
      }
    }
    const median = (values: number[]) => {
      const sorted = [...values].sort((a, b) => a - b)
      const mid = Math.floor(sorted.length / 2)
      return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
    }
    const header = ['executable', 'idle p50 ms', 'idle p99 ms', 'sustained check-ins/s', 'sustained p99 ms']
    const summary = [...figures].map(([name, f]) => [
      name,
      fmt(median(f.idleP50)),
      fmt(median(f.idleP99)),
      median(f.perSecond).toFixed(0),
      fmt(median(f.p99)),
    ])
    const mine = figures.get('this')!
    const theirs = figures.get('other')!
    return [
      `\nmedians of ${ROUNDS} rounds (this: ${BELAY}; other: ${other})\n`,
      formatTable([header, ...summary]),
      `\nthis / other, paired by round (above 1: this is ahead):`,
      `  sustained check-ins/s: ${describePairedRatio(pairedRatio(mine.perSecond, theirs.perSecond))}`,
      `  server CPU per sustained scan, other / this: ${describePairedRatio(pairedRatio(theirs.cpuPerScanUs, mine.cpuPerScanUs))}`,
    ]
  }

  /** Every phase of the default run (a-g) and the in-process ladder. */
  const measureAll = async () => {
    // ---- The built executable: what a gym runs. ----------------------------------------------------
    server = await startServing([BELAY, 'serve', '--db', file, '--port', '0', '--host', '127.0.0.1'], dir)
    let s = await connect(server)
    await runControllers(
      s.target,
      makeControllers(CONTROLLERS, await s.newGyms(CONTROLLERS), barcodes, SEED + 7),
      barcodes,
      WARMUP_SECONDS * 1000,
    )
    await idle(s, 'a. idle, single scans', 'built', 'FULL')
    await load(s, 'b. sustained', 'built', 'FULL')
    await load(s, `b. paced, ${RATE} scans/s offered`, 'built', 'FULL', { rate: RATE })

    // A receiver that is down: a port that was just ours and is closed now (connection refused).
    const closed = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => new Response('') })
    const closedPort = closed.port
    closed.stop(true)
    const down = await s.api('POST', '/api/webhooks/', {
      event_type: 'check_in',
      webhook_url: `http://127.0.0.1:${closedPort}/belay-hook`,
      secret: 'bench-secret',
    })
    await load(s, 'c. webhook receiver down', 'built', 'FULL')
    const pendingDown = countRows(
      file,
      "SELECT count(*) AS n FROM webhook_events WHERE webhook_id = ? AND status = 'pending'",
      down.id as number,
    )
    const attemptsDown = countRows(
      file,
      'SELECT count(*) AS n FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.webhook_event_id WHERE e.webhook_id = ?',
      down.id as number,
    )
    notes.push(
      `c. receiver down: ${pendingDown} events waiting in the outbox, ${attemptsDown} failed attempts recorded`,
    )
    await s.api('DELETE', `/api/webhooks/${down.id}/`)

    // A receiver that is up: how fast the outbox drains while the door is busy, and after.
    let received = 0
    const receiver = Bun.serve({
      hostname: '127.0.0.1',
      port: 0,
      fetch: async (req) => {
        await req.arrayBuffer()
        received++
        return new Response('ok')
      },
    })
    const up = await s.api('POST', '/api/webhooks/', {
      event_type: 'check_in',
      webhook_url: `http://127.0.0.1:${receiver.port}/belay-hook`,
      secret: 'bench-secret',
    })
    const upRows = (await load(s, 'c. webhook receiver up', 'built', 'FULL')).checkIns
    const receivedDuringLoad = received
    t0 = performance.now()
    while (received < upRows && performance.now() - t0 < DRAIN_LIMIT_MS) await sleep(200)
    const drainS = (performance.now() - t0) / 1000
    notes.push(
      `c. receiver up: ${receivedDuringLoad} of ${upRows} events delivered during the ${SECONDS} s of load ` +
        `(${(receivedDuringLoad / SECONDS).toFixed(0)}/s), ${received} after ${drainS.toFixed(1)} s more` +
        (received < upRows
          ? ' (stopped waiting)'
          : ` (${((received - receivedDuringLoad) / drainS).toFixed(0)}/s without door load)`),
    )
    await s.api('DELETE', `/api/webhooks/${up.id}/`)
    receiver.stop(true)

    const backOffice = async (until: () => boolean) => {
      const { members, search, signUp } = await runApiTraffic(s.target, barcodes.searchTerms, until)
      const statuses = signUp.describeOutcomes()
      return (
        `back office: ${members.count} frozen-members reports (p50 ${fmt(members.percentile(0.5))} ms, ` +
        `max ${fmt(members.max())} ms), ${search.count} customer searches (p50 ${fmt(search.percentile(0.5))} ms, ` +
        `max ${fmt(search.max())} ms), ${signUp.count} walk-ins signed up (p50 ${fmt(signUp.percentile(0.5))} ms, ` +
        `max ${fmt(signUp.max())} ms; ${statuses})`
      )
    }
    await load(s, 'd. with back-office traffic', 'built', 'FULL', { beside: backOffice })
    await load(s, `d. paced, ${RATE}/s + back office`, 'built', 'FULL', { beside: backOffice, rate: RATE })
    await server.stop()
    server = null

    // ---- The bench's own server from source: FULL against NORMAL, same code, same file. -----------
    if (SOURCE_RUNS) {
      for (const sync of ['FULL', 'NORMAL'] as const) {
        server = await startServing(
          [process.execPath, 'run', DOOR_SERVER, '--db', file, '--port', '0', '--host', '127.0.0.1'],
          dir,
          {
            BENCH_SYNCHRONOUS: sync,
          },
        )
        s = await connect(server)
        await runControllers(
          s.target,
          makeControllers(CONTROLLERS, await s.newGyms(CONTROLLERS), barcodes, SEED + 11),
          barcodes,
          WARMUP_SECONDS * 1000,
        )
        await idle(s, `e. idle, single scans`, 'source', sync)
        await load(s, `e. sustained`, 'source', sync)
        await server.stop()
        server = null
      }
    }

    if (PROFILE) {
      const profileDir = join(dir, 'profile')
      server = await startServing(
        [
          process.execPath,
          '--cpu-prof',
          `--cpu-prof-dir=${profileDir}`,
          'run',
          DOOR_SERVER,
          '--db',
          file,
          '--port',
          '0',
          '--host',
          '127.0.0.1',
        ],
        dir,
        { BENCH_SYNCHRONOUS: 'FULL' },
      )
      s = await connect(server)
      await load(s, 'f. sustained, profiled', 'source', 'FULL')
      await server.stop()
      server = null
      const profile = summarizeProfile(profileDir)
      console.log('\nCPU profile of the FULL server under sustained load (f), self time by function:')
      for (const [label, pct] of profile.self) console.log(`  ${pct.toFixed(1).padStart(5)} %  ${label}`)
      console.log("... and inclusive time of the project's own functions:")
      for (const [label, pct] of profile.ours) console.log(`  ${pct.toFixed(1).padStart(5)} %  ${label}`)
    }

    // ---- The floor: the same controllers against a Bun.serve that answers 200 at once. -------------
    server = await startServing([process.execPath, '-e', FLOOR_SERVER], dir)
    {
      const floor = server
      // Unpaced (what this client and Bun's HTTP can do) and paced at --rate: the latency the host
      // itself adds when the cores idle between requests (a descheduled virtual CPU wakes late).
      for (const rate of [undefined, RATE]) {
        const cpu0 = processCpuMs(floor.pid)
        const machine0 = machineCpu()
        const { recorder, elapsedMs } = await runControllers(
          { base: floor.base, token: 'none' },
          makeControllers(CONTROLLERS, [1], barcodes, SEED),
          barcodes,
          Math.min(SECONDS, 5) * 1000,
          rate,
        )
        const cpuUs = ((processCpuMs(floor.pid) - cpu0) * 1000) / recorder.count
        rows.push([
          rate === undefined ? 'g. floor: empty Bun.serve' : `g. floor, paced ${rate}/s`,
          'Bun.serve',
          '-',
          String(CONTROLLERS),
          String(recorder.count),
          ((recorder.count * 1000) / elapsedMs).toFixed(0),
          '',
          '',
          fmt(recorder.percentile(0.5)),
          fmt(recorder.percentile(0.99)),
          fmt(recorder.max()),
          String(recorder.over(200)),
          String(recorder.errors),
          cpuUs.toFixed(0),
          '',
          stealPercent(machine0).toFixed(0),
        ])
      }
    }
    await server.stop()
    server = null

    // ---- In-process: the pieces of a request, one at a time. ----------------------------------------
    return measureInProcess(file, shuffled(barcodes.valid, rng(SEED + 5)), barcodes.unknown, 2000)
  }

  const ladder = COMPARE === undefined ? await measureAll() : undefined
  const comparison = COMPARE === undefined ? undefined : await compare(COMPARE)

  const header = [
    'phase',
    'server',
    'sync',
    'doors',
    'scans',
    'scans/s',
    'check-ins',
    'check-ins/s',
    'p50 ms',
    'p99 ms',
    'max ms',
    '>200ms',
    'errors',
    'srv µs/scan',
    'CPU% srv/bench/other',
    'steal %',
  ]
  console.log(
    `\nopen-door check-in over loopback, ${SECONDS} s per sustained phase, ${CONTROLLERS} controllers\n`,
  )
  console.log(formatTable([header, ...rows]))
  console.log('')
  for (const note of notes) console.log(`  ${note}`)
  if (ladder) {
    console.log('\nin-process, one call at a time (median wall µs / mean CPU µs per call):')
    const labelWidth = Math.max(...ladder.map((l) => l.label.length))
    for (const l of ladder)
      console.log(
        `  ${l.label.padEnd(labelWidth)}  ${l.wallUs.toFixed(0).padStart(6)}  ${l.cpuUs.toFixed(0).padStart(6)}`,
      )
  }
  for (const line of comparison ?? []) console.log(line)
  console.log(`\nload average after: ${loadAverage()}`)
} finally {
  if (server) await server.stop()
  rmSync(dir, { recursive: true, force: true })
}
