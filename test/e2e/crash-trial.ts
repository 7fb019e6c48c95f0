/**
 * One crash trial: the built executable takes check-ins from several door controllers at once (and
 * walk-ins signed up at the desk beside them) with a webhook receiver listening, is killed with
 * SIGKILL in the middle of the load, and restarts on the same file. Then it counts what a gym would
 * notice:
 *
 * - acknowledged: check-ins a controller was told about (200) and walk-ins the desk was told about
 *   (201);
 * - lost: acknowledged, but not in the database after the restart;
 * - duplicated: a scan recorded more than once (each controller scans each customer once, at a gym of
 *   its own, well inside the duplicate window: two rows for one barcode at one gym are a second
 *   check-in for one scan), or one check-in sent to the receiver under two different event ids (a
 *   receiver de-duplicating on webhook-id would count it twice);
 * - undelivered: committed check-ins, acknowledged or cut off by the kill, whose webhook never
 *   reached the receiver within the wait;
 * - phantom: deliveries of a check-in that is not in the database, or that describe another one.
 *
 * Delivery is at least once (the webhooks' operations in the OpenAPI document): an event sent and not yet recorded when the process
 * died is sent again after the restart with the same webhook_event_id, which receivers de-duplicate.
 * Those are counted apart, as redelivered, and are not a failure.
 *
 * SIGKILL loses the process, not the machine: what the OS already had survives even without fsync,
 * so a trial checks the transaction's atomicity (check-in, count and outbox row together) and the
 * dispatcher's recovery. Durability across a power cut rests on every answer waiting for an
 * fdatasync of the WAL that began after its commit (src/db/wal-sync.ts, and its tests).
 *
 * Used by crash-safety.test.ts (one trial) and test/bench/crash-trials.ts (many).
 */
import { Database } from 'bun:sqlite'
import { copyFileSync } from 'node:fs'
import { join } from 'node:path'
import { DEMO_ADMIN_EMAIL, DEMO_PASSWORD } from '../../src/demo/index.ts'
import { getToken, request, runBelay, startServer, tempDir, type Server } from './helpers.ts'

export interface CrashTrialOptions {
  /** A seeded demo database (seed-demo --size small), copied for the trial; seedDemo() makes one. */
  seededDb: string
  /** Door controllers scanning at once, each at a gym of its own. */
  controllers?: number
  /** Acknowledged check-ins before the kill is set off ... */
  killAfter?: number
  /** ... and walk-ins signed up at the desk. */
  killAfterSignUps?: number
  /** How long after that the kill comes: not on an answer, so it lands while the server is busy. */
  killDelayMs?: number
  /** How long to wait after the restart for every committed check-in's webhook. */
  deliveryWaitMs?: number
}

export interface Ack {
  barcode: string
  gymId: number
  /** the check-in id from barcode check-in; open-door's 200 has no body */
  id: number | null
}

export interface CheckInRow {
  id: number
  gym_id: number
  customer_id: number
  barcode: string
}

interface Received {
  webhook_event_id: number
  event_type: string
  event: { id: number; customer_id: number; location_id: number }
}

export interface CrashTrial {
  /** The server after the restart, still running on the trial's file (stopAll() ends it). */
  server: Server
  token: string
  acks: Ack[]
  signedUp: number[]
  /** The check-ins in the database after the restart. */
  rows: CheckInRow[]
  /** Acknowledged check-ins without their row, or whose row is not the check-in they were told of. */
  lostCheckIns: Ack[]
  lostSignUps: number[]
  /** Scans (`barcode@gym`) recorded more than once, with their rows. */
  duplicatedScans: CheckInRow[][]
  /** Check-ins delivered under more than one webhook_event_id. */
  duplicatedDeliveries: number[]
  undelivered: number[]
  phantomDeliveries: Received[]
  /** Deliveries of an event id the receiver already had (at least once, as documented). */
  redelivered: number
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

/** A small demo database to copy for each trial. */
export async function seedDemo(seed = 5): Promise<string> {
  const db = join(tempDir('belay-crash-seed'), 'seeded.sqlite3')
  const result = await runBelay(['seed-demo', '--size', 'small', '--seed', String(seed), '--db', db])
  if (result.code !== 0) throw new Error(`seed-demo failed:\n${result.stderr}`)
  return db
}

export async function runCrashTrial(options: CrashTrialOptions): Promise<CrashTrial> {
  const controllers = options.controllers ?? 8
  const killAfter = options.killAfter ?? 60
  const killAfterSignUps = options.killAfterSignUps ?? 3
  const killDelayMs = options.killDelayMs ?? 3
  const deliveryWaitMs = options.deliveryWaitMs ?? 15_000

  const db = join(tempDir('belay-crash-db'), 'belay.sqlite3')
  copyFileSync(options.seededDb, db)

  // The integrator's receiver: outlives the server, records every body it is sent.
  const received: Received[] = []
  const receiver = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch: async (req) => {
      received.push((await req.json()) as Received)
      return new Response('ok')
    },
  })
  try {
    let server = await startServer({ db })
    const token = await getToken(server.base, DEMO_ADMIN_EMAIL, DEMO_PASSWORD)
    const post = (path: string, json: unknown) => request(server.base, 'POST', path, { token, json })
    const hook = await post('/api/webhooks/', {
      event_type: 'check_in',
      webhook_url: `http://127.0.0.1:${receiver.port}/hook`,
      secret: 'crash',
    })
    if (hook.status !== 201) throw new Error(`creating the webhook answered ${hook.status}: ${hook.text}`)

    // One new location per controller: each customer's first scan there is a new check-in.
    const gymIds: number[] = []
    for (let i = 0; i < controllers; i++) {
      const gym = await post('/api/gyms/', { name: `Door ${i + 1}`, time_zone: 'America/Denver' })
      if (gym.status !== 201) throw new Error(`creating a gym answered ${gym.status}: ${gym.text}`)
      gymIds.push(gym.body.id)
    }
    const file = new Database(db, { readonly: true })
    const barcodes = (
      file.query('SELECT barcode FROM customers WHERE barcode IS NOT NULL ORDER BY id').all() as {
        barcode: string
      }[]
    ).map((r) => r.barcode)
    file.close()

    // Door controllers: half use barcode check-in (its 200 names the check-in), half open-door.
    const acks: Ack[] = []
    const signedUp: number[] = []
    let killing: ReturnType<typeof setTimeout> | null = null
    let killed = false
    const crashed = server.process.exited
    const controller = async (index: number) => {
      const gymId = gymIds[index]!
      const openDoor = index % 2 === 1
      const path = openDoor ? 'open-door-check-in' : 'barcode-check-in'
      // Each controller walks the customers from its own starting point, so the scans interleave.
      for (let k = 0; k < barcodes.length && !killed; k++) {
        const barcode = barcodes[(k + index * 29) % barcodes.length]!
        let res
        try {
          res = await post(`/api/gym-endpoints/${path}/${barcode}/`, { location_id: gymId })
        } catch {
          return // the server is gone: this scan's outcome is unknown (it may or may not have committed)
        }
        if (res.status === 200) acks.push({ barcode, gymId, id: openDoor ? null : res.body.id })
        if (acks.length >= killAfter && signedUp.length >= killAfterSignUps && !killing) {
          killing = setTimeout(() => {
            killed = true
            server.process.kill('SIGKILL')
          }, killDelayMs)
        }
      }
    }
    // The desk, meanwhile: walk-ins signed up one after another (Kysely's writes, not the door's).
    const desk = async () => {
      for (let n = 1; !killed; n++) {
        let res
        try {
          res = await post('/api/customers/', {
            first_name: 'Walk',
            last_name: `In ${n}`,
            birthday: '1990-01-01',
          })
        } catch {
          return
        }
        if (res.status === 201) signedUp.push(res.body.id)
      }
    }
    await Promise.all([...Array.from({ length: controllers }, (_, i) => controller(i)), desk()])
    if (!killed) throw new Error('the load ended before the kill: every customer was scanned; kill sooner')
    await crashed
    if (server.process.signalCode !== 'SIGKILL')
      throw new Error(`the server ended with ${server.process.signalCode}, not SIGKILL`)

    server = await startServer({ db })
    const after = new Database(db, { readonly: true })
    const customerIds = new Set(
      (after.query('SELECT id FROM customers').all() as { id: number }[]).map((r) => r.id),
    )
    // The trial's own check-ins: those at its doors' gyms, not the demo's history.
    const rows = after
      .query(
        `SELECT c.id, c.gym_id, c.customer_id, u.barcode FROM check_ins c JOIN customers u ON u.id = c.customer_id
         WHERE c.gym_id IN (${gymIds.join(', ')})`,
      )
      .all() as CheckInRow[]
    after.close()

    const byScan = new Map<string, CheckInRow[]>()
    for (const row of rows) {
      const key = `${row.barcode}@${row.gym_id}`
      byScan.set(key, [...(byScan.get(key) ?? []), row])
    }
    const lostCheckIns = acks.filter((ack) => {
      const scanRows = byScan.get(`${ack.barcode}@${ack.gymId}`) ?? []
      return scanRows.length === 0 || (ack.id !== null && !scanRows.some((r) => r.id === ack.id))
    })

    // Every committed check-in (acknowledged or cut off by the kill) should reach the receiver.
    const committed = new Map(rows.map((r) => [r.id, r]))
    const deliveredIds = () => new Set(received.map((b) => b.event.id))
    const deadline = Date.now() + deliveryWaitMs
    while ([...committed.keys()].some((id) => !deliveredIds().has(id)) && Date.now() < deadline)
      await sleep(50)

    const eventIdsByCheckIn = new Map<number, Set<number>>()
    for (const body of received) {
      eventIdsByCheckIn.set(
        body.event.id,
        (eventIdsByCheckIn.get(body.event.id) ?? new Set()).add(body.webhook_event_id),
      )
    }
    const delivered = deliveredIds()
    return {
      server,
      token,
      acks,
      signedUp,
      rows,
      lostCheckIns,
      lostSignUps: signedUp.filter((id) => !customerIds.has(id)),
      duplicatedScans: [...byScan.values()].filter((scanRows) => scanRows.length > 1),
      duplicatedDeliveries: [...eventIdsByCheckIn].filter(([, ids]) => ids.size > 1).map(([id]) => id),
      undelivered: [...committed.keys()].filter((id) => !delivered.has(id)),
      phantomDeliveries: received.filter((body) => {
        const row = committed.get(body.event.id)
        return (
          body.event_type !== 'check_in' ||
          row === undefined ||
          body.event.customer_id !== row.customer_id ||
          body.event.location_id !== row.gym_id
        )
      }),
      redelivered: received.length - new Set(received.map((b) => b.webhook_event_id)).size,
    }
  } finally {
    receiver.stop(true)
  }
}
