/**
 * Sites end to end (issue 26): the built executable as boxes of one organization, a real
 * nats-server as their hub, and each box's link to the hub through a TCP proxy the test can cut.
 *
 * - site-a serves the organization's existing database (the small demo) and becomes its first site;
 * - site-b and site-c join from nothing (a --db file that does not exist yet), from the hub's
 *   snapshot and stream;
 * - site-d joins last, while the others are busy (the last case).
 *
 * The cases share the boxes and run in order; each starts with every link up and ends with every
 * site converged: every outbox sent, every site at the same stream position and the same checksum
 * of the replicated tables (test/helpers/site-checksum.ts). A case that leaves the sites apart
 * fails there, with the tables that differ.
 *
 * The door scans use a pool of members signed up at site-a (customer, waiver, a 1000-entry pass),
 * each scan a member at a gym no one has scanned them at yet: a second scan within the door's
 * duplicate window would be refused. So every case creates its own gyms, at the box whose door uses
 * them. After each case every site must also agree with itself: each pool member's check-in count
 * and entries left are what their check-ins say, so a check-in applied twice (or lost) shows. The
 * derived tables are not compared (each site keeps its own); the busy hour asks each site's
 * check-in report instead, which must count every check-in the site holds.
 */
import { Database } from 'bun:sqlite'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { DateTime } from 'luxon'
import { DEMO_ADMIN_EMAIL, DEMO_PASSWORD } from '../../src/demo/index.ts'
import { startCuttableProxy, type CuttableProxy } from '../helpers/cuttable-proxy.ts'
import { startNatsServer, type NatsServer } from '../helpers/nats.ts'
import { differingTables, siteChecksum, type SiteChecksum } from '../helpers/site-checksum.ts'
import { SIGNATURE } from '../helpers/waiver-files.ts'
import {
  getToken,
  removeTempDirs,
  request,
  runBelay,
  startServer,
  stopAll,
  tempDir,
  type ApiResponse,
  type Server,
} from './helpers.ts'

interface Box {
  site: string
  db: string
  proxy: CuttableProxy
  server: Server
  token: string
}

interface Scan {
  barcode: string
  gymId: number
}

interface Ack extends Scan {
  /** The check-in the door answered 200 with. */
  id: number
}

interface Member {
  id: number
  barcode: string
}

const POOL_ENTRIES = 1000
const POOL_SIZE = 20
const CONVERGE_MS = 60_000

let hub: NatsServer
let workDir: string
let a: Box
let b: Box
let c: Box
let d: Box | undefined
let waiverVersion: number
const pool: Member[] = []
/** Every check-in a door answered 200 to, over the whole file. */
const acked: Ack[] = []
/** Why an earlier case left the sites apart: the cases after it share the boxes, so they stop there. */
let leftApart: string | null = null
let gymsMade = 0
let customersMade = 0

const boxes = () => [a, b, c, ...(d ? [d] : [])]

/**
 * A box joining listens only once caught up, which on a loaded machine, with the others writing,
 * takes a while: it is given a minute, as a restarted one catching up is.
 */
const BOX_START_MS = 60_000

async function startBox(site: string, db: string, proxy: CuttableProxy): Promise<Box> {
  const server = await startServer({
    db,
    args: ['--hub', proxy.url, '--site', site],
    startTimeoutMs: BOX_START_MS,
  })
  const token = await getToken(server.base, DEMO_ADMIN_EMAIL, DEMO_PASSWORD)
  return { site, db, proxy, server, token }
}

/**
 * The box again on its own file, after it stopped or was killed (a new process, a new port); its
 * token is in that file still.
 */
async function restartBox(box: Box): Promise<void> {
  box.server = await startServer({
    db: box.db,
    args: ['--hub', box.proxy.url, '--site', box.site],
    startTimeoutMs: BOX_START_MS,
  })
}

const api = (box: Box, method: string, path: string, json?: unknown) =>
  request(box.server.base, method, path, { token: box.token, json })

/** A write answered with `status` (else the test fails with the answer); its body. */
async function write(box: Box, method: string, path: string, json: unknown, status = 201): Promise<any> {
  const res = await api(box, method, path, json)
  expect({ site: box.site, path, status: res.status, body: res.body }).toEqual({
    site: box.site,
    path,
    status,
    body: res.body,
  })
  return res.body
}

async function makeGyms(box: Box, count: number): Promise<number[]> {
  const ids: number[] = []
  for (let i = 0; i < count; i++) {
    gymsMade += 1
    const gym = await write(box, 'POST', '/api/gyms/', {
      name: `Wall ${gymsMade} (${box.site})`,
      time_zone: 'America/Denver',
    })
    ids.push(gym.id)
  }
  return ids
}

/** A new customer with a barcode and a signed waiver: someone the door admits once they hold a product. */
async function signUp(box: Box, barcode: string | null = null): Promise<number> {
  customersMade += 1
  const person = {
    first_name: 'Climber',
    last_name: `${box.site} ${customersMade}`,
    birthday: '1990-04-01',
    email: `climber${customersMade}@sites.example`,
  }
  const customer = await write(box, 'POST', '/api/customers/', { ...person, barcode })
  await write(box, 'POST', '/api/waivers/sign/', {
    ...person,
    waiver_text_version: waiverVersion,
    telephone: '303-555-0100',
    signature: SIGNATURE,
  })
  return customer.id
}

/** Sells one entry pass of `passTypeId` to the customer: the pass it issued. */
async function sellPass(box: Box, customerId: number, passTypeId: number, price: string): Promise<number> {
  const invoice = await write(box, 'POST', '/api/invoices/', {
    customer_id: customerId,
    line_items: [{ purchase_type: 'EPA', entry_pass_id: passTypeId }],
    payments: [{ payment_type: 'OFF', amount: price }],
  })
  return invoice.line_items[0].customer_entry_pass_ids[0]
}

/** A retail sale at the desk: an invoice, its line and its payment. */
const sellChalk = (box: Box, customerId: number) =>
  write(box, 'POST', '/api/invoices/', {
    customer_id: customerId,
    line_items: [{ purchase_type: 'GEN', description: 'Chalk', unit_price: '4.00' }],
    payments: [{ payment_type: 'OFF', amount: '4.00' }],
  })

const scanAt = (box: Box, scan: Scan): Promise<ApiResponse> =>
  api(box, 'POST', `/api/gym-endpoints/barcode-check-in/${scan.barcode}/`, { location_id: scan.gymId })

/** Every pool member at every one of the gyms: scans no door has seen. */
const scansAt = (gymIds: number[]): Scan[] =>
  gymIds.flatMap((gymId) => pool.map((member) => ({ barcode: member.barcode, gymId })))

interface Door {
  acks: Ack[]
  /** Answers other than 200 (each a scan the door should have admitted). */
  refused: Array<Scan & { status: number; body: unknown }>
  /** Scans whose answer never came (the box was killed under them). */
  unanswered: Scan[]
  /** Resolves when every scan is answered, or the load was stopped, or the box died. */
  done: Promise<void>
  stop(): Promise<void>
}

/**
 * Door controllers at one box, each scanning the next of `scans` until none is left, the load is
 * stopped, or the box stops answering. `pauseMs` between a controller's scans spreads the load.
 */
function startDoor(box: Box, scans: Scan[], options: { controllers?: number; pauseMs?: number } = {}): Door {
  const door: Omit<Door, 'done' | 'stop'> = { acks: [], refused: [], unanswered: [] }
  let next = 0
  let stopped = false
  const controller = async () => {
    while (!stopped && next < scans.length) {
      const scan = scans[next++]!
      let res: ApiResponse
      try {
        res = await scanAt(box, scan)
      } catch {
        door.unanswered.push(scan)
        return
      }
      if (res.status === 200) {
        const ack = { ...scan, id: res.body.id as number }
        door.acks.push(ack)
        acked.push(ack)
      } else door.refused.push({ ...scan, status: res.status, body: res.body })
      if (options.pauseMs) await Bun.sleep(options.pauseMs)
    }
  }
  const done = Promise.all(Array.from({ length: options.controllers ?? 4 }, controller)).then(() => {})
  return {
    ...door,
    done,
    async stop() {
      stopped = true
      await done
    },
  }
}

/** The desk signing up walk-ins (customers alone) until stopped: the ids it was answered with. */
function startDesk(box: Box): { signedUp: number[]; stop(): Promise<void> } {
  const signedUp: number[] = []
  let stopped = false
  const desk = (async () => {
    while (!stopped) {
      customersMade += 1
      const res = await api(box, 'POST', '/api/customers/', {
        first_name: 'Walk',
        last_name: `In ${customersMade}`,
        birthday: '1992-02-02',
      }).catch(() => null)
      if (!res) return
      if (res.status === 201) signedUp.push(res.body.id)
      await Bun.sleep(25)
    }
  })()
  return {
    signedUp,
    async stop() {
      stopped = true
      await desk
    },
  }
}

/** Reads a box's database file read-only (the box may be writing it). */
function readDb<T>(box: Box, read: (db: Database) => T): T {
  const db = new Database(box.db, { readonly: true })
  try {
    return read(db)
  } finally {
    db.close()
  }
}

/** `SELECT count(*) AS n ...` on a box's file. */
const countAt = (box: Box, sql: string, ...params: Array<string | number>): number =>
  readDb(box, (db) => (db.query(sql).get(...params) as { n: number }).n)

const syncState = (box: Box) =>
  readDb(box, (db) => ({
    unsent: (db.query('SELECT count(*) AS n FROM sync_outbox').get() as { n: number }).n,
    applied: (db.query('SELECT applied_stream_sequence AS s FROM sync_state').get() as { s: number }).s,
  }))

/**
 * Waits until every site has sent everything, applied the stream as far as the others and holds
 * the same replicated rows; fails after `ms` with where they differ.
 */
async function converged(sites: Box[] = boxes(), ms = CONVERGE_MS): Promise<SiteChecksum> {
  const deadline = Date.now() + ms
  for (;;) {
    const states = sites.map(syncState)
    const quiet = states.every((s) => s.unsent === 0 && s.applied === states[0]!.applied)
    const sums = quiet ? sites.map((box) => siteChecksum(box.db)) : []
    if (quiet && sums.every((sum) => sum.all === sums[0]!.all)) return sums[0]!
    if (Date.now() > deadline) {
      leftApart = `the sites did not converge within ${ms} ms: ${JSON.stringify(
        quiet
          ? sites.map((box, i) => ({ site: box.site, differing: differingTables(sums[0]!, sums[i]!) }))
          : sites.map((box, i) => ({ site: box.site, ...states[i] })),
      )}`
      throw new Error(leftApart)
    }
    await Bun.sleep(250)
  }
}

interface PoolMemberCounts {
  id: number
  check_in_count: number
  check_ins: number
  entries_remaining: number
  entries_used: number
}

/**
 * What must hold at every site once converged: each acknowledged check-in is there, once; each
 * pool member's check-in count and entries left are what their check-ins say.
 */
function expectConsistent(box: Box): void {
  const missing = readDb(box, (db) => {
    const ids = new Set(
      (
        db.query('SELECT id FROM check_ins WHERE id >= ?').all(Math.min(...acked.map((x) => x.id))) as {
          id: number
        }[]
      ).map((row) => row.id),
    )
    return acked.filter((ack) => !ids.has(ack.id))
  })
  expect({ site: box.site, missing }).toEqual({ site: box.site, missing: [] })
  const disagreeing = readDb(box, (db) =>
    db
      .query<PoolMemberCounts, []>(
        `SELECT c.id, c.check_in_count,
           (SELECT count(*) FROM check_ins WHERE customer_id = c.id) AS check_ins,
           p.entries_remaining,
           (SELECT count(*) FROM check_ins WHERE customer_entry_pass_id = p.id) AS entries_used
         FROM customers c JOIN customer_entry_passes p ON p.owner_id = c.id
         WHERE c.id IN (${pool.map((m) => m.id).join(', ')})`,
      )
      .all()
      .filter(
        (row) =>
          row.check_in_count !== row.check_ins || row.entries_remaining !== POOL_ENTRIES - row.entries_used,
      ),
  )
  expect({ site: box.site, disagreeing }).toEqual({ site: box.site, disagreeing: [] })
}

/** The demo organization's today, in its zone. */
const organizationToday = () => DateTime.now().setZone('America/Denver').toISODate()!

/** Today's check-ins as the site's report counts them (POST /api/metrics/query/). */
async function checkInsReported(box: Box): Promise<number> {
  const today = organizationToday()
  const res = await api(box, 'POST', '/api/metrics/query/', {
    interval: 'daily',
    start_date: today,
    end_date: today,
    metrics: [{ id: 'check_ins', type: 'check_in_count', filters: {} }],
  })
  expect({ site: box.site, status: res.status }).toEqual({ site: box.site, status: 200 })
  return res.body.series[0].values[0]
}

/** Today's check-ins as the site's rows hold them (every gym is in the organization's zone). */
const checkInsHeld = (box: Box): number =>
  countAt(box, 'SELECT count(*) AS n FROM check_ins WHERE local_date = ?', organizationToday())

/** Polls `read` until `done` holds of its answer or `ms` pass; the last answer. */
async function until<T>(read: () => Promise<T> | T, done: (value: T) => boolean, ms = 10_000): Promise<T> {
  const deadline = Date.now() + ms
  for (;;) {
    const value = await read()
    if (done(value) || Date.now() > deadline) return value
    await Bun.sleep(100)
  }
}

beforeAll(async () => {
  workDir = tempDir('belay-sites')
  const aDb = join(workDir, 'a.sqlite3')
  const [started, seeded] = await Promise.all([
    startNatsServer(),
    runBelay(['seed-demo', '--size', 'small', '--seed', '5', '--db', aDb]),
  ])
  hub = started
  if (seeded.code !== 0) throw new Error(`seed-demo failed:\n${seeded.stderr}`)
  const proxy = () => startCuttableProxy({ hostname: '127.0.0.1', port: hub.port })

  a = await startBox('site-a', aDb, proxy())
  waiverVersion = readDb(
    a,
    (db) => (db.query('SELECT max(id) AS id FROM waiver_texts').get() as { id: number }).id,
  )
  // The pool, signed up at the first site before the others join: they get it from the stream.
  const passType = await write(a, 'POST', '/api/entry-passes/', {
    name: 'Sites test pass',
    status: 'ACT',
    number_of_entries: POOL_ENTRIES,
    price: '0.00',
  })
  const signUpMember = async (i: number) => {
    const barcode = `POOL-${i}`
    const id = await signUp(a, barcode)
    await sellPass(a, id, passType.id, '0.00')
    return { id, barcode }
  }
  for (let i = 0; i < POOL_SIZE; i += 4)
    pool.push(...(await Promise.all([0, 1, 2, 3].map((k) => signUpMember(i + k)))))
  // Two boxes joining at once: the hub numbers each once.
  ;[b, c] = await Promise.all([
    startBox('site-b', join(workDir, 'b.sqlite3'), proxy()),
    startBox('site-c', join(workDir, 'c.sqlite3'), proxy()),
  ])
  await converged()
}, 60_000)

beforeEach(() => {
  if (leftApart) throw new Error(`an earlier case left the sites apart: ${leftApart}`)
})

afterEach(() => {
  for (const box of boxes()) box.proxy.restore()
})

afterAll(async () => {
  await stopAll()
  for (const box of boxes()) box?.proxy.close()
  await hub?.dispose()
  removeTempDirs()
})

describe('sites, end to end', () => {
  test("a member signed up at site-a checks in at site-b's door within seconds", async () => {
    const [gymAtB] = await makeGyms(b, 1)
    const membership = await write(a, 'POST', '/api/memberships/', {
      name: 'Sites monthly',
      status: 'ACT',
      purchase_type: 'REC',
      interval: 'MON',
      price: '60.00',
    })
    const id = await signUp(a, 'FIRST-VISIT')
    await write(a, 'POST', '/api/invoices/', {
      customer_id: id,
      line_items: [{ purchase_type: 'MIN', membership_id: membership.id, start_date: organizationToday() }],
      payments: [{ payment_type: 'OFF', amount: '60.00' }],
    })

    const res = await until(
      () => scanAt(b, { barcode: 'FIRST-VISIT', gymId: gymAtB! }),
      (answer) => answer.status === 200,
    )
    expect({ status: res.status, customer: res.body.customer_id, entry: res.body.entry_method }).toEqual({
      status: 200,
      customer: id,
      entry: 'MEM',
    })
    acked.push({ barcode: 'FIRST-VISIT', gymId: gymAtB!, id: res.body.id })
    await converged()
    for (const box of boxes()) expectConsistent(box)
  }, 30_000)

  test('site-a cut off for a busy hour keeps answering its door; once back, every site converges to the same rows', async () => {
    const gyms = await Promise.all([a, b, c].map((box) => makeGyms(box, 10)))
    a.proxy.cut()
    // At each site: every pool member at each of its ten walls, ten sales and five sign-ups.
    const busy = [a, b, c].map(async (box, i) => {
      const door = startDoor(box, scansAt(gyms[i]!))
      const desk = (async () => {
        const sold: number[] = []
        for (let n = 0; n < 10; n++) sold.push((await sellChalk(box, pool[n]!.id)).id)
        const signedUp: number[] = []
        for (let n = 0; n < 5; n++) signedUp.push(await signUp(box))
        return { sold, signedUp }
      })()
      await door.done
      return { door, ...(await desk) }
    })
    const hour = await Promise.all(busy)
    for (const [i, box] of [a, b, c].entries()) {
      const { door } = hour[i]!
      expect({
        site: box.site,
        acks: door.acks.length,
        refused: door.refused,
        unanswered: door.unanswered,
      }).toEqual({ site: box.site, acks: 200, refused: [], unanswered: [] })
    }
    expect(syncState(a).unsent).toBeGreaterThan(0)
    // Each site's report counts what it holds so far: the others' check-ins arrive after.
    for (const box of boxes()) expect(await checkInsReported(box)).toBe(checkInsHeld(box))
    a.proxy.restore()

    await converged()
    const invoices = hour.flatMap((h) => h.sold)
    const customers = hour.flatMap((h) => h.signedUp)
    const allGyms = gyms.flat()
    const today = checkInsHeld(a)
    for (const box of boxes()) {
      expectConsistent(box)
      expect({ site: box.site, reported: await checkInsReported(box) }).toEqual({
        site: box.site,
        reported: today,
      })
      expect({
        site: box.site,
        checkIns: countAt(box, `SELECT count(*) AS n FROM check_ins WHERE gym_id IN (${allGyms.join(', ')})`),
        invoices: countAt(box, `SELECT count(*) AS n FROM invoices WHERE id IN (${invoices.join(', ')})`),
        customers: countAt(box, `SELECT count(*) AS n FROM customers WHERE id IN (${customers.join(', ')})`),
      }).toEqual({ site: box.site, checkIns: 600, invoices: 30, customers: 15 })
    }
  }, 90_000)

  test('one customer edited at site-a and site-b while apart ends the same everywhere, the last write winning each field', async () => {
    const id = await signUp(a)
    await converged()
    a.proxy.cut()
    b.proxy.cut()
    await write(a, 'PATCH', `/api/customers/${id}/`, { first_name: 'Ada', telephone: '303-555-0101' }, 200)
    await Bun.sleep(10)
    await write(
      b,
      'PATCH',
      `/api/customers/${id}/`,
      { telephone: '303-555-0202', address_city: 'Boulder' },
      200,
    )
    a.proxy.restore()
    b.proxy.restore()

    await converged()
    for (const box of boxes()) {
      const customer = (await api(box, 'GET', `/api/customers/${id}/`)).body
      expect({
        site: box.site,
        first_name: customer.first_name,
        telephone: customer.telephone,
        city: customer.address_city,
      }).toEqual({ site: box.site, first_name: 'Ada', telephone: '303-555-0202', city: 'Boulder' })
    }
  }, 90_000)

  test('a 10-entry pass used once at site-a and once at site-b while apart has 8 entries left everywhere', async () => {
    const passType = await write(a, 'POST', '/api/entry-passes/', {
      name: 'Ten visits',
      status: 'ACT',
      number_of_entries: 10,
      price: '150.00',
    })
    const id = await signUp(a, 'TEN-VISITS')
    const passId = await sellPass(a, id, passType.id, '150.00')
    const [gymAtA] = await makeGyms(a, 1)
    const [gymAtB] = await makeGyms(b, 1)
    await converged()
    a.proxy.cut()
    for (const [box, gymId] of [
      [a, gymAtA!],
      [b, gymAtB!],
    ] as const) {
      const res = await scanAt(box, { barcode: 'TEN-VISITS', gymId })
      expect({
        site: box.site,
        status: res.status,
        entry: res.body.entry_method,
        description: res.body.entry_method_description,
      }).toEqual({
        site: box.site,
        status: 200,
        entry: 'ENT',
        // Each door decided on its own: one entry taken of ten.
        description: expect.stringMatching(/\(9 remaining\)$/),
      })
      acked.push({ barcode: 'TEN-VISITS', gymId, id: res.body.id })
    }
    a.proxy.restore()

    await converged()
    for (const box of boxes())
      expect(
        readDb(box, (db) => ({
          site: box.site,
          pass: db.query('SELECT entries_remaining FROM customer_entry_passes WHERE id = ?').get(passId),
          customer: db.query('SELECT check_in_count FROM customers WHERE id = ?').get(id),
        })),
      ).toEqual({ site: box.site, pass: { entries_remaining: 8 }, customer: { check_in_count: 2 } })
  }, 90_000)

  test('one barcode given to two new customers at site-a and site-b while apart ends on one of them, with one conflict at each site', async () => {
    a.proxy.cut()
    const person = { last_name: 'Twin', birthday: '1995-05-05', barcode: 'TWIN-1' }
    const atA = (await write(a, 'POST', '/api/customers/', { ...person, first_name: 'Alpha' })).id as number
    await Bun.sleep(10)
    const atB = (await write(b, 'POST', '/api/customers/', { ...person, first_name: 'Bravo' })).id as number
    a.proxy.restore()

    await converged()
    // The barcode was given at site-a first: its customer keeps it.
    for (const box of boxes())
      expect(
        readDb(box, (db) => ({
          site: box.site,
          holders: db.query('SELECT id, barcode FROM customers WHERE id IN (?, ?) ORDER BY id').all(atA, atB),
          conflicts: db
            .query(
              `SELECT table_name, column_names, value, kept_row_key, lost_row_key, lost_site, resolution
               FROM sync_conflicts WHERE value = 'TWIN-1'`,
            )
            .all(),
        })),
      ).toEqual({
        site: box.site,
        holders: [
          { id: atA, barcode: 'TWIN-1' },
          { id: atB, barcode: null },
        ].sort((x, y) => x.id - y.id),
        conflicts: [
          {
            table_name: 'customers',
            column_names: '["barcode"]',
            value: 'TWIN-1',
            kept_row_key: `[${atA}]`,
            lost_row_key: `[${atB}]`,
            lost_site: 'site-b',
            resolution: 'cleared',
          },
        ],
      })
  }, 90_000)

  test('a box killed under load loses no acknowledged check-in and applies none twice', async () => {
    const gyms = await Promise.all([a, b, c].map((box) => makeGyms(box, 5)))
    const doors = [a, b, c].map((box, i) => startDoor(box, scansAt(gyms[i]!), { pauseMs: 5 }))
    const killed = b.server.process.exited
    await until(
      () => doors[1]!.acks.length,
      (n) => n >= 40,
    )
    // Its link cut, what it acknowledges from now on cannot reach the hub before the kill, however
    // quickly a loaded machine would otherwise have sent it: the restart must send it.
    b.proxy.cut()
    const ackedBeforeCut = doors[1]!.acks.length
    await until(
      () => doors[1]!.acks.length,
      (n) => n >= ackedBeforeCut + 20,
    )
    // Not on an answer: the kill lands while the box is busy with scans and with the others' changes.
    await Bun.sleep(3)
    b.server.process.kill('SIGKILL')
    await killed
    expect(b.server.process.signalCode).toBe('SIGKILL')
    expect(syncState(b).unsent).toBeGreaterThan(0)
    b.proxy.restore()
    await Promise.all(doors.map((door) => door.done))
    for (const [i, box] of [a, b, c].entries())
      expect({ site: box.site, refused: doors[i]!.refused }).toEqual({ site: box.site, refused: [] })
    for (const i of [0, 2]) expect(doors[i]!.unanswered).toEqual([])
    await restartBox(b)

    await converged()
    for (const box of boxes()) expectConsistent(box)
  }, 90_000)

  test('a hub restart while the boxes write: they carry on and converge', async () => {
    const gyms = await Promise.all([a, b, c].map((box) => makeGyms(box, 10)))
    const doors = [a, b, c].map((box, i) =>
      startDoor(box, scansAt(gyms[i]!), { controllers: 2, pauseMs: 20 }),
    )
    const desks = [a, b, c].map(startDesk)
    const acks = () => doors.map((door) => door.acks.length)
    /** Until every door has answered `more` scans since `from`. */
    const answered = (from: number[], more: number) =>
      until(acks, (now) => now.every((n, i) => n >= from[i]! + more))
    await answered([0, 0, 0], 20)
    const stopped = acks()
    await hub.stop()
    try {
      await answered(stopped, 20)
    } finally {
      await hub.start()
    }
    await answered(acks(), 20)
    await Promise.all([...doors, ...desks].map((load) => load.stop()))
    for (const [i, box] of [a, b, c].entries())
      expect({ site: box.site, refused: doors[i]!.refused, unanswered: doors[i]!.unanswered }).toEqual({
        site: box.site,
        refused: [],
        unanswered: [],
      })

    await converged()
    const signedUp = desks.flatMap((desk) => desk.signedUp)
    for (const box of boxes()) {
      expectConsistent(box)
      expect({
        site: box.site,
        customers: countAt(box, `SELECT count(*) AS n FROM customers WHERE id IN (${signedUp.join(', ')})`),
      }).toEqual({ site: box.site, customers: signedUp.length })
    }
  }, 90_000)

  test('a box joining from nothing while the others write converges with them', async () => {
    const gyms = await Promise.all([a, b, c].map((box) => makeGyms(box, 10)))
    const doors = [a, b, c].map((box, i) =>
      startDoor(box, scansAt(gyms[i]!), { controllers: 1, pauseMs: 20 }),
    )
    const desks = [a, b, c].map(startDesk)
    const before = doors.map((door) => door.acks.length)
    d = await startBox(
      'site-d',
      join(workDir, 'd.sqlite3'),
      startCuttableProxy({ hostname: '127.0.0.1', port: hub.port }),
    )
    const during = doors.map((door, i) => door.acks.length - before[i]!)
    await Promise.all([...doors, ...desks].map((load) => load.stop()))
    // The others' doors took scans all the while it joined.
    expect(during.filter((n) => n === 0)).toEqual([])
    for (const [i, box] of [a, b, c].entries())
      expect({ site: box.site, refused: doors[i]!.refused, unanswered: doors[i]!.unanswered }).toEqual({
        site: box.site,
        refused: [],
        unanswered: [],
      })

    await converged()
    for (const box of boxes()) expectConsistent(box)
    // Its staff log in with their usual passwords (startBox did), and its door admits the members.
    const [gymAtD] = await makeGyms(d, 1)
    const res = await scanAt(d, { barcode: pool[0]!.barcode, gymId: gymAtD! })
    expect({ status: res.status, customer: res.body.customer_id }).toEqual({
      status: 200,
      customer: pool[0]!.id,
    })
    // The hub numbered each box once, in the order they first came (site-b and site-c together).
    const number = (box: Box) =>
      readDb(box, (db) => (db.query('SELECT site_number AS n FROM sync_state').get() as { n: number }).n)
    expect({ a: number(a), bc: [number(b), number(c)].sort(), d: number(d) }).toEqual({
      a: 1,
      bc: [2, 3],
      d: 4,
    })
  }, 90_000)
})
