/**
 * Backups as an operator runs them, on the built executable: `belay backup` while the door takes
 * check-ins, serve's scheduled snapshots and their pruning, the snapshot before a migration,
 * `belay restore`, and /healthz once snapshots stop coming.
 *
 * What a snapshot promises: it is the database as of the moment its read transaction began, every
 * transaction in it whole. A check-in acknowledged before `belay backup` started is in it; one sent
 * after the backup said its snapshot had begun is not; any in between may be either, but whole (its
 * row, its customer's count, its webhook outbox row).
 */
import { Database } from 'bun:sqlite'
import { afterAll, afterEach, describe, expect, test } from 'bun:test'
import { existsSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { basename, join } from 'node:path'
import { migrations } from '../../migrations/index.ts'
import { openDatabase } from '../../src/db/connection.ts'
import { migrationStatus } from '../../src/db/migrator.ts'
import {
  getToken,
  removeTempDirs,
  request,
  runBelay,
  spawnBelay,
  startServer,
  stopAll,
  tempDbPath,
  tempDir,
} from './helpers.ts'

afterEach(stopAll)
afterAll(removeTempDirs)

const DEMO_ADMIN = 'admin@granitepeak.example'
const DEMO_PASSWORD = 'granite-peak-demo'
const CONTROLLERS = 4
/** Check-ins acknowledged before the backup starts, per door controller. */
const BEFORE_BACKUP = 10
/** Check-ins sent once the backup has said its snapshot began: none of them may be in it. */
const AFTER_SNAPSHOT = 12
const SNAPSHOT_BEGUN = 'snapshot begun'
const OFF = ['--backup-interval', 'off']

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

async function waitFor<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, ms = 15_000) {
  const deadline = Date.now() + ms
  for (;;) {
    const value = await probe()
    if (value !== undefined) return value
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`)
    await sleep(50)
  }
}

function readOnly<T>(path: string, read: (db: Database) => T): T {
  const db = new Database(path, { readonly: true })
  try {
    return read(db)
  } finally {
    db.close()
  }
}

const snapshotFiles = (folder: string) =>
  readdirSync(folder)
    .filter((n) => n.endsWith('.sqlite3'))
    .sort()

describe('belay backup while serving', () => {
  test('the copy passes its checks, holds every check-in acknowledged before it started and none sent after its snapshot began, each whole', async () => {
    const db = tempDbPath()
    expect((await runBelay(['seed-demo', '--size', 'small', '--seed', '7', '--db', db])).code).toBe(0)
    const receiver = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => new Response('ok') })
    try {
      const server = await startServer({ db, args: OFF })
      const token = await getToken(server.base, DEMO_ADMIN, DEMO_PASSWORD)
      const hook = await request(server.base, 'POST', '/api/webhooks/', {
        token,
        json: { event_type: 'check_in', webhook_url: `http://127.0.0.1:${receiver.port}/hook` },
      })
      expect(hook.status).toBe(201)
      let doors = 0
      const newDoor = async (): Promise<number> => {
        const gym = await request(server.base, 'POST', '/api/gyms/', {
          token,
          json: { name: `Door ${++doors}`, time_zone: 'America/Denver' },
        })
        return gym.body.id as number
      }
      const gymIds: number[] = []
      for (let i = 0; i < CONTROLLERS; i++) gymIds.push(await newDoor())
      const [barcodes, countsBefore, lastIdBefore] = readOnly(db, (file) => [
        (
          file.query('SELECT barcode FROM customers WHERE barcode IS NOT NULL ORDER BY id').all() as {
            barcode: string
          }[]
        ).map((r) => r.barcode),
        new Map(
          (
            file.query('SELECT id, check_in_count FROM customers').all() as {
              id: number
              check_in_count: number
            }[]
          ).map((r) => [r.id, r.check_in_count]),
        ),
        (file.query('SELECT coalesce(max(id), 0) AS id FROM check_ins').get() as { id: number }).id,
      ])

      // Each controller scans the customers in turn at its own door: each 200 is a new check-in. Once
      // it has scanned everyone (a slow backup outlasts the customers who may enter), it moves to a
      // new door, where each is new again.
      const next = gymIds.map(() => 0)
      const scan = async (controller: number): Promise<number> => {
        for (;;) {
          if (next[controller]! > barcodes.length) {
            gymIds[controller] = await newDoor()
            next[controller] = 0
          }
          const barcode = barcodes[(next[controller]!++ * CONTROLLERS + controller) % barcodes.length]!
          const res = await request(server.base, 'POST', `/api/gym-endpoints/barcode-check-in/${barcode}/`, {
            token,
            json: { location_id: gymIds[controller] },
          })
          if (res.status === 200) return res.body.id as number
        }
      }

      const beforeBackup: number[] = []
      await Promise.all(
        gymIds.map(async (_, c) => {
          for (let k = 0; k < BEFORE_BACKUP; k++) beforeBackup.push(await scan(c))
        }),
      )

      const out = join(tempDir(), 'copy.sqlite3')
      const backup = spawnBelay(['backup', '--db', db, '--to', out])
      const duringBackup: number[] = []
      const afterSnapshotBegan: number[] = []
      await Promise.all(
        gymIds.map(async (_, c) => {
          while (backup.running || afterSnapshotBegan.length < AFTER_SNAPSHOT) {
            const sentAfterSnapshot = backup.stderr.includes(SNAPSHOT_BEGUN)
            const id = await scan(c)
            ;(sentAfterSnapshot ? afterSnapshotBegan : duringBackup).push(id)
          }
        }),
      )
      expect(await backup.waitForExit()).toBe(0)
      expect(backup.stdout).toStartWith(`snapshot ${out} (`)
      expect(backup.stdout).toContain('verified: integrity check ok, every migration of this belay applied')
      expect(backup.stderr).toContain(SNAPSHOT_BEGUN)
      expect(afterSnapshotBegan.length).toBeGreaterThanOrEqual(AFTER_SNAPSHOT)

      const copy = readOnly(out, (file) => ({
        integrity: file.query('PRAGMA integrity_check').all(),
        checkIns: file.query('SELECT id, customer_id FROM check_ins WHERE id > ?').all(lastIdBefore) as {
          id: number
          customer_id: number
        }[],
        counts: new Map(
          (
            file.query('SELECT id, check_in_count FROM customers').all() as {
              id: number
              check_in_count: number
            }[]
          ).map((r) => [r.id, r.check_in_count]),
        ),
        outbox: (
          file.query("SELECT json_extract(body, '$.event.id') AS id FROM webhook_events").all() as {
            id: number
          }[]
        ).map((r) => r.id),
      }))
      expect(copy.integrity).toEqual([{ integrity_check: 'ok' }])
      const inCopy = new Set(copy.checkIns.map((c) => c.id))
      expect(beforeBackup.filter((id) => !inCopy.has(id))).toEqual([])
      expect(afterSnapshotBegan.filter((id) => inCopy.has(id))).toEqual([])
      // A point in time: the copy holds every acknowledged check-in up to its newest, none after.
      const newest = Math.max(...inCopy)
      const acknowledged = [...beforeBackup, ...duringBackup, ...afterSnapshotBegan]
      expect(acknowledged.filter((id) => id <= newest && !inCopy.has(id))).toEqual([])
      // Each check-in whole: one outbox row for each, and its customer's count moved with it.
      expect(copy.outbox.sort((a, b) => a - b)).toEqual([...inCopy].sort((a, b) => a - b))
      const newPerCustomer = new Map<number, number>()
      for (const c of copy.checkIns)
        newPerCustomer.set(c.customer_id, (newPerCustomer.get(c.customer_id) ?? 0) + 1)
      for (const [customerId, count] of copy.counts)
        expect({ customerId, added: count - countsBefore.get(customerId)! }).toEqual({
          customerId,
          added: newPerCustomer.get(customerId) ?? 0,
        })
      // The door kept answering throughout, and the server still has every check-in it acknowledged.
      const served = readOnly(db, (file) =>
        (file.query('SELECT id FROM check_ins WHERE id > ?').all(lastIdBefore) as { id: number }[]).map(
          (r) => r.id,
        ),
      )
      expect(acknowledged.filter((id) => !served.includes(id))).toEqual([])
    } finally {
      receiver.stop(true)
    }
  }, 60_000)

  test('into the backup folder by default, named as a manual snapshot, listed by GET /api/backups/', async () => {
    const db = tempDbPath()
    const server = await startServer({
      db,
      args: [...OFF, '--admin-email', 'owner@gym.example', '--admin-password', 'correct-horse'],
    })
    const { code, stdout } = await runBelay(['backup', '--db', db])
    expect(code).toBe(0)
    const folder = join(db, '..', 'backups')
    const [name] = snapshotFiles(folder)
    expect(name).toMatch(/^belay-\d{8}-\d{6}Z-manual\.sqlite3$/)
    expect(stdout).toStartWith(`snapshot ${join(folder, name!)} (`)
    const token = await getToken(server.base, 'owner@gym.example', 'correct-horse')
    const list = await request(server.base, 'GET', '/api/backups/', { token })
    expect(list.status).toBe(200)
    expect(list.body).toEqual({
      count: 1,
      next: null,
      previous: null,
      results: [
        {
          name,
          size_bytes: Bun.file(join(folder, name!)).size,
          created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.000Z$/),
          kind: 'manual',
          directory: folder,
        },
      ],
    })
  })

  test('of a database that does not exist is refused', async () => {
    const db = tempDbPath()
    const { code, stderr } = await runBelay(['backup', '--db', db])
    expect(code).toBe(1)
    expect(stderr).toBe(`belay: there is no database at ${db}: pass the gym's database with --db\n`)
    expect(existsSync(db)).toBe(false)
  })
})

describe("serve's scheduled snapshots", () => {
  test('come every interval, and only the newest --backup-keep are kept', async () => {
    const db = tempDbPath()
    const folder = join(tempDir(), 'snapshots')
    const server = await startServer({
      db,
      args: ['--backup-interval', '1s', '--backup-keep', '2', '--backup-dir', folder],
    })
    const taken = await waitFor('three scheduled snapshots', () => {
      const logs = server.process.logs().filter((l) => l.msg === 'snapshot taken')
      return logs.length >= 3 ? logs : undefined
    })
    expect(taken[2]!.pruned).toEqual([basename(String(taken[0]!.path))])
    const kept = snapshotFiles(folder)
    expect(kept.length).toBe(2)
    for (const name of kept) expect(name).toMatch(/^belay-\d{8}-\d{6}Z\.sqlite3$/)
    expect(kept).not.toContain(basename(String(taken[0]!.path)))
  })

  test('/healthz answers 503 naming snapshot once the backup folder is gone', async () => {
    const folder = join(tempDir(), 'usb-disk')
    const server = await startServer({ args: ['--backup-interval', '2s', '--backup-dir', folder] })
    await waitFor('the first snapshot', () =>
      server.process.logs().find((l) => l.msg === 'snapshot taken') ? true : undefined,
    )
    const healthy = await request(server.base, 'GET', '/healthz')
    expect(healthy.status).toBe(200)
    expect(healthy.body.checks).toMatchObject({ snapshot: 'ok', snapshot_max_age_seconds: 4 })
    // The disk is unplugged and something else takes its place.
    rmSync(folder, { recursive: true })
    writeFileSync(folder, 'not a folder')
    const res = await request(server.base, 'GET', '/healthz')
    expect(res.status).toBe(503)
    expect(res.body.failing).toEqual(['snapshot'])
    expect(res.body.checks).toMatchObject({
      snapshot: 'failing',
      snapshot_age_seconds: null,
      snapshot_max_age_seconds: 4,
    })
  })
})

describe('the snapshot before migrating', () => {
  test('is taken before pending migrations change a database, named after the first of them', async () => {
    const db = tempDbPath()
    const names = Object.keys(migrations)
    const latest = names.at(-1)!
    // A database as the previous release left it: every migration but the latest applied.
    const older = openDatabase(db)
    await migrationStatus(older.db)
    for (const name of names.slice(0, -1)) {
      await migrations[name]!.up(older.db)
      await older.db
        .insertInto('schema_migrations' as never)
        .values({ name, applied_at: '2026-01-01T00:00:00.000Z' } as never)
        .execute()
    }
    await older.close()

    const migrated = await runBelay(['migrate', '--db', db])
    expect(migrated.code).toBe(0)
    expect(migrated.stdout).toBe(`applied: ${latest}\n`)
    const folder = join(db, '..', 'backups')
    const [name, ...others] = snapshotFiles(folder)
    expect(others).toEqual([])
    expect(name).toMatch(new RegExp(`^belay-\\d{8}-\\d{6}Z-before-${latest}\\.sqlite3$`))
    const ledger = readOnly(join(folder, name!), (file) =>
      (file.query('SELECT name FROM schema_migrations ORDER BY name').all() as { name: string }[]).map(
        (r) => r.name,
      ),
    )
    expect(ledger).toEqual(names.slice(0, -1))

    // Nothing pending, nothing to keep: no second snapshot.
    expect((await runBelay(['migrate', '--db', db])).stdout).toBe('up to date\n')
    expect(snapshotFiles(folder)).toEqual([name!])
  })
})

describe('belay restore', () => {
  test('is refused while served; once stopped it puts the snapshot in place, keeps the replaced database, and serve serves the snapshot', async () => {
    const db = tempDbPath()
    const login = ['--admin-email', 'owner@gym.example', '--admin-password', 'correct-horse']
    let server = await startServer({ db, args: [...OFF, ...login] })
    let token = await getToken(server.base, 'owner@gym.example', 'correct-horse')
    const customer = (last_name: string) =>
      request(server.base, 'POST', '/api/customers/', {
        token,
        json: { first_name: 'Ada', last_name, birthday: '1990-01-01' },
      })
    const kept = (await customer('Before')).body.id as number
    const snapshot = join(tempDir(), 'before.sqlite3')
    expect((await runBelay(['backup', '--db', db, '--to', snapshot])).code).toBe(0)
    const lost = (await customer('After')).body.id as number

    const refused = await runBelay(['restore', snapshot, '--db', db])
    expect(refused.code).toBe(1)
    expect(refused.stderr).toBe(
      `belay: the database ${db} is already being served by another belay serve: stop that one first (or choose another --db)\n`,
    )
    expect((await request(server.base, 'GET', `/api/customers/${lost}/`, { token })).status).toBe(200)

    expect(await server.stop()).toBe(0)
    const restored = await runBelay(['restore', snapshot, '--db', db])
    expect(restored.code).toBe(0)
    const replaced = /kept as (\S+)\n/.exec(restored.stdout)?.[1]
    expect(restored.stdout).toBe(
      `restored ${snapshot} into ${db}\n  verified: integrity check ok, every migration of this belay applied\n  the database it replaced is kept as ${replaced}\n`,
    )
    expect(replaced).toMatch(new RegExp(`^${db.replace(/[.]/g, '\\.')}\\.replaced-\\d{8}-\\d{6}Z$`))
    expect(
      readOnly(replaced!, (file) => file.query('SELECT count(*) AS n FROM customers WHERE id = ?').get(lost)),
    ).toEqual({
      n: 1,
    })

    server = await startServer({ db, args: OFF })
    token = await getToken(server.base, 'owner@gym.example', 'correct-horse')
    expect((await request(server.base, 'GET', `/api/customers/${kept}/`, { token })).status).toBe(200)
    expect((await request(server.base, 'GET', `/api/customers/${lost}/`, { token })).status).toBe(404)
  })

  test('refuses a file that is not a database, and leaves the database untouched', async () => {
    const db = tempDbPath()
    expect((await runBelay(['migrate', '--db', db])).code).toBe(0)
    const junk = join(tempDir(), 'junk.sqlite3')
    writeFileSync(junk, 'x'.repeat(8192))
    const { code, stderr } = await runBelay(['restore', junk, '--db', db])
    expect(code).toBe(1)
    expect(stderr).toBe(
      `belay: not restoring: ${junk} is not a SQLite database, or a damaged one; the database was not touched\n`,
    )
    expect(readdirSync(join(db, '..')).sort()).toEqual(['belay.sqlite3', 'belay.sqlite3.lock'])
  })
})
