/**
 * A full disk, for real: the built executable serves a database on a tmpfs of its own, the tmpfs is
 * filled to the last byte, and then freed again, without a restart.
 *
 * While it is full, every write that needs a new page is refused: the desk's writes and logins are
 * 503 with the DRF body, the door's scans are not acknowledged (open-door says so in its own text
 * and never 200), nothing of a refused check-in is in the database, reads still answer and /healthz
 * says failing. Once space is freed, the same writes succeed, and after a restart every write
 * acknowledged before, during and after is there.
 *
 * Mounting needs root (CI runs as root); elsewhere the test is skipped and says why.
 */
import { Database } from 'bun:sqlite'
import { afterAll, afterEach, expect, test } from 'bun:test'
import { join } from 'node:path'
import { mountTmpfs } from '../helpers/tmpfs.ts'
import { getToken, request, runBelay, startServer, stopAll, type Server } from './helpers.ts'

const DEMO_ADMIN = 'admin@granitepeak.example'
const DEMO_PASSWORD = 'granite-peak-demo'
/**
 * Room for the demo database and the 100 MiB /healthz wants free, before the filler takes the rest
 * (memory, for the seconds the test runs).
 */
const TMPFS_SIZE = '160m'

const fullDetail =
  'The database cannot be written: the disk is full. Nothing was saved; try again once space has been freed.'
const notRecorded = 'The check-in could not be recorded. Please see the front desk.'

const tmpfs = mountTmpfs(TMPFS_SIZE, 'belay-disk-full')

afterEach(stopAll)
afterAll(() => tmpfs.unmount())

const db = join(tmpfs.dir, 'belay.sqlite3')

/** Takes every free byte of the tmpfs, once the WAL is empty so that the next commit must grow it. */
function fillDisk(): void {
  const file = new Database(db)
  file.run('PRAGMA busy_timeout = 5000')
  // The server's writes would otherwise reuse the WAL's frames already on the tmpfs.
  const [row] = file.query('PRAGMA wal_checkpoint(TRUNCATE)').all() as { busy: number }[]
  file.close()
  expect(row!.busy).toBe(0)
  tmpfs.fill()
}

/** The check-ins of a customer at a gym, through the API. */
async function checkInsOf(server: Server, token: string, customerId: number, gymId: number) {
  const res = await request(server.base, 'GET', `/api/check-ins/?customer_id=${customerId}&page_size=100`, {
    token,
  })
  expect(res.status).toBe(200)
  return (res.body.results as { id: number; location_id: number }[]).filter((c) => c.location_id === gymId)
}

test.skipIf(!tmpfs.mounted)(
  'on a full disk writes are 503 and the door stays shut with nothing recorded; freeing space resumes without a restart and nothing acknowledged is lost',
  async () => {
    expect((await runBelay(['seed-demo', '--size', 'small', '--seed', '5', '--db', db])).code).toBe(0)
    let server = await startServer({ db })
    const token = await getToken(server.base, DEMO_ADMIN, DEMO_PASSWORD)
    const post = (path: string, json: unknown = {}) => request(server.base, 'POST', path, { token, json })

    // Two new gyms: customers admitted at the first are admitted at the second too, where each
    // customer's first scan is a new check-in.
    const [probeGym, doorGym] = (await Promise.all(
      ['Probe', 'Door'].map(async (name) => {
        const res = await post('/api/gyms/', { name, time_zone: 'America/Denver' })
        expect(res.status).toBe(201)
        return res.body.id as number
      }),
    )) as [number, number]
    const file = new Database(db, { readonly: true })
    const customers = file
      .query('SELECT id, barcode FROM customers WHERE barcode IS NOT NULL ORDER BY id')
      .all() as { id: number; barcode: string }[]
    file.close()
    const admitted: { id: number; barcode: string }[] = []
    for (const customer of customers) {
      if (admitted.length === 3) break
      const res = await post(`/api/gym-endpoints/barcode-check-in/${customer.barcode}/`, {
        location_id: probeGym,
      })
      if (res.status === 200) admitted.push(customer)
    }
    const [before, openDoorWhileFull, barcodeWhileFull] = admitted as [
      (typeof admitted)[0],
      (typeof admitted)[0],
      (typeof admitted)[0],
    ]

    // Acknowledged before the disk fills.
    const scanBefore = await post(`/api/gym-endpoints/open-door-check-in/${before.barcode}/`, {
      location_id: doorGym,
    })
    expect(scanBefore.status).toBe(200)
    const walkInBefore = await post('/api/customers/', {
      first_name: 'Before',
      last_name: 'Full',
      birthday: '1990-01-01',
    })
    expect(walkInBefore.status).toBe(201)

    fillDisk()

    const walkIn = await post('/api/customers/', {
      first_name: 'While',
      last_name: 'Full',
      birthday: '1990-01-01',
    })
    console.log(
      server.process.stderr
        .split('\n')
        .filter((l) => l.includes('error'))
        .join('\n'),
    )
    expect([walkIn.status, walkIn.body, walkIn.headers.get('retry-after')]).toEqual([
      503,
      { detail: fullDetail },
      '60',
    ])
    const login = await request(server.base, 'POST', '/api/get-token/', {
      json: { username: DEMO_ADMIN, password: DEMO_PASSWORD },
    })
    expect([login.status, login.body]).toEqual([503, { detail: fullDetail }])
    // The door is told not to open, in its own words; barcode check-in gets the DRF body.
    const openDoor = await post(`/api/gym-endpoints/open-door-check-in/${openDoorWhileFull.barcode}/`, {
      location_id: doorGym,
    })
    expect([openDoor.status, openDoor.text, openDoor.headers.get('content-type')]).toEqual([
      503,
      notRecorded,
      'text/plain; charset=utf-8',
    ])
    const barcode = await post(`/api/gym-endpoints/barcode-check-in/${barcodeWhileFull.barcode}/`, {
      location_id: doorGym,
    })
    expect([barcode.status, barcode.body]).toEqual([503, { detail: fullDetail }])
    // Reads still answer, and nothing of the refused check-ins is there.
    expect(await checkInsOf(server, token, openDoorWhileFull.id, doorGym)).toEqual([])
    expect(await checkInsOf(server, token, barcodeWhileFull.id, doorGym)).toEqual([])
    const walkIns = await request(server.base, 'GET', '/api/customers/?search=Full', { token })
    expect(walkIns.status).toBe(200)
    expect(walkIns.body.results.map((c: { id: number }) => c.id)).toEqual([walkInBefore.body.id])
    const unhealthy = await request(server.base, 'GET', '/healthz')
    expect(unhealthy.status).toBe(503)
    expect(unhealthy.body.failing).toContain('disk')

    tmpfs.free()

    // The same server takes the same writes again.
    const walkInAfter = await post('/api/customers/', {
      first_name: 'After',
      last_name: 'Full',
      birthday: '1990-01-01',
    })
    expect(walkInAfter.status).toBe(201)
    const openDoorAfter = await post(`/api/gym-endpoints/open-door-check-in/${openDoorWhileFull.barcode}/`, {
      location_id: doorGym,
    })
    expect(openDoorAfter.status).toBe(200)
    const barcodeAfter = await post(`/api/gym-endpoints/barcode-check-in/${barcodeWhileFull.barcode}/`, {
      location_id: doorGym,
    })
    expect(barcodeAfter.status).toBe(200)
    expect((await request(server.base, 'GET', '/healthz')).status).toBe(200)

    // Everything acknowledged is there after a restart, once each.
    expect(await server.stop()).toBe(0)
    server = await startServer({ db })
    for (const customer of [before, openDoorWhileFull, barcodeWhileFull]) {
      expect((await checkInsOf(server, token, customer.id, doorGym)).length).toBe(1)
    }
    const kept = await request(server.base, 'GET', '/api/customers/?search=Full', { token })
    expect(kept.body.results.map((c: { id: number }) => c.id).sort()).toEqual(
      [walkInBefore.body.id, walkInAfter.body.id].sort(),
    )
  },
  60_000,
)
