import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { Database } from 'bun:sqlite'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Kysely, sql, type Generated } from 'kysely'
import { openDatabase, type Connection } from '../../src/db/connection.ts'
import { durableWalOf, WalSync } from '../../src/db/wal-sync.ts'

/*
 * Kysely's writes on the serving connection (src/db/bun-sqlite-dialect.ts): on a database file with
 * synchronous=FULL a write transaction, or a lone INSERT/UPDATE/DELETE, commits under NORMAL and its
 * caller is answered only after an fdatasync of the WAL that began after the COMMIT, run off the
 * thread; meanwhile the connection is free for others. Here the fdatasyncs are finished by hand.
 */

interface TestDb {
  items: { id: Generated<number>; label: string }
}

let dir: string
let connection: Connection
let db: Kysely<TestDb>
/** A second connection to the same file: what it sees is what is committed. */
let observer: Database
/** The WAL fdatasyncs started and not yet finished. */
let pending: ((error: Error | null) => void)[]

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'belay-kysely-writes-'))
  const file = join(dir, 'test.sqlite3')
  connection = openDatabase(file)
  connection.sqlite.run('CREATE TABLE items (id INTEGER PRIMARY KEY, label TEXT NOT NULL UNIQUE)')
  db = connection.db as unknown as Kysely<TestDb>
  observer = new Database(file, { readonly: true })
  pending = []
  // The connection's one WalSync, with an fdatasync this test finishes itself.
  durableWalOf(connection.sqlite)!.walSync = new WalSync(`${file}-wal`, (_fd, done) => {
    pending.push(done)
  })
})

afterEach(async () => {
  for (const done of pending.splice(0)) done(null)
  observer.close()
  await connection.close()
  rmSync(dir, { recursive: true, force: true })
})

const tick = () => new Promise((resolve) => setTimeout(resolve, 5))
const committedLabels = () =>
  (observer.query('SELECT label FROM items ORDER BY id').all() as { label: string }[]).map((r) => r.label)
const level = () =>
  (connection.sqlite.query('PRAGMA synchronous').get() as { synchronous: number }).synchronous
const insert = (label: string) => db.insertInto('items').values({ label }).execute()

describe("Kysely's writes on a database file with synchronous=FULL", () => {
  test('a transaction is answered only after the WAL fdatasync that follows its COMMIT', async () => {
    let answered = false
    const run = db
      .transaction()
      .execute(async (trx) => {
        await trx.insertInto('items').values({ label: 'a' }).execute()
        await trx.insertInto('items').values({ label: 'b' }).execute()
      })
      .then(() => (answered = true))
    await tick()
    // Committed (another connection sees it), but not yet said to be.
    expect(committedLabels()).toEqual(['a', 'b'])
    expect(answered).toBe(false)
    expect(pending).toHaveLength(1)
    pending.shift()!(null)
    await run
    expect(answered).toBe(true)
  })

  test('a lone INSERT is answered only after the fdatasync; a SELECT waits for none', async () => {
    let answered = false
    const run = insert('a').then(() => (answered = true))
    await tick()
    expect(committedLabels()).toEqual(['a'])
    expect(answered).toBe(false)
    expect(await db.selectFrom('items').select('label').execute()).toEqual([{ label: 'a' }])
    expect(pending).toHaveLength(1)
    pending.shift()!(null)
    await run
    expect(answered).toBe(true)
    expect(pending).toHaveLength(0)
  })

  test('while one waits for its fdatasync, the connection serves the next, answered after it', async () => {
    const order: string[] = []
    const first = insert('a').then(() => order.push('a'))
    await tick()
    const second = insert('b').then(() => order.push('b'))
    await tick()
    expect(committedLabels()).toEqual(['a', 'b'])
    pending.shift()!(null)
    await tick()
    expect(order).toEqual(['a'])
    pending.shift()!(null)
    await Promise.all([first, second])
    expect(order).toEqual(['a', 'b'])
  })

  test('when the fdatasync fails, the caller is not told it succeeded', async () => {
    const run = insert('a')
    await tick()
    pending.shift()!(new Error('EIO: i/o error, fdatasync'))
    await expect(run).rejects.toThrow('EIO')
  })

  test('the commit is under NORMAL and the connection is back at FULL after it', async () => {
    const inside: number[] = []
    const run = db.transaction().execute(async (trx) => {
      inside.push(level())
      await trx.insertInto('items').values({ label: 'a' }).execute()
    })
    await tick()
    expect(inside).toEqual([1])
    expect(level()).toBe(2)
    pending.shift()!(null)
    await run
    expect(level()).toBe(2)
  })

  test('a transaction that throws is rolled back, back at FULL, and waits for no fdatasync', async () => {
    const run = db.transaction().execute(async (trx) => {
      await trx.insertInto('items').values({ label: 'a' }).execute()
      throw new Error('changed my mind')
    })
    await expect(run).rejects.toThrow('changed my mind')
    expect(committedLabels()).toEqual([])
    expect(level()).toBe(2)
    expect(pending).toHaveLength(0)
  })

  test('a lone INSERT that fails leaves the connection at FULL, with nothing more written', async () => {
    const first = insert('a')
    await tick()
    pending.shift()!(null)
    await first
    await expect(insert('a')).rejects.toThrow('UNIQUE')
    expect(pending).toHaveLength(0)
    expect(committedLabels()).toEqual(['a'])
    expect(level()).toBe(2)
  })

  test("DDL and PRAGMAs run at the connection's own level, as before", async () => {
    await sql`CREATE TABLE other (id INTEGER PRIMARY KEY)`.execute(db)
    expect(pending).toHaveLength(0)
    expect(level()).toBe(2)
  })
})

test('on :memory: nothing is synced and nothing waits', async () => {
  const memory = openDatabase(':memory:')
  try {
    expect(durableWalOf(memory.sqlite)).toBeUndefined()
    memory.sqlite.run('CREATE TABLE items (id INTEGER PRIMARY KEY, label TEXT NOT NULL UNIQUE)')
    const mdb = memory.db as unknown as Kysely<TestDb>
    await mdb.transaction().execute((trx) => trx.insertInto('items').values({ label: 'a' }).execute())
    await mdb.insertInto('items').values({ label: 'b' }).execute()
    expect(await mdb.selectFrom('items').select('label').orderBy('id').execute()).toEqual([
      { label: 'a' },
      { label: 'b' },
    ])
  } finally {
    await memory.close()
  }
})
