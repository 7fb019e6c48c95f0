import { afterAll, beforeEach, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { emptyPage, forbidden, invalidPage } from '../../helpers/bodies.ts'
import { START } from '../../helpers/app.ts'
import { expectUnauthenticated, useSeededApp, useStaff } from '../../helpers/seeded.ts'

/** /api/backups/: the snapshots in serve's backup folder, organization admins only. */

const folder = mkdtempSync(join(tmpdir(), 'belay-api-backups-'))
afterAll(() => rmSync(folder, { recursive: true, force: true }))

const t = useSeededApp({ snapshots: { folder, intervalSeconds: 86_400, since: new Date(START) } })
const staff = useStaff(t, 'allButAdmin')

const files: Array<[name: string, bytes: number]> = [
  ['belay-20261120-020000Z.sqlite3', 4096],
  ['belay-20261121-020000Z.sqlite3', 8192],
  ['belay-20261121-093015Z-manual.sqlite3', 8192],
  ['belay-20261122-020000Z-before-0005_door_zones.sqlite3', 12288],
  ['belay-20261122-020000Z.sqlite3', 12288],
  // Not snapshots: a copy still being written, and whatever else someone put in the folder.
  ['.belay-20261122-030000Z.sqlite3.4242.partial', 100],
  ['notes.txt', 5],
]

beforeEach(() => {
  for (const [name, bytes] of files) writeFileSync(join(folder, name), Buffer.alloc(bytes))
})

const snapshot = (name: string, size_bytes: number, created_at: string, kind: string) => ({
  name,
  size_bytes,
  created_at,
  kind,
  directory: folder,
})

const newestFirst = [
  snapshot('belay-20261122-020000Z.sqlite3', 12288, '2026-11-22T02:00:00.000Z', 'scheduled'),
  snapshot(
    'belay-20261122-020000Z-before-0005_door_zones.sqlite3',
    12288,
    '2026-11-22T02:00:00.000Z',
    'pre-migration',
  ),
  snapshot('belay-20261121-093015Z-manual.sqlite3', 8192, '2026-11-21T09:30:15.000Z', 'manual'),
  snapshot('belay-20261121-020000Z.sqlite3', 8192, '2026-11-21T02:00:00.000Z', 'scheduled'),
  snapshot('belay-20261120-020000Z.sqlite3', 4096, '2026-11-20T02:00:00.000Z', 'scheduled'),
]

describe('GET /api/backups/', () => {
  test('without a token is 401', async () => {
    expectUnauthenticated(await t.request('GET', '/api/backups/'))
  })

  test('is 403 for staff without the admin flag, whatever else they may do', async () => {
    const res = await t.request('GET', '/api/backups/', { token: staff.allButAdmin.token })
    expect(res.status).toBe(403)
    expect(res.body).toEqual(forbidden)
  })

  test('a page past the end is 404', async () => {
    const res = await t.request('GET', '/api/backups/?page=2', { token: t.seed.adminToken })
    expect(res.status).toBe(404)
    expect(res.body).toEqual(invalidPage)
  })

  test('lists every snapshot, newest first, with its size, time and kind; nothing else in the folder', async () => {
    const res = await t.request('GET', '/api/backups/', { token: t.seed.adminToken })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ count: 5, next: null, previous: null, results: newestFirst })
  })

  test('is paginated as every list is', async () => {
    const res = await t.request('GET', '/api/backups/?page=2&page_size=2', { token: t.seed.adminToken })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({
      count: 5,
      next: 'http://localhost/api/backups/?page=3&page_size=2',
      previous: 'http://localhost/api/backups/?page_size=2',
      results: newestFirst.slice(2, 4),
    })
  })
})

describe('GET /api/backups/ before any snapshot', () => {
  const empty = useSeededApp({
    snapshots: { folder: join(folder, 'not-made-yet'), intervalSeconds: 86_400, since: new Date(START) },
  })
  test('is an empty list while the folder does not exist', async () => {
    const res = await empty.request('GET', '/api/backups/', { token: empty.seed.adminToken })
    expect(res.status).toBe(200)
    expect(res.body).toEqual(emptyPage)
  })
})
