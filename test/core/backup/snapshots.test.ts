import { Database } from 'bun:sqlite'
import { afterAll, afterEach, describe, expect, test } from 'bun:test'
import { existsSync, mkdtempSync, readdirSync, rmSync, statfsSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { restoreSnapshot } from '../../../src/core/backup/restore.ts'
import {
  listSnapshots,
  parseSnapshotName,
  pruneSnapshots,
  snapshotName,
  SnapshotRefused,
  takeSnapshot,
} from '../../../src/core/backup/snapshots.ts'
import { openDatabase, type Connection } from '../../../src/db/connection.ts'
import { migrateToLatest } from '../../../src/db/migrator.ts'
import { migrations } from '../../../migrations/index.ts'
import { mountTmpfs } from '../../helpers/tmpfs.ts'

const dirs: string[] = []
const connections: Connection[] = []
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'belay-snapshots-'))
  dirs.push(dir)
  return dir
}
afterEach(async () => {
  for (const c of connections.splice(0)) await c.close()
})
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})

/** A migrated database file with one gym in it, left open as a server would hold it. */
async function liveDatabase(gymName = 'Granite Peak'): Promise<{ path: string; connection: Connection }> {
  const path = join(tempDir(), 'belay.sqlite3')
  const connection = openDatabase(path)
  connections.push(connection)
  await migrateToLatest(connection.db)
  await addGym(connection, gymName)
  return { path, connection }
}

async function addGym(connection: Connection, name: string) {
  const at = '2026-11-22T15:04:05.123Z'
  await connection.db
    .insertInto('gyms')
    .values({ name, time_zone: 'UTC', created_at: at, updated_at: at } as never)
    .execute()
}

const gymNames = (path: string): string[] => {
  const db = new Database(path, { readonly: true })
  try {
    return (db.query('SELECT name FROM gyms ORDER BY id').all() as { name: string }[]).map((r) => r.name)
  } finally {
    db.close()
  }
}

const AT = new Date('2026-11-24T06:58:40.512Z')

describe('snapshot names', () => {
  const cases: Array<[kind: 'scheduled' | 'manual' | 'pre-migration', string]> = [
    ['scheduled', 'belay-20261124-065840Z.sqlite3'],
    ['manual', 'belay-20261124-065840Z-manual.sqlite3'],
    ['pre-migration', 'belay-20261124-065840Z-before-0005_door_zones.sqlite3'],
  ]
  for (const [kind, name] of cases) {
    test(`a ${kind} snapshot is ${name}, and reads back as one`, () => {
      expect(snapshotName(kind, AT, '0005_door_zones')).toBe(name)
      expect(parseSnapshotName(name)).toEqual({ createdAt: new Date('2026-11-24T06:58:40Z'), kind })
    })
  }
  test('other files are not snapshots', () => {
    for (const name of [
      'belay.sqlite3',
      'belay-20261124-065840Z.sqlite3-wal',
      '.belay-20261124-065840Z.sqlite3.1.partial',
    ])
      expect(parseSnapshotName(name)).toBeNull()
  })
})

describe('takeSnapshot', () => {
  test('copies the live database, with what its connection committed, and checks the copy', async () => {
    const { path, connection } = await liveDatabase()
    await addGym(connection, 'Second Wall')
    const folder = join(tempDir(), 'backups')
    const progress: number[] = []
    const taken = await takeSnapshot({
      dbPath: path,
      target: { folder },
      kind: 'manual',
      at: AT,
      onProgress: (p) => progress.push(p.copiedBytes),
    })
    expect(taken.path).toBe(join(folder, 'belay-20261124-065840Z-manual.sqlite3'))
    expect(taken.check).toEqual({ damage: [], unknownMigrations: [], pendingMigrations: [] })
    expect(gymNames(taken.path)).toEqual(['Granite Peak', 'Second Wall'])
    // Only the snapshot is left in the folder: no temporary copy beside it.
    expect(readdirSync(folder)).toEqual(['belay-20261124-065840Z-manual.sqlite3'])
    expect(progress.at(-1)).toBe(taken.sizeBytes)
  })

  test('refuses a name already taken, and leaves that file as it was', async () => {
    const { path } = await liveDatabase()
    const file = join(tempDir(), 'mine.sqlite3')
    writeFileSync(file, 'keep me')
    const taking = takeSnapshot({ dbPath: path, target: { file }, kind: 'manual', at: AT })
    await expect(taking).rejects.toThrow(new SnapshotRefused(`${file} already exists: choose another name`))
    expect(await Bun.file(file).text()).toBe('keep me')
  })

  test('a file that is not a database leaves no copy behind', async () => {
    const dir = tempDir()
    const notADatabase = join(dir, 'belay.sqlite3')
    writeFileSync(notADatabase, 'x'.repeat(4096))
    const folder = join(dir, 'backups')
    const taking = takeSnapshot({ dbPath: notADatabase, target: { folder }, kind: 'manual', at: AT })
    await expect(taking).rejects.toMatchObject({ code: 'SQLITE_NOTADB' })
    expect(readdirSync(folder)).toEqual([])
  })
})

describe('takeSnapshot on a small disk', () => {
  const disk = mountTmpfs('512k', 'belay-snapshot-room')
  afterAll(() => disk.unmount())
  test.skipIf(!disk.mounted)(
    'refuses a copy that would leave less room than its own size, and writes nothing',
    async () => {
      const { path, connection } = await liveDatabase()
      // Closed, the database is all in its file: the copy would be as large.
      await connection.close()
      connections.splice(0)
      const size = statSync(path).size
      const taking = takeSnapshot({ dbPath: path, target: { folder: disk.dir }, kind: 'manual', at: AT })
      const free = statfsSync(disk.dir).bavail * statfsSync(disk.dir).bsize
      const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`
      await expect(taking).rejects.toThrow(
        new SnapshotRefused(
          `not enough room in ${disk.dir} for a snapshot of ${path} (${mb(size)}): ${mb(free)} free, ${mb(2 * size)} needed to leave as much again; free some space or choose another folder`,
        ),
      )
      expect(readdirSync(disk.dir)).toEqual([])
    },
  )
})

describe('pruneSnapshots', () => {
  test('keeps the newest scheduled ones, and never a manual or pre-migration one', () => {
    const folder = tempDir()
    const names = [
      'belay-20261120-020000Z.sqlite3',
      'belay-20261120-030000Z-manual.sqlite3',
      'belay-20261121-020000Z.sqlite3',
      'belay-20261121-030000Z-before-0005_door_zones.sqlite3',
      'belay-20261122-020000Z.sqlite3',
      'belay-20261123-020000Z.sqlite3',
    ]
    for (const name of names) writeFileSync(join(folder, name), '')
    expect(pruneSnapshots(folder, 2)).toEqual([
      'belay-20261121-020000Z.sqlite3',
      'belay-20261120-020000Z.sqlite3',
    ])
    expect(listSnapshots(folder).map((s) => s.name)).toEqual([
      'belay-20261123-020000Z.sqlite3',
      'belay-20261122-020000Z.sqlite3',
      'belay-20261121-030000Z-before-0005_door_zones.sqlite3',
      'belay-20261120-030000Z-manual.sqlite3',
    ])
  })
})

describe('restoreSnapshot', () => {
  test('puts the snapshot in place and keeps the replaced database, with everything it had, aside', async () => {
    const { path, connection } = await liveDatabase()
    const taken = await takeSnapshot({ dbPath: path, target: { folder: tempDir() }, kind: 'manual', at: AT })
    await addGym(connection, 'Written after the snapshot')
    await connection.close()
    connections.splice(0)

    const restored = restoreSnapshot(taken.path, path, new Date('2026-11-24T07:10:00Z'))
    expect(restored.replacedPath).toBe(`${path}.replaced-20261124-071000Z`)
    expect(gymNames(path)).toEqual(['Granite Peak'])
    expect(gymNames(restored.replacedPath!)).toEqual(['Granite Peak', 'Written after the snapshot'])
    expect(existsSync(`${path}-wal`)).toBe(false)
  })

  test('refuses a copy migrated by a newer belay, and leaves the database untouched', async () => {
    const { path, connection } = await liveDatabase()
    const taken = await takeSnapshot({ dbPath: path, target: { folder: tempDir() }, kind: 'manual', at: AT })
    const copy = new Database(taken.path)
    copy.run("INSERT INTO schema_migrations (name, applied_at) VALUES ('9999_from_the_future', '2027-01-01')")
    copy.close()
    await connection.close()
    connections.splice(0)

    expect(() => restoreSnapshot(taken.path, path, AT)).toThrow(
      new SnapshotRefused(
        `not restoring: ${taken.path} was migrated by a newer belay (it has 9999_from_the_future): use that version or a later one; the database was not touched`,
      ),
    )
    expect(readdirSync(join(path, '..'))).toEqual(['belay.sqlite3'])
  })

  test('refuses the database itself, and leaves it where it is', async () => {
    const { path, connection } = await liveDatabase()
    await connection.close()
    connections.splice(0)
    expect(() => restoreSnapshot(path, path, AT)).toThrow(
      new SnapshotRefused(`${path} is the database itself: name a snapshot`),
    )
    expect(gymNames(path)).toEqual(['Granite Peak'])
  })

  test('refuses a damaged copy', async () => {
    const { path } = await liveDatabase()
    const taken = await takeSnapshot({ dbPath: path, target: { folder: tempDir() }, kind: 'manual', at: AT })
    // Zero out three index pages the schema still points at: chosen by the schema, not by their
    // place in the file, which moves whenever a migration adds tables.
    const copy = new Database(taken.path, { readonly: true })
    const roots = copy
      .query("SELECT rootpage FROM sqlite_master WHERE type = 'index' ORDER BY rootpage DESC LIMIT 3")
      .all() as { rootpage: number }[]
    copy.close()
    const bytes = new Uint8Array(await Bun.file(taken.path).arrayBuffer())
    for (const { rootpage } of roots) bytes.fill(0, (rootpage - 1) * 4096, rootpage * 4096)
    writeFileSync(taken.path, bytes)
    expect(() => restoreSnapshot(taken.path, path, AT)).toThrow(
      /^not restoring: \S+ fails SQLite's integrity check \(Tree \d+ page \d+: [^;\n]+(; Tree \d+ page \d+: [^;\n]+){2}\); the database was not touched$/,
    )
    expect(gymNames(path)).toEqual(['Granite Peak'])
  })

  test('says which migrations a copy from an older belay lacks, and restores it (serve migrates it)', async () => {
    const dir = tempDir()
    const older = join(dir, 'older.sqlite3')
    const db = openDatabase(older)
    const names = Object.keys(migrations)
    for (const name of names.slice(0, -1)) {
      await db.db.transaction().execute(async (trx) => {
        await migrations[name]!.up(trx)
      })
    }
    await db.db.schema
      .createTable('schema_migrations')
      .addColumn('name', 'text', (c) => c.primaryKey())
      .addColumn('applied_at', 'text')
      .execute()
    for (const name of names.slice(0, -1))
      await db.db
        .insertInto('schema_migrations' as never)
        .values({ name, applied_at: '2026-01-01' } as never)
        .execute()
    await db.close()
    const restored = restoreSnapshot(older, join(dir, 'belay.sqlite3'), AT)
    expect(restored).toEqual({
      replacedPath: null,
      check: { damage: [], unknownMigrations: [], pendingMigrations: [names.at(-1)!] },
    })
  })
})
