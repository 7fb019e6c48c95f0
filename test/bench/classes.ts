/**
 * Classes benchmark (issue 27): booking under load, and what it costs the door, against the BUILT
 * executable over loopback on the `small` demo set. Loopback only; everything lives in one
 * temporary directory, removed at the end. About a minute at the defaults.
 *
 *   npm run bench -- classes
 *   npx bun run test/bench/classes.ts [--seconds 10] [--clients 16] [--events 200] [--capacity 20]
 *                                     [--types 4] [--type-capacity 30] [--door-rate 50]
 *                                     [--door-controllers 4] [--rounds 1] [--db FILE]
 *
 * 1. Builds build/out/belay if it is older than the sources, seeds `belay seed-demo --size small`
 *    into a temporary file (or copies --db FILE, a seeded file), migrates it and brings its rollup
 *    current, and starts `belay serve` on it.
 * 2. Each round makes, through the API as the demo admin, --types event types with a facility
 *    capacity of --type-capacity (0: none) and --events events in the future shared among them,
 *    each with its own capacity of --capacity. A type's events start 45 minutes apart and last an
 *    hour, so each overlaps its neighbours and the facility capacity is worked out at every booking
 *    (two overlapping events of 20 pass a facility capacity of 30: either limit can refuse).
 * 3. Door controllers scan at a steady --door-rate scans/s in all (paced: latency counts from each
 *    scan's due time, no coordinated omission), every scan a new check-in (each member once at each
 *    of locations made before the phase, as sites.ts phase 3 does: the small set has few members).
 *    Two phases a round, on the same server, in alternating order from round to round:
 *      idle:    the door alone;
 *      booking: the same door load while --clients clients book random active customers into random
 *               events of the round, each posting as soon as it is answered (the most the server
 *               takes: latency is then mostly queueing). As events fill, more answers are refusals
 *               ("The event is full.", or the customer already booked on it).
 *    Before the rounds, a short warm-up of both on events of their own.
 * It prints each phase (door p50/p99/max; bookings per second, their p50/p99 and answers; the
 * server's CPU and the machine's CPU steal), checks in the file that no event of the round holds
 * more live reservations than its capacity and that every 201 is a row, and ends with the door's
 * p99 during booking over its p99 idle, per round (paired over rounds with --rounds 2 or more).
 */
import { Database } from 'bun:sqlite'
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs'
import { cpus, tmpdir, totalmem } from 'node:os'
import { join } from 'node:path'
import { Recorder, rng, scanOnce, shuffled, type DoorTarget } from './_door-load.ts'
import {
  BELAY,
  barcodesByCategory,
  buildIfNeeded,
  connectSession,
  countRows,
  machineCpu,
  readyToServe,
  seedDemo,
  startServing,
  stealPercent,
  type Served,
} from './_door-setup.ts'
import { numberArg, stringArg } from './_args.ts'
import { describePairedRatio, pairedRatio } from './_paired.ts'
import { formatTable, loadAverage } from './_table.ts'

const SECONDS = numberArg('--seconds', 10)
const CLIENTS = numberArg('--clients', 16)
const EVENTS = numberArg('--events', 200)
const CAPACITY = numberArg('--capacity', 20)
const TYPES = numberArg('--types', 4)
const TYPE_CAPACITY = numberArg('--type-capacity', 30)
const DOOR_RATE = numberArg('--door-rate', 50)
const DOOR_CONTROLLERS = numberArg('--door-controllers', 4)
const ROUNDS = numberArg('--rounds', 1)
const SEED = numberArg('--seed', 1)
const DB = stringArg('--db')
const WARMUP_SECONDS = 2
const EVENT_SPACING_MS = 45 * 60_000
const EVENT_LENGTH_MS = 60 * 60_000
const FULL = JSON.stringify({ non_field_errors: ['The event is full.'] })
const ALREADY = JSON.stringify({
  non_field_errors: ['This customer already has a reservation for this event.'],
})

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))
const fmt = (ms: number) => (ms < 10 ? ms.toFixed(2) : ms.toFixed(1))

const cpu = cpus()
console.log(
  `machine: ${cpu.length} × ${cpu[0]?.model.trim() ?? 'unknown CPU'}, ${Math.round(totalmem() / 2 ** 30)} GiB, ` +
    `${process.platform}-${process.arch}, Bun ${Bun.version}; load average ${loadAverage()}`,
)
const dir = mkdtempSync(join(tmpdir(), 'belay-bench-classes-'))
const file = join(dir, 'belay.sqlite3')

/**
 * Door scans that each admit a member: every member with an entry method at one location, then at
 * the next, over locations made before the phase (enough for the phase at its rate, and a spare).
 */
class DoorDeck {
  private readonly scans: { gymId: number; barcode: string }[] = []
  private next = 0
  /** times the deck ran out and started over (its later scans are duplicates) */
  wrapped = 0

  static async make(
    newGyms: (count: number) => Promise<number[]>,
    valid: string[],
    seconds: number,
    seed: number,
  ): Promise<DoorDeck> {
    const deck = new DoorDeck()
    const random = rng(seed)
    const gyms = await newGyms(Math.ceil((DOOR_RATE * seconds * 1.2) / valid.length) + 1)
    for (const gymId of gyms)
      for (const barcode of shuffled(valid, random)) deck.scans.push({ gymId, barcode })
    return deck
  }

  take(): { gymId: number; barcode: string } {
    if (this.next === this.scans.length) {
      this.next = 0
      this.wrapped++
    }
    return this.scans[this.next++]!
  }
}

/** The door controllers, paced at DOOR_RATE scans/s in all, until `until()` holds. */
async function runDoor(target: DoorTarget, deck: DoorDeck, until: () => boolean): Promise<Recorder> {
  const recorder = new Recorder()
  const started = performance.now()
  const intervalMs = (1000 * DOOR_CONTROLLERS) / DOOR_RATE
  await Promise.all(
    Array.from({ length: DOOR_CONTROLLERS }, async (_, index) => {
      let due = started + (intervalMs * index) / DOOR_CONTROLLERS
      while (!until()) {
        const wait = due - performance.now()
        if (wait > 0) await sleep(wait)
        const scan = deck.take()
        // A timer may fire a little before its time: the scan is sent now, not earlier.
        const t0 = Math.max(due, performance.now())
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
  return recorder
}

/**
 * CLIENTS clients booking random customers into random events until `until()` holds, each posting
 * as soon as it is answered. Outcomes: booked (201), full, already (the customer holds a
 * reservation for it), other (anything else; the first is kept in `firstError`).
 */
async function runBookings(
  target: DoorTarget,
  eventIds: number[],
  customerIds: number[],
  until: () => boolean,
  seed: number,
): Promise<Recorder> {
  const recorder = new Recorder()
  await Promise.all(
    Array.from({ length: CLIENTS }, async (_, index) => {
      const random = rng(seed * 1000 + index + 1)
      while (!until()) {
        const eventId = eventIds[Math.floor(random() * eventIds.length)]!
        const customerId = customerIds[Math.floor(random() * customerIds.length)]!
        const t0 = performance.now()
        try {
          const res = await fetch(`${target.base}/api/reservations/`, {
            method: 'POST',
            headers: { authorization: `Token ${target.token}`, 'content-type': 'application/json' },
            body: JSON.stringify({ event_id: eventId, customer_id: customerId }),
            signal: AbortSignal.timeout(10_000),
          })
          const text = await res.text()
          const ms = performance.now() - t0
          const outcome =
            res.status === 201 ? 'booked' : text === FULL ? 'full' : text === ALREADY ? 'already' : 'other'
          if (outcome === 'other') recorder.firstError ||= `${res.status} ${text.slice(0, 200)}`
          recorder.add(ms, outcome, res.status)
        } catch (error) {
          recorder.add(performance.now() - t0, 'other', 'error')
          recorder.errors++
          recorder.firstError ||= error instanceof Error ? error.message : String(error)
          await sleep(10)
        }
      }
    }),
  )
  return recorder
}

const outcomeCount = (recorder: Recorder, outcome: string) =>
  [...(recorder.outcomes.get(outcome)?.values() ?? [])].reduce((sum, n) => sum + n, 0)

let server: Served | null = null
try {
  console.log(`executable: ${buildIfNeeded()} (${BELAY})`)
  if (DB) {
    copyFileSync(DB, file)
    console.log(`a copy of ${DB}`)
  } else console.log(seedDemo(file, 'small', SEED, dir).split('\n')[0])
  readyToServe(BELAY, file, dir)
  const barcodes = barcodesByCategory(file, new Date())
  const readOnly = new Database(file, { readonly: true })
  const customerIds = (
    readOnly.query('SELECT id FROM customers WHERE is_active = 1 ORDER BY id').all() as { id: number }[]
  ).map((r) => r.id)
  readOnly.close()
  console.log(
    `${customerIds.length} active customers book; ${barcodes.valid.length} members with an entry method scan at the door`,
  )

  server = await startServing([BELAY, 'serve', '--db', file, '--port', '0', '--host', '127.0.0.1'], dir)
  const served = server
  const s = await connectSession(served, file)
  const gymId = (await s.api('GET', '/api/gyms/1/')).id as number

  /** --types event types and --events events among them, starting `days` from now. */
  const makeEvents = async (label: string, count: number, days: number) => {
    const typeIds: number[] = []
    for (let k = 0; k < TYPES; k++) {
      const type = await s.api('POST', '/api/event-types/', {
        name: `Bench ${label} class ${k + 1}`,
        gym_id: gymId,
        status: 'ACT',
        capacity: TYPE_CAPACITY > 0 ? TYPE_CAPACITY : null,
      })
      typeIds.push(type.id as number)
    }
    const midnight = new Date()
    midnight.setUTCHours(0, 0, 0, 0)
    const base = midnight.getTime() + days * 86_400_000
    const eventIds: number[] = []
    for (let i = 0; i < count; i++) {
      const start = base + Math.floor(i / TYPES) * EVENT_SPACING_MS
      const event = await s.api('POST', '/api/events/', {
        event_type_id: typeIds[i % TYPES],
        start_at: new Date(start).toISOString(),
        end_at: new Date(start + EVENT_LENGTH_MS).toISOString(),
        capacity: CAPACITY,
      })
      eventIds.push(event.id as number)
    }
    return eventIds
  }

  const rows: string[][] = []
  const notes: string[] = []
  const p99s = { idle: [] as number[], booking: [] as number[] }

  /** One phase: the door at its rate, with or without the bookers, for `seconds`. */
  const phase = async (label: string, seconds: number, eventIds: number[] | null, seed: number) => {
    const deck = await DoorDeck.make(s.newGyms, barcodes.valid, seconds, seed)
    const cpu0 = s.cpuMs()
    const machine0 = machineCpu()
    const started = performance.now()
    const until = () => performance.now() - started >= seconds * 1000
    const [door, bookings] = await Promise.all([
      runDoor(s.target, deck, until),
      eventIds ? runBookings(s.target, eventIds, customerIds, until, seed) : null,
    ])
    const elapsed = (performance.now() - started) / 1000
    const serverCpu = (100 * (s.cpuMs() - cpu0)) / (elapsed * 1000)
    const steal = stealPercent(machine0)
    rows.push([
      label,
      String(door.count),
      fmt(door.percentile(0.5)),
      fmt(door.percentile(0.99)),
      fmt(door.max()),
      bookings ? (bookings.count / elapsed).toFixed(0) : '-',
      bookings ? fmt(bookings.percentile(0.5)) : '-',
      bookings ? fmt(bookings.percentile(0.99)) : '-',
      bookings ? String(outcomeCount(bookings, 'booked')) : '-',
      bookings ? String(outcomeCount(bookings, 'full')) : '-',
      bookings ? String(outcomeCount(bookings, 'already')) : '-',
      bookings ? String(outcomeCount(bookings, 'other')) : '-',
      serverCpu.toFixed(0),
      steal.toFixed(0),
    ])
    const problems = [
      door.errors ? `door errors ${door.errors}: ${door.firstError}` : '',
      deck.wrapped ? `the door's deck ran out ${deck.wrapped} times` : '',
      bookings?.firstError ? `first unexpected booking answer: ${bookings.firstError}` : '',
    ].filter(Boolean)
    notes.push(
      `${label}: door ${door.describeOutcomes()}` +
        (bookings ? `; bookings ${bookings.describeOutcomes()}` : '') +
        (problems.length ? `; ${problems.join('; ')}` : ''),
    )
    if (eventIds && bookings) {
      // The file's word on capacity: no event past its own, every 201 a row.
      const inList = eventIds.join(',')
      const rowsBooked = countRows(
        file,
        `SELECT count(*) AS n FROM reservations WHERE is_cancelled = 0 AND event_id IN (${inList})`,
      )
      const fullest = countRows(
        file,
        `SELECT coalesce(max(c), 0) AS n FROM (SELECT count(*) AS c FROM reservations
           WHERE is_cancelled = 0 AND event_id IN (${inList}) GROUP BY event_id)`,
      )
      notes.push(
        `${label}: ${rowsBooked} live reservations in the file for ${outcomeCount(bookings, 'booked')} answers 201; ` +
          `the fullest event holds ${fullest} of ${CAPACITY}${fullest > CAPACITY ? ' (OVER CAPACITY)' : ''}`,
      )
    }
    return door.percentile(0.99)
  }

  let t0 = performance.now()
  const warmupEvents = await makeEvents('warm-up', Math.min(EVENTS, 40), 1)
  console.log(`warm-up events made (${((performance.now() - t0) / 1000).toFixed(1)} s)`)
  await phase('warm-up, door and booking', WARMUP_SECONDS, warmupEvents, SEED + 99)

  for (let round = 1; round <= ROUNDS; round++) {
    t0 = performance.now()
    // Each round's events on days of their own (a week apart), of types of their own.
    const eventIds = await makeEvents(`round ${round}`, EVENTS, 2 + 7 * round)
    console.log(
      `round ${round}: ${EVENTS} events of ${TYPES} types made through the API in ` +
        `${((performance.now() - t0) / 1000).toFixed(1)} s; load average ${loadAverage()}`,
    )
    const order = round % 2 === 1 ? (['idle', 'booking'] as const) : (['booking', 'idle'] as const)
    for (const which of order) {
      const label = `${round}. ${which === 'idle' ? 'idle, the door alone' : `booking, ${CLIENTS} clients`}`
      p99s[which].push(
        await phase(label, SECONDS, which === 'booking' ? eventIds : null, SEED * 100 + round * 2),
      )
    }
  }

  const header = [
    'phase',
    'scans',
    'door p50 ms',
    'door p99 ms',
    'door max ms',
    'bookings/s',
    'booking p50 ms',
    'booking p99 ms',
    '201',
    '400 full',
    '400 already',
    'other',
    'server CPU %',
    'steal %',
  ]
  console.log(`\n${formatTable([header, ...rows])}\n`)
  for (const line of notes) console.log(line)
  console.log(
    `\nsummary: ${EVENTS} events of capacity ${CAPACITY}` +
      `${TYPE_CAPACITY > 0 ? ` (types' facility capacity ${TYPE_CAPACITY})` : ''}, ${CLIENTS} booking clients, ` +
      `the door at ${DOOR_RATE} scans/s from ${DOOR_CONTROLLERS} controllers, ${SECONDS} s a phase; load average ${loadAverage()}`,
  )
  p99s.booking.forEach((during, i) =>
    console.log(
      `  round ${i + 1}: door p99 during booking ${fmt(during)} ms against idle ${fmt(p99s.idle[i]!)} ms: ` +
        `${(during / p99s.idle[i]!).toFixed(2)}x`,
    ),
  )
  if (ROUNDS > 1)
    console.log(`  paired over rounds: ${describePairedRatio(pairedRatio(p99s.booking, p99s.idle))}`)
} finally {
  await (server as Served | null)?.stop()
  rmSync(dir, { recursive: true, force: true })
}
