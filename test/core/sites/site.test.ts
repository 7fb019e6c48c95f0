import { afterAll, afterEach, beforeAll, beforeEach, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openHub, type Hub } from '../../../src/core/sites/hub.ts'
import { startSite, type RunningSite } from '../../../src/core/sites/site.ts'
import { joinFromSnapshot, readyForJoiners } from '../../../src/core/sites/snapshots.ts'
import { syncTransaction } from '../../../src/db/sync-transaction.ts'
import { makeTestApp, type TestApp } from '../../helpers/app.ts'
import { makeDoorCustomer, makeMembershipFor } from '../../helpers/door-factories.ts'
import { makeToken, seedBasics, type Seed } from '../../helpers/factories.ts'
import { startNatsServer, type NatsServer } from '../../helpers/nats.ts'

/*
 * Two boxes in process, each a site of a real nats-server hub: what one records reaches the other
 * through the hub's stream. (The built executables, proxies and cuts are test/e2e/sites.test.ts.)
 */

interface Box {
  t: TestApp
  hub: Hub
  running: RunningSite
}

let server: NatsServer
let organizations = 0
let seed: Seed
let a: Box
let b: Box

const workDir = mkdtempSync(join(tmpdir(), 'belay-site-test-'))

beforeAll(async () => {
  server = await startNatsServer()
})
afterAll(async () => {
  await server.dispose()
  rmSync(workDir, { recursive: true, force: true })
})

function hubFor(site: string, organization: string): Hub {
  return openHub({ servers: [server.url], site, organization, reconnectWaitMs: 50, timeoutMs: 2000 })
}

beforeEach(async () => {
  organizations += 1
  const organization = `crag-${organizations}`
  // The first box: the organization's existing database.
  const first = await makeTestApp()
  seed = await seedBasics(first.db)
  const hubA = hubFor('alpha', organization)
  a = { t: first, hub: hubA, running: await startSite(first.deps, hubA, { site: 'alpha', organization }) }
  // Its snapshot on the hub (serve makes it from the file with copyDatabase; this one is in memory).
  const image = join(workDir, `${organization}-alpha.sqlite3`)
  await Bun.write(image, first.deps.sqlite.serialize())
  await hubA.putSnapshot(image, readyForJoiners(image))
  // The second box joins from nothing.
  const hubB = hubFor('bravo', organization)
  const joined = join(workDir, `${organization}-bravo.sqlite3`)
  await joinFromSnapshot(joined, hubB, { site: 'bravo', organization })
  const second = await makeTestApp({ databaseImage: await Bun.file(joined).bytes() })
  b = { t: second, hub: hubB, running: await startSite(second.deps, hubB, { site: 'bravo', organization }) }
})

afterEach(async () => {
  for (const box of [a, b]) {
    await box.running.stop()
    await box.hub.close()
    await box.t.close()
  }
})

/** What `read` answers once it equals `expected`, or its last answer after `ms`. */
async function settled<T>(read: () => T, expected: T, ms = 5_000): Promise<T> {
  const until = Date.now() + ms
  let value = read()
  while (!Bun.deepEquals(value, expected) && Date.now() < until) {
    await Bun.sleep(20)
    value = read()
  }
  return value
}

const rows = (box: Box, sql: string) => box.t.deps.sqlite.query(sql).all()

test('the hub numbers the sites in the order they joined; the joiner starts empty of local rows', () => {
  expect([a.running.site.siteNumber, b.running.site.siteNumber]).toEqual([1, 2])
  expect(rows(b, 'SELECT count(*) AS n FROM auth_tokens')).toEqual([{ n: 0 }])
  expect(rows(b, 'SELECT site FROM sync_state')).toEqual([{ site: 'bravo' }])
  expect(rows(b, 'SELECT email FROM staff_users ORDER BY id')).toEqual(
    rows(a, 'SELECT email FROM staff_users ORDER BY id'),
  )
})

test('a second existing database is refused: later boxes join from the hub', async () => {
  const other = await makeTestApp()
  const hub = hubFor('charlie', `crag-${organizations}`)
  try {
    await expect(
      startSite(other.deps, hub, { site: 'charlie', organization: `crag-${organizations}` }),
    ).rejects.toThrow(
      `the hub's organization "crag-${organizations}" already has sites (alpha, bravo): a box joins it from nothing, with a --db file that does not exist yet`,
    )
  } finally {
    await hub.close()
    await other.close()
  }
})

test("a member signed up at one site is admitted at the other's door; its check-in comes back", async () => {
  const customer = await makeDoorCustomer(a.t.db, 'LYNN1')
  const membership = await makeMembershipFor(a.t.db, customer.id)
  const barcodes = "SELECT barcode FROM customers WHERE barcode = 'LYNN1'"
  expect(await settled(() => rows(b, barcodes), [{ barcode: 'LYNN1' }])).toEqual([{ barcode: 'LYNN1' }])
  // The membership and then its cover (who it admits) are written after the customer, each its own
  // change, so they may reach B a moment later: the door admits by the cover, so the scan waits
  // for it.
  const covers = `SELECT customer_membership_id AS id FROM membership_members WHERE customer_id = ${customer.id}`
  expect(await settled(() => rows(b, covers), [{ id: membership.id }])).toEqual([{ id: membership.id }])

  // Tokens are each box's own: the desk at B logs in there.
  const token = await makeToken(b.t.db, seed.staff)
  const scan = await b.t.request('POST', '/api/gym-endpoints/barcode-check-in/LYNN1/', { token })
  expect(scan.status).toBe(200)
  const checkIns = 'SELECT id, customer_id FROM check_ins'
  const expected = [{ id: scan.body.id, customer_id: customer.id }]
  expect(await settled(() => rows(a, checkIns), expected)).toEqual(expected)

  // Everything sent, everything applied, nothing sent back; the outbox emptied within a second
  // of the hub acknowledging (the bookkeeping's write).
  const outboxes = () => [a, b].map((box) => rows(box, 'SELECT count(*) AS n FROM sync_outbox'))
  expect(await settled(outboxes, [[{ n: 0 }], [{ n: 0 }]])).toEqual([[{ n: 0 }], [{ n: 0 }]])
  expect(a.running.status()).toMatchObject({
    site: 'alpha',
    siteNumber: 1,
    hubReachable: true,
    unsentRows: 0,
  })
})

test('an import of 5,000 customers, one transaction too large for one hub message, reaches the other site whole', async () => {
  const token = seed.adminToken
  const csv = [
    'first_name,last_name,email,birthday',
    ...Array.from({ length: 5_000 }, (_, i) => `Ada,Lovelace ${i + 1},ada${i + 1}@example.com,1990-01-01`),
  ].join('\n')
  const imported = await a.t.request('POST', '/api/customers/import/', {
    token,
    body: csv,
    headers: { 'content-type': 'text/csv' },
  })
  expect(imported.status).toBe(201)
  // Larger than the hub takes in one message (nats-server's 1 MiB unless configured).
  const captured = rows(a, 'SELECT sum(length(new_values)) AS bytes FROM sync_outbox')[0] as { bytes: number }
  expect(captured.bytes).toBeGreaterThan(1024 * 1024)
  const count = 'SELECT count(*) AS n FROM customers'
  expect(await settled(() => rows(b, count), [{ n: 5_000 }], 20_000)).toEqual([{ n: 5_000 }])
  expect(rows(b, 'SELECT * FROM customers ORDER BY id')).toEqual(
    rows(a, 'SELECT * FROM customers ORDER BY id'),
  )
  // And what comes after it is not held back.
  await makeDoorCustomer(a.t.db, 'AFTER1')
  const after = "SELECT barcode FROM customers WHERE barcode = 'AFTER1'"
  expect(await settled(() => rows(b, after), [{ barcode: 'AFTER1' }])).toEqual([{ barcode: 'AFTER1' }])
}, 60_000)

test('a change from a newer schema level stops applying there: what came before it stays, nothing after', async () => {
  await makeDoorCustomer(b.t.db, 'BEFORE1')
  const before = "SELECT barcode FROM customers WHERE barcode = 'BEFORE1'"
  expect(await settled(() => rows(a, before), [{ barcode: 'BEFORE1' }])).toEqual([{ barcode: 'BEFORE1' }])
  const level = a.running.site.level + 1
  const newer = {
    site: 'bravo',
    seq: 900_000,
    hlc: '9999999999999990000-0000',
    level,
    rows: [{ table: 'gyms', op: 'update', key: [seed.gym.id], values: { name: 'From the future' } }],
  }
  const sent = await b.hub.publish(
    '900000-900000',
    new TextEncoder().encode(JSON.stringify({ changes: [newer] })),
    {
      'Belay-Site': 'bravo',
      'Belay-Level': String(level),
    },
  )
  const reason = `a change from site bravo needs schema level ${level}; this box is at ${level - 1}: upgrade it`
  expect(await settled(() => a.running.status().applyingStopped, reason)).toBe(reason)
  expect(rows(a, 'SELECT stopped_reason AS reason FROM sync_state')).toEqual([{ reason }])
  expect(rows(a, `SELECT name FROM gyms WHERE id = ${seed.gym.id}`)).toEqual(
    rows(b, `SELECT name FROM gyms WHERE id = ${seed.gym.id}`),
  )
  // The position stays before it, so the box upgraded applies it first.
  await a.running.stop()
  const position = rows(a, 'SELECT applied_stream_sequence AS n FROM sync_state')[0] as { n: number }
  expect(position.n).toBe(sent.streamSequence - 1)
  a.running = await startSite(a.t.deps, a.hub, { site: 'alpha', organization: `crag-${organizations}` })
})

test('a 1.5 MB scan in one row, larger than a hub message, reaches the other site byte for byte', async () => {
  const customer = await makeDoorCustomer(a.t.db, 'SCAN1')
  const content = new Uint8Array(1_500_000).map((_, i) => (i * 7) % 251)
  await syncTransaction(a.t.deps, () =>
    a.t.deps.sqlite
      .query(
        "INSERT INTO customer_photos (customer_id, content_type, content, taken_at) VALUES (?, 'image/jpeg', ?, ?)",
      )
      .run(customer.id, content, '2026-11-22T15:04:05.123Z'),
  )
  const photo = `SELECT length(content) AS bytes, hex(content) = '${Buffer.from(content).toString('hex').toUpperCase()}' AS same FROM customer_photos`
  expect(await settled(() => rows(b, photo), [{ bytes: 1_500_000, same: 1 }], 20_000)).toEqual([
    { bytes: 1_500_000, same: 1 },
  ])
}, 60_000)
