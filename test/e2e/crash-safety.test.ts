/**
 * Crash safety of the door (issue 4): the built executable takes check-ins from several door
 * controllers at once (and walk-ins signed up at the desk beside them), is killed with SIGKILL in
 * the middle of the load, and restarts on the same file. Every check-in a controller was told about
 * (a 200) must be in the history exactly once, every customer the desk was told about (a 201) must
 * be there, and every check-in that committed, acknowledged or not, must reach the webhook receiver
 * after the restart (the outbox row commits with the check-in; the dispatcher resumes from the file).
 *
 * SIGKILL loses the process, not the machine: what the OS already had survives even without fsync,
 * so this checks the transaction's atomicity (check-in, count and outbox row together) and the
 * dispatcher's recovery. Durability across a power cut rests on every answer waiting for an
 * fdatasync of the WAL that began after its commit (src/db/wal-sync.ts, and its tests).
 */
import { Database } from 'bun:sqlite'
import { afterAll, afterEach, expect, test } from 'bun:test'
import { getToken, removeTempDirs, request, runBelay, startServer, stopAll, tempDbPath } from './helpers.ts'

afterEach(stopAll)
afterAll(removeTempDirs)

const DEMO_ADMIN = 'admin@granitepeak.example'
const DEMO_PASSWORD = 'granite-peak-demo'
const CONTROLLERS = 8
/** Acknowledged check-ins before the kill: enough that the kill lands mid-load, not at its end. */
const KILL_AFTER = 60
/** ... and walk-ins signed up at the desk. */
const KILL_AFTER_SIGN_UPS = 3
const KILL_DELAY_MS = 3
const DELIVERY_WAIT_MS = 15_000

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

interface Ack {
  barcode: string
  gymId: number
  /** the check-in id from barcode check-in; open-door's 200 has no body */
  id: number | null
}

interface Received {
  webhook_event_id: number
  event_type: string
  event: { id: number; customer_id: number; location_id: number }
}

test("check-ins acknowledged before a SIGKILL are kept exactly once and every committed one is delivered after the restart; the desk's acknowledged sign-ups are kept", async () => {
  const db = tempDbPath()
  expect((await runBelay(['seed-demo', '--size', 'small', '--seed', '5', '--db', db])).code).toBe(0)

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
    const token = await getToken(server.base, DEMO_ADMIN, DEMO_PASSWORD)
    const hook = await request(server.base, 'POST', '/api/webhooks/', {
      token,
      json: {
        event_type: 'check_in',
        webhook_url: `http://127.0.0.1:${receiver.port}/hook`,
        secret: 'crash',
      },
    })
    expect(hook.status).toBe(201)

    // One new location per controller: each customer's first scan there is a new check-in.
    const gymIds: number[] = []
    for (let i = 0; i < CONTROLLERS; i++) {
      const gym = await request(server.base, 'POST', '/api/gyms/', {
        token,
        json: { name: `Door ${i + 1}`, time_zone: 'America/Denver' },
      })
      expect(gym.status).toBe(201)
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
          res = await request(server.base, 'POST', `/api/gym-endpoints/${path}/${barcode}/`, {
            token,
            json: { location_id: gymId },
          })
        } catch {
          return // the server is gone: this scan's outcome is unknown (it may or may not have committed)
        }
        if (res.status === 200) acks.push({ barcode, gymId, id: openDoor ? null : res.body.id })
        if (acks.length >= KILL_AFTER && signedUp.length >= KILL_AFTER_SIGN_UPS && !killing) {
          // A moment later, not on an answer: the kill should land while the server is busy.
          killing = setTimeout(() => {
            killed = true
            server.process.kill('SIGKILL')
          }, KILL_DELAY_MS)
        }
      }
    }
    // The desk, meanwhile: walk-ins signed up one after another (Kysely's writes, not the door's).
    const desk = async () => {
      for (let n = 1; !killed; n++) {
        let res
        try {
          res = await request(server.base, 'POST', '/api/customers/', {
            token,
            json: { first_name: 'Walk', last_name: `In ${n}`, birthday: '1990-01-01' },
          })
        } catch {
          return
        }
        if (res.status === 201) signedUp.push(res.body.id)
      }
    }
    await Promise.all([...Array.from({ length: CONTROLLERS }, (_, i) => controller(i)), desk()])
    expect(killed).toBe(true)
    await crashed
    expect(server.process.signalCode).toBe('SIGKILL')
    const acknowledged = acks.length

    server = await startServer({ db })
    const after = new Database(db, { readonly: true })
    const customerIds = new Set(
      (after.query('SELECT id FROM customers').all() as { id: number }[]).map((r) => r.id),
    )
    const rows = after
      .query(
        'SELECT c.id, c.gym_id, c.customer_id, u.barcode FROM check_ins c JOIN customers u ON u.id = c.customer_id',
      )
      .all() as { id: number; gym_id: number; customer_id: number; barcode: string }[]
    after.close()

    // Every walk-in the desk was told about is there.
    expect(signedUp.length).toBeGreaterThanOrEqual(KILL_AFTER_SIGN_UPS)
    expect(signedUp.filter((id) => !customerIds.has(id))).toEqual([])

    // Every acknowledged check-in is there exactly once: its own row, no second one for the scan.
    const byScan = new Map<string, typeof rows>()
    for (const row of rows) {
      const key = `${row.barcode}@${row.gym_id}`
      byScan.set(key, [...(byScan.get(key) ?? []), row])
    }
    const acknowledgedRows = acks.map((ack) => {
      const scanRows = byScan.get(`${ack.barcode}@${ack.gymId}`) ?? []
      expect({ ack, rows: scanRows.length }).toEqual({ ack, rows: 1 })
      if (ack.id !== null) expect(scanRows[0]!.id).toBe(ack.id)
      return scanRows[0]!
    })
    // ... and the customers' check-in history, read through the API, says so too.
    for (const customerId of new Set(acknowledgedRows.map((r) => r.customer_id))) {
      const path = `/api/check-ins/?customer_id=${customerId}&page_size=100`
      const history = await request(server.base, 'GET', path, { token })
      expect(history.status).toBe(200)
      const ids: number[] = history.body.results.map((c: { id: number }) => c.id)
      for (const row of acknowledgedRows.filter((r) => r.customer_id === customerId)) {
        expect(ids.filter((id) => id === row.id)).toEqual([row.id])
      }
    }

    // Every committed check-in (acknowledged or cut off by the kill) reaches the receiver.
    const committed = new Set(rows.map((r) => r.id))
    const deliveredIds = () =>
      new Set(received.filter((b) => b.event_type === 'check_in').map((b) => b.event.id))
    const deadline = Date.now() + DELIVERY_WAIT_MS
    while ([...committed].some((id) => !deliveredIds().has(id)) && Date.now() < deadline) await sleep(50)
    const missing = [...committed].filter((id) => !deliveredIds().has(id))
    expect(missing).toEqual([])
    // Nothing was delivered that did not commit, and each body describes its own check-in.
    for (const body of received) {
      expect(committed.has(body.event.id)).toBe(true)
      const row = rows.find((r) => r.id === body.event.id)!
      expect([body.event.customer_id, body.event.location_id]).toEqual([row.customer_id, row.gym_id])
    }
    expect(committed.size).toBeGreaterThanOrEqual(acknowledged)
  } finally {
    receiver.stop(true)
  }
}, 60_000)
