import { SQLiteError } from 'bun:sqlite'
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from 'kysely'
import { openDatabase, type Connection } from '../../src/db/connection.ts'
import { KEPT_OUTPUT_IDLE_MS, openReader, readJsonArray, type Reader } from '../../src/db/reader.ts'

/*
 * The reader dialect (src/db/reader.ts): the same Kysely queries, run on a worker's read-only
 * connection to the same file, give the same rows and the same errors as on the main connection.
 */

let dir: string
let main: Connection
let reader: Reader

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'belay-reader-'))
  const path = join(dir, 'reader.sqlite3')
  main = openDatabase(path)
  main.sqlite.run(`CREATE TABLE things (
    id INTEGER PRIMARY KEY, name TEXT NOT NULL, size REAL, note TEXT, data BLOB, flag INTEGER NOT NULL
  )`)
  const insert = main.sqlite.prepare(
    'INSERT INTO things (name, size, note, data, flag) VALUES (?, ?, ?, ?, ?)',
  )
  for (let i = 1; i <= 300; i++)
    insert.run(`thing ${i}`, i / 4, i % 3 === 0 ? null : `note ${i}`, new Uint8Array([i % 256, 7]), i % 2)
  reader = await openReader(path, main.db)
})

afterAll(async () => {
  await reader.close()
  await main.close()
  rmSync(dir, { recursive: true, force: true })
})

/** Runs the same query on both connections. */
async function both<T>(query: (db: Reader['db']) => Promise<T>): Promise<[T, T]> {
  return [await query(main.db), await query(reader.db)]
}

/** The error a query throws (or fails the test). */
async function thrown(run: () => Promise<unknown>): Promise<any> {
  try {
    await run()
  } catch (error) {
    return error
  }
  throw new Error('expected the query to throw')
}

/** Each thread of this process: its name and nice value, by thread id (Linux: from /proc). */
function threads(): Map<string, { name: string; nice: number }> {
  const found = new Map<string, { name: string; nice: number }>()
  for (const tid of readdirSync('/proc/self/task')) {
    const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8')
    const name = readFileSync(`/proc/self/task/${tid}/comm`, 'utf8').trim()
    found.set(tid, { name, nice: Number(stat.slice(stat.lastIndexOf(') ') + 2).split(' ')[16]) })
  }
  return found
}

describe('the reader', () => {
  test('is a separate Kysely on a file, and the main one itself on :memory:', async () => {
    expect(reader.db).not.toBe(main.db)
    const memory = openDatabase(':memory:')
    const same = await openReader(':memory:', memory.db)
    expect(same.db).toBe(memory.db)
    await same.close()
    await memory.close()
  })

  test.if(process.platform === 'linux')(
    "runs its queries on a thread of lower priority than the server's own, which keeps its own",
    async () => {
      const before = threads()
      const second = await openReader(join(dir, 'reader.sqlite3'), main.db)
      try {
        const after = threads()
        const workers = [...after].filter(([tid, { name }]) => !before.has(tid) && name === 'Worker')
        expect(workers.map(([, { nice }]) => nice)).toEqual([10])
        expect(after.get(String(process.pid))!.nice).toBe(before.get(String(process.pid))!.nice)
      } finally {
        await second.close()
      }
    },
  )

  test('returns the same rows as the main connection: numbers, text, null, blobs, in order', async () => {
    const [expected, actual] = await both((db) =>
      db
        .selectFrom('things' as any)
        .selectAll()
        .orderBy('id')
        .execute(),
    )
    expect(actual).toHaveLength(300)
    expect(actual).toEqual(expected)
    expect(actual[2]).toEqual({
      id: 3,
      name: 'thing 3',
      size: 0.75,
      note: null,
      data: new Uint8Array([3, 7]),
      flag: 1,
    })
  })

  test('binds parameters: text, numbers, lists, null checks', async () => {
    const [expected, actual] = await both((db) =>
      db
        .selectFrom('things' as any)
        .select(['id', 'name'])
        .where('name', 'like', 'thing 1%')
        .where('size', '>', 2.5)
        .where('flag', 'in', [0, 1])
        .where('note', 'is not', null)
        .orderBy('id', 'desc')
        .limit(5)
        .execute(),
    )
    expect(actual).toEqual(expected)
    expect(actual.map((row: any) => row.id)).toEqual([199, 197, 196, 194, 193])
  })

  test('sees every committed write at once, and none still uncommitted', async () => {
    const count = async () =>
      Number((await sql<{ n: number }>`SELECT COUNT(*) AS n FROM things`.execute(reader.db)).rows[0]!.n)
    const before = await count()
    main.sqlite.run("INSERT INTO things (name, flag) VALUES ('committed', 0)")
    expect(await count()).toBe(before + 1)
    main.sqlite.run('BEGIN')
    main.sqlite.run("INSERT INTO things (name, flag) VALUES ('uncommitted', 0)")
    expect(await count()).toBe(before + 1)
    main.sqlite.run('ROLLBACK')
  })

  test('an SQL error is the same SQLiteError, with its code, errno and message', async () => {
    const query = (db: Reader['db']) => sql`SELECT * FROM no_such_table`.execute(db)
    const expected = await thrown(() => query(main.db))
    const actual = await thrown(() => query(reader.db))
    expect(actual).toBeInstanceOf(SQLiteError)
    expect(actual.name).toBe('SQLiteError')
    expect(actual.message).toBe(expected.message)
    expect(actual.code).toBe(expected.code)
    expect(actual.errno).toBe(expected.errno)
    expect(actual.code).toBe('SQLITE_ERROR')
  })

  test('a binding error is the same Error', async () => {
    const query = (db: Reader['db']) => db.executeQuery({ sql: 'SELECT ? AS a', parameters: [1, 2] } as any)
    const expected = await thrown(() => query(main.db))
    const actual = await thrown(() => query(reader.db))
    expect(actual).toBeInstanceOf(Error)
    expect(actual).not.toBeInstanceOf(SQLiteError)
    expect(actual.message).toBe(expected.message)
  })

  test('is read-only: a write fails with SQLITE_READONLY and changes nothing', async () => {
    const error = await thrown(() =>
      reader.db
        .insertInto('things' as any)
        .values({ name: 'nope', flag: 0 })
        .execute(),
    )
    expect(error).toBeInstanceOf(SQLiteError)
    expect(error.code).toBe('SQLITE_READONLY')
    const found = main.sqlite.query("SELECT COUNT(*) AS n FROM things WHERE name = 'nope'").get() as any
    expect(found.n).toBe(0)
  })

  test('concurrent queries each get their own rows', async () => {
    const ids = Array.from({ length: 60 }, (_, i) => i + 1)
    const rows = await Promise.all(
      ids.map((id) =>
        reader.db
          .selectFrom('things' as any)
          .select(['id', 'name'])
          .where('id', '=', id)
          .executeTakeFirstOrThrow(),
      ),
    )
    expect(rows).toEqual(ids.map((id) => ({ id, name: `thing ${id}` })))
  })

  test('a transaction reads one snapshot while other queries wait their turn', async () => {
    const count = (db: Reader['db']) =>
      sql<{ n: number }>`SELECT COUNT(*) AS n FROM things`.execute(db).then((r) => Number(r.rows[0]!.n))
    const before = await count(reader.db)
    const inside: number[] = []
    let outside: Promise<number> | undefined
    await reader.db.transaction().execute(async (trx) => {
      inside.push(await count(trx))
      main.sqlite.run("INSERT INTO things (name, flag) VALUES ('during', 0)")
      // Queued behind the transaction (one connection): it runs after the commit, so sees the row.
      outside = count(reader.db)
      inside.push(await count(trx))
    })
    expect(inside).toEqual([before, before])
    expect(await outside!).toBe(before + 1)
  })

  test('an error in one of many concurrent queries fails that one only', async () => {
    const results = await Promise.allSettled([
      sql`SELECT 1 AS one`.execute(reader.db),
      sql`SELECT * FROM missing`.execute(reader.db),
      sql`SELECT 2 AS two`.execute(reader.db),
    ])
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled'])
    expect((results[2] as PromiseFulfilledResult<any>).value.rows).toEqual([{ two: 2 }])
  })

  /** Rows of about 5 KB with text of 2, 3 and 4 bytes a character, ids `to` down to 1. */
  const largeRows = (db: Reader['db'], to = 300) =>
    db
      .selectFrom('things' as any)
      .select(
        sql<string>`json_object('id', id, 'name', name || ' Zoë Ωμέγα 😀 ' || printf('%.*c', id * 17, 'x'))`.as(
          'json',
        ),
      )
      .where('id', '<=', to)
      .orderBy('id', 'desc')
      .compile()
  const ids = (json: string) => JSON.parse(json).map((row: { id: number }) => row.id)
  const countdown = (from: number) => Array.from({ length: from }, (_, i) => from - i)

  test("readJsonArray: the UTF-8 bytes of the JSON array of the rows' JSON texts, the same from the worker as here", async () => {
    // The array outgrows its first buffer several times, and characters fall across the boundaries.
    const [expected, actual] = await both(async (db) => (await readJsonArray(db, largeRows(db))).bytes())
    expect(actual).toEqual(expected)
    const rows = JSON.parse(new TextDecoder().decode(actual))
    expect(rows).toHaveLength(300)
    expect(rows[299]).toEqual({ id: 1, name: `thing 1 Zoë Ωμέγα 😀 ${'x'.repeat(17)}` })
    expect(rows.map((row: any) => row.id)).toEqual(countdown(300))
  })

  test('readJsonArray: each array stays as it was read while later ones are written, also two at once', async () => {
    const first = await readJsonArray(reader.db, largeRows(reader.db, 300))
    const second = await readJsonArray(reader.db, largeRows(reader.db, 20))
    const [third, fourth] = await Promise.all([
      readJsonArray(reader.db, largeRows(reader.db, 250)),
      readJsonArray(reader.db, largeRows(reader.db, 280)),
    ])
    expect(
      await Promise.all([first, second, third, fourth].map(async (array) => ids(await array.text()))),
    ).toEqual([countdown(300), countdown(20), countdown(250), countdown(280)])
  })

  test('readJsonArray: once the reader has let its idle output buffer go, the next array is written whole into a new one', async () => {
    const before = await readJsonArray(reader.db, largeRows(reader.db))
    await Bun.sleep(KEPT_OUTPUT_IDLE_MS + 250)
    const after = await readJsonArray(reader.db, largeRows(reader.db))
    expect(await after.bytes()).toEqual(await before.bytes())
    expect(ids(await after.text())).toEqual(countdown(300))
  })

  test('readJsonArray: no rows is an empty array; an SQL error is the same SQLiteError', async () => {
    const none = reader.db
      .selectFrom('things' as any)
      .select('name as json')
      .where('id', '<', 0)
      .compile()
    expect(await (await readJsonArray(reader.db, none)).text()).toBe('[]')
    const error = await thrown(() =>
      readJsonArray(
        reader.db,
        reader.db
          .selectFrom('missing' as any)
          .select('name as json')
          .compile(),
      ),
    )
    expect(error).toBeInstanceOf(SQLiteError)
    expect({ code: error.code, message: error.message }).toEqual({
      code: 'SQLITE_ERROR',
      message: 'no such table: missing',
    })
    expect(ids(await (await readJsonArray(reader.db, largeRows(reader.db, 3))).text())).toEqual([3, 2, 1])
  })

  test('readJsonArray inside a transaction reads its snapshot', async () => {
    const names = sql<string>`json_quote(name)`.as('json')
    const latest = (db: Reader['db']) =>
      db
        .selectFrom('things' as any)
        .select(names)
        .orderBy('id', 'desc')
        .limit(1)
        .compile()
    let inside = ''
    await reader.db.transaction().execute(async (trx) => {
      await trx
        .selectFrom('things' as any)
        .select('id')
        .limit(1)
        .execute()
      main.sqlite.run("INSERT INTO things (name, flag) VALUES ('after the snapshot', 0)")
      inside = await (await readJsonArray(trx, latest(trx))).text()
    })
    const outside = await (await readJsonArray(reader.db, latest(reader.db))).text()
    expect({ inside, outside }).toEqual({
      inside: expect.not.stringContaining('after the snapshot'),
      outside: '["after the snapshot"]',
    })
  })

  test('opening a file that does not exist fails (the reader never creates one)', async () => {
    const missing = join(dir, 'missing.sqlite3')
    const error = await thrown(() => openReader(missing, main.db))
    expect(error).toBeInstanceOf(SQLiteError)
    expect(error.code).toBe('SQLITE_CANTOPEN')
  })

  test('after close, queries fail instead of waiting', async () => {
    const path = join(dir, 'closing.sqlite3')
    const other = openDatabase(path)
    const closing = await openReader(path, other.db)
    expect((await sql`SELECT 1 AS x`.execute(closing.db)).rows).toEqual([{ x: 1 }])
    await closing.close()
    await expect(sql`SELECT 1 AS x`.execute(closing.db)).rejects.toThrow()
    await other.close()
  })
})
