import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { Database } from 'bun:sqlite'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openDatabase, type Connection } from '../../src/db/connection.ts'
import { BACKGROUND_WAIT_MS, GroupCommit, MAX_BATCH } from '../../src/db/group-commit.ts'
import { WalSync } from '../../src/db/wal-sync.ts'

/*
 * Group commit (src/db/group-commit.ts): the write transactions queued in one turn of the event loop
 * share one COMMIT, yet each behaves as its own transaction: in order, seeing the ones before it,
 * undone alone when it throws, and answered only once its COMMIT is on disk.
 */

let dir: string
let connection: Connection
/** A second connection to the same file: what it sees is what is committed. */
let observer: Database
let committer: GroupCommit

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'belay-group-commit-'))
  const file = join(dir, 'test.sqlite3')
  connection = openDatabase(file)
  connection.sqlite.run('CREATE TABLE parents (id INTEGER PRIMARY KEY)')
  connection.sqlite.run(
    'CREATE TABLE items (id INTEGER PRIMARY KEY, label TEXT NOT NULL UNIQUE, parent_id INTEGER REFERENCES parents (id))',
  )
  observer = new Database(file, { readonly: true })
  committer = new GroupCommit(connection.db, connection.sqlite)
})

afterEach(async () => {
  observer.close()
  await connection.close()
  rmSync(dir, { recursive: true, force: true })
})

const insert = (label: string) => () =>
  Number(connection.sqlite.query('INSERT INTO items (label) VALUES (?)').run(label).lastInsertRowid)
const committedLabels = () =>
  (observer.query('SELECT label FROM items ORDER BY id').all() as { label: string }[]).map((r) => r.label)
/** A work that inserts `label` and returns what was committed when it ran. */
const insertAndLook = (label: string) => () => {
  insert(label)()
  return committedLabels()
}

describe('group commit', () => {
  test('works queued in one turn commit together, in order', async () => {
    const seen = await Promise.all([
      committer.run(insertAndLook('a')),
      committer.run(insertAndLook('b')),
      committer.run(insertAndLook('c')),
    ])
    // No COMMIT between them: none saw another's row committed; all three are after.
    expect(seen).toEqual([[], [], []])
    expect(committedLabels()).toEqual(['a', 'b', 'c'])
  })

  test('a work resolves with what it returned', async () => {
    expect(await Promise.all([committer.run(insert('a')), committer.run(() => 'done')])).toEqual([1, 'done'])
  })

  test('a work sees the writes of the works queued before it', async () => {
    const count = () => (connection.sqlite.query('SELECT COUNT(*) AS n FROM items').get() as { n: number }).n
    const seen = await Promise.all([
      committer.run(count),
      committer.run(insert('a')),
      committer.run(count),
      committer.run(insert('b')),
      committer.run(count),
    ])
    expect([seen[0], seen[2], seen[4]]).toEqual([0, 1, 2])
  })

  test('a work that throws is undone alone and its caller gets the error; the others commit', async () => {
    const results = await Promise.allSettled([
      committer.run(insert('a')),
      committer.run(() => {
        insert('half-done')()
        throw new Error('rule broken')
      }),
      committer.run(insert('a')),
      committer.run(insert('b')),
    ])
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'rejected', 'fulfilled'])
    expect((results[1] as PromiseRejectedResult).reason.message).toBe('rule broken')
    expect((results[2] as PromiseRejectedResult).reason.message).toContain('UNIQUE constraint failed')
    expect(committedLabels()).toEqual(['a', 'b'])
  })

  test('when COMMIT fails nothing is kept and every caller of the batch gets the error', async () => {
    const results = await Promise.allSettled([
      committer.run(insert('a')),
      committer.run(() => {
        // A deferred foreign-key violation passes every statement and fails the COMMIT.
        connection.sqlite.run('PRAGMA defer_foreign_keys = ON')
        connection.sqlite.run("INSERT INTO items (label, parent_id) VALUES ('orphan', 99)")
      }),
    ])
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected'])
    expect((results[0] as PromiseRejectedResult).reason.message).toContain('FOREIGN KEY constraint failed')
    expect(committedLabels()).toEqual([])
    expect(connection.sqlite.inTransaction).toBe(false)
    // The committer carries on with the next batch.
    expect(await committer.run(insert('after'))).toBe(1)
    expect(committedLabels()).toEqual(['after'])
  })

  test('a caller is answered only once its work is committed', async () => {
    const seenAtAnswer = await committer.run(insert('a')).then(() => committedLabels())
    expect(seenAtAnswer).toEqual(['a'])
  })

  describe('on a database file with synchronous=FULL, the WAL is synced off the thread', () => {
    /** The WAL fdatasyncs started by the committer under test and not yet finished. */
    let pending: ((error: Error | null) => void)[]
    let syncing: GroupCommit
    beforeEach(() => {
      pending = []
      syncing = new GroupCommit(
        connection.db,
        connection.sqlite,
        (walPath) => new WalSync(walPath, (_fd, done) => void pending.push(done)),
      )
    })
    const tick = () => new Promise((resolve) => setTimeout(resolve, 5))

    test('a caller is answered only after the WAL fdatasync that follows its COMMIT', async () => {
      let answered = false
      const run = syncing.run(insert('a')).then(() => (answered = true))
      await tick()
      // Committed (another connection sees it), but not yet said to be.
      expect(committedLabels()).toEqual(['a'])
      expect(answered).toBe(false)
      expect(pending).toHaveLength(1)
      pending.shift()!(null)
      await run
      expect(answered).toBe(true)
    })

    test('the next batch runs while the last one syncs, and is answered after it', async () => {
      const order: string[] = []
      const first = syncing.run(insert('a')).then(() => order.push('a'))
      await tick()
      const second = syncing.run(insertAndLook('b')).then((seen) => order.push(`b saw ${seen.join(',')}`))
      await tick()
      expect(committedLabels()).toEqual(['a', 'b'])
      pending.shift()!(null)
      await tick()
      expect(order).toEqual(['a'])
      pending.shift()!(null)
      await Promise.all([first, second])
      expect(order).toEqual(['a', 'b saw a'])
    })

    test('when the fdatasync fails, nobody in the batch is told it succeeded', async () => {
      const run = syncing.run(insert('a'))
      await tick()
      pending.shift()!(new Error('EIO: i/o error, fdatasync'))
      await expect(run).rejects.toThrow('EIO')
    })

    test('between batches the connection is back at FULL, its own level', async () => {
      const levels: number[] = []
      const level = () =>
        (connection.sqlite.query('PRAGMA synchronous').get() as { synchronous: number }).synchronous
      const run = syncing.run(() => levels.push(level()))
      await tick()
      levels.push(level())
      pending.shift()!(null)
      await run
      // NORMAL (1) inside the batch, FULL (2) outside it.
      expect(levels).toEqual([1, 2])
    })
  })

  test(`a long queue is split into batches of at most ${MAX_BATCH}`, async () => {
    const n = MAX_BATCH * 2 + 1
    const seen = await Promise.all(Array.from({ length: n }, (_, i) => committer.run(insertAndLook(`${i}`))))
    expect(seen.map((committed) => committed.length)).toEqual([
      ...Array(MAX_BATCH).fill(0),
      ...Array(MAX_BATCH).fill(MAX_BATCH),
      MAX_BATCH * 2,
    ])
    expect(committedLabels()).toHaveLength(n)
  })

  test('during a rush, a work queued a moment after another still shares its commit', async () => {
    // A clock that stands still: the next work always comes within the rush's window, however
    // slowly this machine runs the test.
    const committer = new GroupCommit(connection.db, connection.sqlite, undefined, () => 0)
    // A batch of several marks a rush.
    await Promise.all([committer.run(insert('a')), committer.run(insert('b'))])
    const first = committer.run(insertAndLook('c'))
    await new Promise((resolve) => setImmediate(resolve))
    const second = committer.run(insertAndLook('d'))
    // The second ran before the first was committed: one batch.
    expect(await Promise.all([first, second])).toEqual([
      ['a', 'b'],
      ['a', 'b'],
    ])
    expect(committedLabels()).toEqual(['a', 'b', 'c', 'd'])
  })

  test("a background work queued first gives way: it runs after the door's, in a commit of its own", async () => {
    const applied = committer.run(insertAndLook('applied'), 'background')
    const scans = [committer.run(insertAndLook('a')), committer.run(insertAndLook('b'))]
    // The scans share the first commit; the background work sees them committed when it runs.
    expect(await Promise.all(scans)).toEqual([[], []])
    expect(await applied).toEqual(['a', 'b'])
    expect(committedLabels()).toEqual(['a', 'b', 'applied'])
  })

  test(`a steady rush holds a background work back ${BACKGROUND_WAIT_MS} ms at most`, async () => {
    let now = 0
    const committer = new GroupCommit(connection.db, connection.sqlite, undefined, () => now)
    const order: (number | string)[] = []
    const runs: Promise<unknown>[] = []
    // Each scan takes 5 ms and the next one is already waiting when it is done.
    const scan = (i: number) => () => {
      order.push(i)
      now += 5
      if (i < 8) runs.push(committer.run(scan(i + 1)))
    }
    runs.push(
      committer.run(() => order.push('applied'), 'background'),
      committer.run(scan(1)),
    )
    while (runs.length < 9) await new Promise((resolve) => setTimeout(resolve, 1))
    await Promise.all(runs)
    expect(order).toEqual([1, 2, 3, 4, 'applied', 5, 6, 7, 8])
  })

  test('works queued after the connection is closed are rejected, not left waiting', async () => {
    await connection.close()
    const result = await Promise.allSettled([committer.run(insert('late'))])
    expect(result[0]!.status).toBe('rejected')
    // afterEach closes it again: reopen so that it has something to close.
    connection = openDatabase(join(dir, 'test.sqlite3'))
  })

  test('waits for a Kysely transaction on the same connection instead of interleaving with it', async () => {
    let release!: () => void
    const held = new Promise<void>((resolve) => (release = resolve))
    const kysely = connection.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('items' as never)
        .values({ label: 'kysely' } as never)
        .execute()
      await held
    })
    await new Promise((resolve) => setTimeout(resolve, 5))
    const queued = committer.run(insert('queued'))
    await new Promise((resolve) => setTimeout(resolve, 5))
    expect(committedLabels()).toEqual([])
    release()
    await Promise.all([kysely, queued])
    expect(committedLabels()).toEqual(['kysely', 'queued'])
  })
})
